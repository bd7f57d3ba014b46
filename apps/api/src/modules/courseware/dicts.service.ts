import { Injectable } from '@nestjs/common';
import { Role, type CoursewareDictEntry, type CoursewareDictKind, type SaveCoursewareDictInput } from '@wantuo/shared';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { CoursewareDictsRepository } from './courseware-dicts.repository';

/** How long a process keeps the dictionaries before reading them again (another process's edit shows within it). */
export const DICT_CACHE_MS = 60_000;

/**
 * The six dictionaries of the catalogue. They change rarely: all six are read in one query and kept in this process
 * for DICT_CACHE_MS; an edit through this process drops the copy at once (another API process sees it within the
 * minute).
 */
@Injectable()
export class DictsService {
  private cache: { at: number; byKind: Map<CoursewareDictKind, CoursewareDictEntry[]> } | null = null;

  constructor(private readonly repo: CoursewareDictsRepository) {}

  private async all(): Promise<Map<CoursewareDictKind, CoursewareDictEntry[]>> {
    if (this.cache && Date.now() - this.cache.at < DICT_CACHE_MS) return this.cache.byKind;
    const rows = await this.repo.all();
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
    let row: CoursewareDictEntry | undefined;
    try {
      if (input.id === undefined) {
        row = await this.repo.insert({ kind: input.kind, name: input.name, sort: input.sort ?? 0, active: input.active ?? true, userId: user.id });
      } else {
        if (input.version === undefined) throw new AppError('courseware.v.version_invalid');
        row = await this.repo.update({
          id: input.id,
          kind: input.kind,
          name: input.name,
          sort: input.sort ?? null,
          active: input.active ?? null,
          version: input.version,
          userId: user.id,
        });
        if (!row) throw new AppError((await this.repo.exists(input.id, input.kind)) ? 'courseware.stale' : 'courseware.dict_not_found');
      }
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('courseware.dict_name_taken');
      throw err;
    }
    this.cache = null;
    return row;
  }

  /** Throws unless every id given is an entry of its dictionary (active ones only for new choices). */
  async check(refs: Partial<Record<CoursewareDictKind, number | null | undefined>>): Promise<void> {
    const byKind = await this.all();
    for (const [kind, id] of Object.entries(refs) as Array<[CoursewareDictKind, number | null | undefined]>) {
      if (id === null || id === undefined) continue;
      if (!(byKind.get(kind) ?? []).some((e) => e.id === id)) {
        // the copy may be older than a new entry: ask the database before refusing
        if (!(await this.repo.exists(id, kind))) throw new AppError('courseware.dict_not_found');
      }
    }
  }
}
