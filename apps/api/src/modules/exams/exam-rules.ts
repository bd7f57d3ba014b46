import { defaultPass2, Role } from '@wantuo/shared';
import type { AccessRepository } from '../../core/access/access';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { ExamsRepository } from './exams.repository';

/** A teacher or head teacher (limited to own classes: headed, or on duty in); else the admin (the whole school). */
export const isTeacher = (user: SessionUser) => user.role === Role.Teacher || user.role === Role.HeadTeacher;

/** The Exam answer of a row (pass mark in marks, the default one when none was given). */
export function toExam<R extends { pass2: number | null; full_mark: number }>(r: R) {
  const { pass2, ...rest } = r;
  return { ...rest, pass_mark: (pass2 ?? defaultPass2(r.full_mark)) / 2, pass_mark_given: pass2 !== null };
}

/** An exam as examOf reads it: with its classes, and those of them that are the caller's (all of them for the admin). */
export type ExamHead = NonNullable<Awaited<ReturnType<ExamsRepository['head']>>>;

/**
 * Reads (with `lock`: locks) an exam of the caller's school. A teacher only finds exams with at least one own class;
 * with `manage`, only exams all of whose classes are theirs (else `exams.not_own_class`).
 */
export async function examOf(
  repo: ExamsRepository,
  on: Queryable,
  user: SchoolCaller,
  id: number,
  opts: { lock?: boolean; manage?: boolean } = {},
): Promise<ExamHead> {
  const row = await repo.head(on, user.schoolId, id, isTeacher(user) ? user.id : null, opts.lock ?? false);
  if (!row || row.own_ids.length === 0) throw new AppError('exams.not_found');
  if (opts.manage && row.own_ids.length !== row.class_ids.length) throw new AppError('exams.not_own_class');
  return row;
}

/** Checks that the classes exist in the caller's school, are live and (for a teacher) are own classes. */
export async function checkClasses(access: AccessRepository, on: Queryable, user: SchoolCaller, ids: number[]): Promise<void> {
  const ok = await access.careClasses(user, ids, on);
  if (ok.size !== ids.length) throw new AppError('exams.classes_not_found', { ids: ids.filter((id) => !ok.has(id)).join(', ') });
}
