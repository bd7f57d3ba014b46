import { Injectable } from '@nestjs/common';
import type {
  AddResourceInput,
  ResourceAudience,
  DataDownloadPage,
  DataDownloadQuery,
  DelResourceInput,
  ResourceAdminQuery,
  ResourcePage,
  ResourceQuery,
  SiteResource,
} from '@wantuo/shared';
import { containsPattern, offsetOf, pageOf, type PageQuery } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { Sendable } from '../../core/http/sendable';
import { SiteRepository } from './site.repository';

/**
 * Public resources (`resource`: everyone, the /resource page) and school materials (`dataDownload`: signed-in, by
 * subject and grade), published and removed by the platform operator from files of the `upload` action. The files are
 * served from /uploads under their uuid paths like every upload.
 */
@Injectable()
export class ResourcesService {
  constructor(private readonly repo: SiteRepository) {}

  async publicList(q: ResourceQuery): Promise<Sendable<ResourcePage>> {
    return this.page('public', q.keyword, null, null, q);
  }

  /** The materials for schools, with the subjects and grades that have any (the filters' choices) in the same round trip. */
  async dataDownload(q: DataDownloadQuery): Promise<Sendable<DataDownloadPage>> {
    const [page, choices] = await Promise.all([this.page('schools', q.keyword, q.subject ?? null, q.grade ?? null, q), this.repo.choices()]);
    return { ...page, subjects: choices.subjects, grades: choices.grades };
  }

  async adminList(q: ResourceAdminQuery): Promise<Sendable<ResourcePage>> {
    return this.page(q.audience ?? null, q.keyword, null, null, q);
  }

  /** Publishes an uploaded file (the operator's own upload, which belongs to no school). One statement. */
  async add(user: SessionUser, input: AddResourceInput): Promise<Sendable<SiteResource>> {
    const row = await this.repo.add({
      audience: input.audience,
      title: input.title,
      description: input.description ?? '',
      subject: input.subject ?? null,
      grade: input.grade ?? null,
      file_id: input.file_id,
      created_by: user.id,
    });
    if (!row) throw new AppError('resources.file_not_found');
    return row;
  }

  /** Removes a live resource (kept as removed, with who and when). */
  async remove(user: SessionUser, input: DelResourceInput): Promise<{ id: number }> {
    const row = await this.repo.remove(input.id, user.id);
    if (!row) throw new AppError('resources.not_found');
    return row;
  }

  private async page(
    audience: ResourceAudience | null,
    keyword: string | undefined,
    subject: string | null,
    grade: string | null,
    q: PageQuery,
  ): Promise<Sendable<ResourcePage>> {
    const f = { audience, pattern: containsPattern(keyword), subject, grade };
    const rows = await this.repo.resources(f, q.limit, offsetOf(q));
    if (!rows.length && q.page > 1) {
      // past the last page: the total still answers
      return pageOf([], await this.repo.count(f), q);
    }
    return pageOf(
      rows.map(({ total: _, ...r }) => r),
      Number(rows[0]?.total ?? 0),
      q,
    );
  }
}
