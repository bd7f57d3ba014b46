import { Inject, Injectable } from '@nestjs/common';
import {
  COURSEWARE_URL_TTL_SECONDS,
  OFFICE_PREVIEW_MIMES,
  Role,
  safeFileName,
  type CoursewareFileRow,
  type CoursewareUploaded,
  type FilePreview,
} from '@wantuo/shared';
import type { Response } from 'express';
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Queryable } from '../../core/database/sql-kit';
import { schoolCaller } from '../../core/auth/current-user.decorator';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { MAX_UPLOAD_BYTES } from '../../core/http/multipart';
import { sniffFileKind } from '../site/file-types';
import type { IncomingFile } from '../site/files.service';
import { CoursewareFilesRepository, hasFile, insertFile, type SectionFile } from './courseware-files.repository';
import { PRIVATE_PREFIX } from './courseware-sql';
import { convertOffice, LEGACY_OFFICE_MIMES, OFFICE_PREVIEW_MAX_BYTES, type OfficePreview } from './office-preview';
import { countPdfPages } from './pdf-pages';

/** The caller's school for the access rules; the operator (no school) is 0, which no school has. */
const schoolKey = (user: SessionUser): number => (user.role === Role.Operator ? 0 : schoolCaller(user).schoolId);

/** Staff of a school (admin, teachers, head teachers) may open courseware files; parents never. */
const STAFF = new Set<Role>([Role.Admin, Role.Teacher, Role.HeadTeacher]);

/** Where signed file URLs point: outside /api/index (not an action), streamed by CoursewareStreamController. */
export const STREAM_PATH = '/api/courseware/file';
/** Converted office previews, by the file's hash (a dot folder: the static /uploads never serves it). */
const PREVIEW_CACHE_DIR = '.preview';
/** Bumped when the conversion changes, so older cached previews are not answered. */
const PREVIEW_CACHE_VERSION = 'v1';

/**
 * Courseware files: stored privately under UPLOAD_DIR/.courseware (the public /uploads static path ignores dot folders,
 * so a guessed /uploads URL answers 404), and handed out only as SIGNED, SHORT-LIVED URLs: HMAC-SHA256 over
 * (file id, school, expiry) with the deployment's key (courseware_sign_keys), valid COURSEWARE_URL_TTL_SECONDS. The
 * stream checks the signature, the expiry AND the school's access again, so a refund closes the files at once, even
 * for a URL handed out before it.
 */
@Injectable()
export class CoursewareFilesService {
  private key: Buffer | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: CoursewareFilesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private async signKey(): Promise<Buffer> {
    if (!this.key) {
      this.key = Buffer.from(await this.repo.signKey(), 'utf8');
    }
    return this.key;
  }

  private mac(key: Buffer, fileId: string, school: number, exp: number): string {
    return createHmac('sha256', key).update(`${fileId}.${school}.${exp}`).digest('base64url');
  }

  /** A signed URL of a stored file for the caller's school, and when it ends. */
  async sign(fileId: string, school: number): Promise<{ url: string; expires_at: string }> {
    const exp = Math.floor(Date.now() / 1000) + COURSEWARE_URL_TTL_SECONDS;
    const sig = this.mac(await this.signKey(), fileId, school, exp);
    return { url: `${STREAM_PATH}/${fileId}?s=${school}&e=${exp}&sig=${sig}`, expires_at: new Date(exp * 1000).toISOString() };
  }

  // ---------------------------------------------------------------- upload

  /** Stores a courseware file privately (operator: the platform's; admin: the school's own sections). */
  async upload(file: IncomingFile | undefined, user: SessionUser): Promise<CoursewareUploaded> {
    if (!file || file.size === 0) throw new AppError('upload.missing_file');
    if (file.size > MAX_UPLOAD_BYTES) throw new AppError('upload.too_large', { max: `${MAX_UPLOAD_BYTES / 1024 / 1024} MB` });
    const name = safeFileName(file.originalname);
    const kind = sniffFileKind(file.buffer, name);
    if (!kind) throw new AppError('upload.bad_type', { type: name.includes('.') ? name.split('.').pop()! : '?' });
    return this.storeBytes(file.buffer, name, kind.mime, kind.ext, user.role === Role.Operator ? null : user.schoolId, user.id);
  }

  /** Writes the bytes under .courseware/<yyyy-mm>/<uuid>.<ext> and their row (also used by the demo seed). */
  async storeBytes(buf: Buffer, name: string, mime: string, ext: string, schoolId: number | null, userId: number): Promise<CoursewareUploaded> {
    return storeCoursewareBytes(this.db, this.config.uploadDir, { buf, name, mime, ext, schoolId, userId });
  }

  // ---------------------------------------------------------------- reading

  /** The files of a section, each with a signed URL (stored files) or its link (videos): only when the school may open them. */
  async sectionFiles(user: SessionUser, sectionId: number): Promise<CoursewareFileRow[]> {
    const rows = await this.filesOf(user, sectionId);
    return Promise.all(rows.map((r) => this.present(r, schoolKey(user))));
  }

  /**
   * The files of every section of a courseware the school sees and may open (its sections in order), of one kind or
   * all: refused when it may open none of them (not owned).
   */
  async coursewareFiles(user: SessionUser, coursewareId: number, kind?: CoursewareFileRow['kind']): Promise<CoursewareFileRow[]> {
    const school = schoolKey(user);
    const rows = await this.repo.coursewareFiles(school, coursewareId, kind ?? null);
    if (!rows.length) throw new AppError('courseware.not_found');
    const open = rows.filter((r) => r.open);
    if (!open.length && rows.some((r) => r.section_id !== null)) throw new AppError('courseware.not_owned');
    return Promise.all(open.filter(hasFile).map((r) => this.present(r, school)));
  }

  /** The PDF of a section (its first, or the one asked for) with a signed URL: only when the school may open it. */
  async sectionPdf(user: SessionUser, sectionId: number, fileId?: number): Promise<CoursewareFileRow> {
    const rows = await this.filesOf(user, sectionId);
    const pdf = rows.find((r) => r.kind === 'pdf' && (fileId === undefined || r.id === fileId));
    if (!pdf) throw new AppError(fileId === undefined ? 'courseware.no_pdf' : 'courseware.file_not_found');
    return this.present(pdf, schoolKey(user));
  }

  private async filesOf(user: SessionUser, sectionId: number): Promise<SectionFile[]> {
    const school = schoolKey(user);
    // one query: the section as the school sees it (visible at all, files open) and its files
    const rows = await this.repo.sectionFiles(school, sectionId);
    if (!rows.length) throw new AppError('courseware.section_not_found');
    if (!rows[0].open && user.role !== Role.Operator) throw new AppError('courseware.not_owned');
    return rows.filter(hasFile);
  }

  private async present(r: SectionFile, school: number): Promise<CoursewareFileRow> {
    const signed = r.file_id ? await this.sign(r.file_id, school) : { url: r.video_url!, expires_at: null };
    return {
      id: r.id,
      kind: r.kind,
      file_id: r.file_id,
      section_id: r.section_id,
      section_title: r.section_title,
      name: r.name,
      mime: r.mime,
      size: r.size,
      pages: r.pages,
      url: signed.url,
      expires_at: signed.expires_at,
    };
  }

  // ---------------------------------------------------------------- preview (site)

  /**
   * `preview`: url, MIME type and page count of a file by id. A public upload of the caller's school (or the
   * platform's) answers its /uploads URL; a courseware file a signed URL, only when the caller may open it (staff of a
   * school that owns it, or of the school that uploaded it; the operator). PDFs and images are shown; .docx, .xlsx and
   * .pptx are converted to sanitised HTML (kind `html`); the legacy .doc, .xls and .ppt are refused
   * (courseware.preview_unsupported: the download stays); anything else is offered for download only (kind `download`).
   */
  async preview(user: SessionUser, id: string): Promise<FilePreview> {
    const school = schoolKey(user);
    const f = await this.repo.storedFile(school, id);
    if (!f) throw new AppError('courseware.file_not_found');
    const isPrivate = f.storage_path.startsWith(PRIVATE_PREFIX);
    let url: string;
    let expires: string | null = null;
    if (isPrivate) {
      const allowed = user.role === Role.Operator || (STAFF.has(user.role) && f.open);
      if (!allowed) throw new AppError('courseware.file_not_found');
      ({ url, expires_at: expires } = await this.sign(f.id, school));
    } else {
      if (f.school_id !== null && f.school_id !== user.schoolId && user.role !== Role.Operator) throw new AppError('courseware.file_not_found');
      url = `/uploads/${f.storage_path}`;
    }
    const base = { id: f.id, name: f.name, mime: f.mime, url, expires_at: expires, html: null, truncated: false };
    const office = OFFICE_PREVIEW_MIMES[f.mime];
    if (office) return { ...base, kind: 'html', ...(await this.officePreview(f, office)) };
    if (LEGACY_OFFICE_MIMES[f.mime]) throw new AppError('courseware.preview_unsupported', { type: LEGACY_OFFICE_MIMES[f.mime] });
    const kind: FilePreview['kind'] = f.mime === 'application/pdf' ? 'pdf' : f.mime.startsWith('image/') ? 'image' : 'download';
    let pages = kind === 'image' ? 1 : f.pages;
    if (kind === 'pdf' && pages === null) {
      pages = countPdfPages(await readFile(join(this.config.uploadDir, f.storage_path)).catch(() => Buffer.alloc(0)));
    }
    return { ...base, kind, pages };
  }

  /**
   * An office file converted to sanitised HTML (office-preview.ts), cached under UPLOAD_DIR/.preview (a dot folder,
   * never served) by the file's SHA-256 and the converter's version, so a second opening does not convert again. Files
   * over OFFICE_PREVIEW_MAX_BYTES are not converted; a failed conversion is not cached (each opening refuses it again).
   */
  private async officePreview(
    f: { storage_path: string; size: number; sha256: string },
    format: 'docx' | 'xlsx' | 'pptx',
  ): Promise<{ html: string; pages: number; truncated: boolean }> {
    if (f.size > OFFICE_PREVIEW_MAX_BYTES)
      throw new AppError('courseware.preview_too_large', { max: `${OFFICE_PREVIEW_MAX_BYTES / 1024 / 1024} MB` });
    const dir = join(this.config.uploadDir, PREVIEW_CACHE_DIR);
    const cached = join(dir, `${PREVIEW_CACHE_VERSION}-${f.sha256}.json`);
    const hit = await readFile(cached, 'utf8').catch(() => null);
    if (hit) return JSON.parse(hit) as OfficePreview;
    const file = await readFile(join(this.config.uploadDir, f.storage_path)).catch(() => null);
    if (!file) throw new AppError('courseware.preview_bad_file');
    const out = await convertOffice(format, file);
    await mkdir(dir, { recursive: true });
    const tmp = `${cached}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify(out));
    await rename(tmp, cached);
    return out;
  }

  // ---------------------------------------------------------------- the stream behind a signed URL

  /** Streams a courseware file for a valid signature, before its expiry, while the school may still open it. */
  async stream(res: Response, fileId: string, q: { s: number; e: number; sig: string }): Promise<void> {
    const refuse = (status: number, text: string) => {
      res.status(status).type('text/plain').setHeader('Cache-Control', 'no-store');
      res.send(text);
    };
    const expected = Buffer.from(this.mac(await this.signKey(), fileId, q.s, q.e));
    const given = Buffer.from(q.sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refuse(403, 'invalid signature');
    if (q.e * 1000 < Date.now()) return refuse(403, 'link expired');
    const f = await this.repo.storedFile(q.s, fileId, { anySchool: true, privateOnly: true });
    if (!f) return refuse(404, 'not found');
    if (!f.open) return refuse(403, 'not owned');
    const ascii = f.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    await new Promise<void>((resolve) => {
      res.sendFile(
        join(this.config.uploadDir, f.storage_path),
        {
          dotfiles: 'allow',
          headers: {
            'Content-Type': f.mime,
            'Content-Disposition': `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
            'Cache-Control': 'private, no-store',
            'X-Content-Type-Options': 'nosniff',
          },
        },
        (err) => {
          if (err && !res.headersSent) refuse(404, 'not found');
          resolve();
        },
      );
    });
  }
}

/** Writes courseware bytes privately and their files row; answers what coursewareUpload answers. */
export async function storeCoursewareBytes(
  db: Queryable,
  uploadDir: string,
  f: { buf: Buffer; name: string; mime: string; ext: string; schoolId: number | null; userId: number },
): Promise<CoursewareUploaded> {
  const id = randomUUID();
  const dir = `${PRIVATE_PREFIX}${new Date().toISOString().slice(0, 7)}`;
  const storagePath = `${dir}/${id}.${f.ext}`;
  const absolute = join(uploadDir, storagePath);
  const pages = f.mime === 'application/pdf' ? countPdfPages(f.buf) : f.mime.startsWith('image/') ? 1 : null;
  await mkdir(join(uploadDir, dir), { recursive: true });
  await writeFile(absolute, f.buf);
  try {
    await insertFile(db, {
      id,
      school_id: f.schoolId,
      user_id: f.userId,
      name: f.name,
      mime: f.mime,
      size: f.buf.length,
      sha256: createHash('sha256').update(f.buf).digest('hex'),
      storage_path: storagePath,
      pages,
    });
  } catch (err) {
    await rm(absolute, { force: true });
    throw err;
  }
  return { id, name: f.name, mime: f.mime, size: f.buf.length, pages };
}
