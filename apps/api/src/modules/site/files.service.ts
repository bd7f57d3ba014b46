import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { safeFileName, type UploadedFile } from '@wantuo/shared';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { StoredFile } from './entities/stored-file.entity';
import { sniffFileKind } from './file-types';
import { SiteRepository } from './site.repository';

/** What multer hands over (memory storage). */
export interface IncomingFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

export type UploadPurpose = 'avatar' | 'general';

/** Size limits by purpose; multer enforces the largest before the bytes reach us. */
export const UPLOAD_LIMITS: Record<UploadPurpose, number> = {
  avatar: 2 * 1024 * 1024,
  general: 20 * 1024 * 1024,
};

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** Stores uploads under UPLOAD_DIR/<yyyy-mm>/<uuid>.<ext>, served at /uploads/...; the row keeps owner, type and hash. */
@Injectable()
export class FilesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: SiteRepository,
  ) {}

  async store(file: IncomingFile | undefined, user: SessionUser, purpose: UploadPurpose): Promise<UploadedFile> {
    if (!file || file.size === 0) throw new AppError('upload.missing_file');
    if (file.size > UPLOAD_LIMITS[purpose]) throw new AppError('upload.too_large', { max: mb(UPLOAD_LIMITS[purpose]) });
    // a display name only (the stored path is our own uuid): no path, control characters or markup (text-safety.ts)
    const name = safeFileName(file.originalname);
    const kind = sniffFileKind(file.buffer, name);
    if (purpose === 'avatar' && !kind?.image) throw new AppError('upload.not_image');
    if (!kind) throw new AppError('upload.bad_type', { type: name.includes('.') ? name.split('.').pop()! : '?' });

    const id = randomUUID();
    const dir = new Date().toISOString().slice(0, 7);
    const storagePath = `${dir}/${id}.${kind.ext}`;
    const absolute = join(this.config.uploadDir, storagePath);
    await mkdir(join(this.config.uploadDir, dir), { recursive: true });
    await writeFile(absolute, file.buffer);
    try {
      await this.db.getRepository(StoredFile).insert({
        id,
        schoolId: user.schoolId,
        userId: user.id,
        name,
        mime: kind.mime,
        size: file.size,
        sha256: createHash('sha256').update(file.buffer).digest('hex'),
        storagePath,
      });
    } catch (err) {
      await rm(absolute, { force: true });
      throw err;
    }
    return { id, url: `/uploads/${storagePath}`, name, mime: kind.mime, size: file.size };
  }

  /** Removes a stored upload that the action storing it did not complete (its row and its bytes). */
  async discard(id: string): Promise<void> {
    const path = await this.repo.discardFile(id);
    if (path !== undefined) await rm(join(this.config.uploadDir, path), { force: true });
  }
}
