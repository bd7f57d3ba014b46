import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type CoursewareDictEntry, type CoursewareDictKind, type SaveCoursewareDictInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/** How long a process keeps the dictionaries before reading them again (another process's edit shows within it). */
export const DICT_CACHE_MS = 60_000;

const DICT_COLUMNS = `id, name, sort, active, version`;

/**
 * The six dictionaries of the catalogue. They change rarely: all six are read in one query and kept in this process
 * for DICT_CACHE_MS; an edit through this process drops the copy at once (another API process sees it within the
 * minute).
 */
@Injectable()
export class DictsService {
  private cache: { at: number; byKind: Map<CoursewareDictKind, CoursewareDictEntry[]> } | null = null;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private async all(): Promise<Map<CoursewareDictKind, CoursewareDictEntry[]>> {
    if (this.cache && Date.now() - this.cache.at < DICT_CACHE_MS) return this.cache.byKind;
    const rows: Array<CoursewareDictEntry & { kind: CoursewareDictKind }> = await this.db.query(
      `select kind, ${DICT_COLUMNS} from courseware_dicts order by kind, sort, id`,
    );
    const byKind = new Map<CoursewareDictKind, CoursewareDictEntry[]>();
    for (const { kind, ...entry } of rows) byKind.set(kind, [...(byKind.get(kind) ?? []), entry]);
    this.cache = { at: Date.now(), byKind };
    return byKind;
  }

  /** One dictionary in order: its active entries (the operator may ask for all). */
  async list(user: SessionUser, kind: CoursewareDictKind, all = false): Promise<CoursewareDictEntry[]> {
    const entries = (await this.all()).get(kind) ?? [];
    return all && user.role === Role.Operator ? entries : entries.filter((e) => e.active);
  }

  /** The operator adds an entry (no id) or edits one on the version read. */
  async save(user: SessionUser, input: SaveCoursewareDictInput): Promise<CoursewareDictEntry> {
    let rows: CoursewareDictEntry[];
    try {
      if (input.id === undefined) {
        rows = await this.db.query(
          `insert into courseware_dicts (kind, name, sort, active, updated_by) values ($1, $2, $3, $4, $5) returning ${DICT_COLUMNS}`,
          [input.kind, input.name, input.sort ?? 0, input.active ?? true, user.id],
        );
      } else {
        if (input.version === undefined) throw new AppError('courseware.v.version_invalid');
        rows = await this.db.query(
          `with u as (
             update courseware_dicts set name = $3, sort = coalesce($4, sort), active = coalesce($5, active), version = version + 1,
                    updated_by = $7, updated_at = now()
              where id = $1 and kind = $2 and version = $6 returning ${DICT_COLUMNS}
           ) select * from u`,
          [input.id, input.kind, input.name, input.sort ?? null, input.active ?? null, input.version, user.id],
        );
        if (!rows.length) {
          const [exists]: unknown[] = await this.db.query(`select 1 from courseware_dicts where id = $1 and kind = $2`, [input.id, input.kind]);
          throw new AppError(exists ? 'courseware.stale' : 'courseware.dict_not_found');
        }
      }
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('courseware.dict_name_taken');
      throw err;
    }
    this.cache = null;
    return rows[0];
  }

  /** Throws unless every id given is an entry of its dictionary (active ones only for new choices). */
  async check(refs: Partial<Record<CoursewareDictKind, number | null | undefined>>): Promise<void> {
    const byKind = await this.all();
    for (const [kind, id] of Object.entries(refs) as Array<[CoursewareDictKind, number | null | undefined]>) {
      if (id === null || id === undefined) continue;
      if (!(byKind.get(kind) ?? []).some((e) => e.id === id)) {
        // the copy may be older than a new entry: ask the database before refusing
        const [row]: unknown[] = await this.db.query(`select 1 from courseware_dicts where id = $1 and kind = $2`, [id, kind]);
        if (!row) throw new AppError('courseware.dict_not_found');
      }
    }
  }
}
