import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AddResourceInput,
  DataDownloadPage,
  DataDownloadQuery,
  DelResourceInput,
  ResourceAdminQuery,
  ResourcePage,
  ResourceQuery,
  SiteResource,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf, type PageQuery, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/** The columns of a resource as answered (r: site_resources, f: files). */
const RESOURCE_COLUMNS = `r.id, r.audience, r.title, r.description, r.subject, r.grade, f.name as file_name, f.mime, f.size,
  '/uploads/' || f.storage_path as url, r.created_at`;

/**
 * One page of live resources and its total in one statement: the filters are named parameters, null meaning "any"
 * ($1 audience, $2 keyword, $3 subject, $4 grade, $5 limit, $6 offset); the (audience, created_at) and (audience,
 * subject, grade, created_at) indexes serve the order.
 */
const PAGE_SQL = `select ${RESOURCE_COLUMNS}, count(*) over ()::int as total
    from site_resources r join files f on f.id = r.file_id
   where r.deleted_at is null and ($1::text is null or r.audience = $1) and ($2::text is null or r.title ilike $2)
     and ($3::text is null or r.subject = $3) and ($4::text is null or r.grade = $4)
   order by r.created_at desc, r.id desc
   limit $5 offset $6`;

type Row = SiteResource & { total: number };

/**
 * Public resources (`resource`: everyone, the /resource page) and school materials (`dataDownload`: signed-in, by
 * subject and grade), published and removed by the platform operator from files of the `upload` action. The files are
 * served from /uploads under their uuid paths like every upload.
 */
@Injectable()
export class ResourcesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async publicList(q: ResourceQuery): Promise<ResourcePage> {
    return this.page('public', q.keyword, null, null, q);
  }

  /** The materials for schools, with the subjects and grades that have any (the filters' choices) in the same round trip. */
  async dataDownload(q: DataDownloadQuery): Promise<DataDownloadPage> {
    const [page, [choices]] = await Promise.all([
      this.page('schools', q.keyword, q.subject ?? null, q.grade ?? null, q),
      this.db.query(
        `select coalesce(array_agg(distinct subject order by subject) filter (where subject is not null), '{}') as subjects,
                coalesce(array_agg(distinct grade order by grade) filter (where grade is not null), '{}') as grades
           from site_resources where audience = 'schools' and deleted_at is null`,
      ) as Promise<Array<{ subjects: string[]; grades: string[] }>>,
    ]);
    return { ...page, subjects: choices.subjects, grades: choices.grades };
  }

  async adminList(q: ResourceAdminQuery): Promise<ResourcePage> {
    return this.page(q.audience ?? null, q.keyword, null, null, q);
  }

  /** Publishes an uploaded file (the operator's own upload, which belongs to no school). One statement. */
  async add(user: SessionUser, input: AddResourceInput): Promise<SiteResource> {
    const [row]: SiteResource[] = await this.db.query(
      `with r as (
         insert into site_resources (audience, title, description, subject, grade, file_id, created_by)
         select $1, $2, $3, $4, $5, f.id, $7 from files f where f.id = $6 and f.school_id is null
         returning *)
       select ${RESOURCE_COLUMNS} from r join files f on f.id = r.file_id`,
      [input.audience, input.title, input.description ?? '', input.subject ?? null, input.grade ?? null, input.file_id, user.id],
    );
    if (!row) throw new AppError('resources.file_not_found');
    return row;
  }

  /** Removes a live resource (kept as removed, with who and when). */
  async remove(user: SessionUser, input: DelResourceInput): Promise<{ id: number }> {
    const [row]: Array<{ id: number }> = await this.db.query(
      `with u as (update site_resources set deleted_at = now(), deleted_by = $2 where id = $1 and deleted_at is null returning id) select id from u`,
      [input.id, user.id],
    );
    if (!row) throw new AppError('resources.not_found');
    return row;
  }

  private async page(
    audience: string | null,
    keyword: string | undefined,
    subject: string | null,
    grade: string | null,
    q: PageQuery,
  ): Promise<ResourcePage> {
    const pattern = containsPattern(keyword);
    const rows: Row[] = await this.db.query(PAGE_SQL, [audience, pattern, subject, grade, q.limit, offsetOf(q)]);
    if (!rows.length && q.page > 1) {
      // past the last page: the total still answers
      const [c]: Array<{ n: number }> = await this.db.query(
        `select count(*)::int as n from site_resources r where r.deleted_at is null and ($1::text is null or r.audience = $1) and ($2::text is null or r.title ilike $2)
            and ($3::text is null or r.subject = $3) and ($4::text is null or r.grade = $4)`,
        [audience, pattern, subject, grade],
      );
      return pageOf([], c.n, q);
    }
    return pageOf(
      rows.map(({ total: _, ...r }) => r),
      totalOf(rows),
      q,
    );
  }
}
