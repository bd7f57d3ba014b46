import { Code, findClashes, Role, type Clash, type ProposedSession } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { lockedClass, type LockedClass } from './teaching-classes.repository';
import { loadBusy, nameClashes } from './teaching-schedule.repository';

/**
 * The checks shared by the teaching services (and the tutoring ones): the class the caller may touch, the clash check
 * and its refusals. Their SQL is in the teaching repositories (issue 38); what other modules import stays here.
 */

export { calendarOf, lockSchedule, loadBusy, nameClashes } from './teaching-schedule.repository';
export type { LockedClass } from './teaching-classes.repository';
export type { GenerationState, StoredSession } from './teaching-generation.repository';

/** A teacher (role 2) sees only the classes and sessions they teach; the admin all of the school's. */
export const teachesOnly = (user: SessionUser): boolean => user.role !== Role.Admin;

/**
 * A TeachingClass row (`c` teaching_classes) as SQL text: the students module's list of a student's classes still
 * reads it (this module reads teaching-classes.repository's classRows).
 */
export const CLASS_COLUMNS = `c.id, c.name, c.subject, c.teacher_id, u.name as teacher_name, c.room_id, r.name as room_name, c.capacity,
  (select count(*)::int from teaching_class_students m where m.class_id = c.id) as students, c.sessions_count,
  (select count(*)::int from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state <> 'cancelled') as sessions_scheduled,
  (select count(*)::int from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state = 'held') as sessions_held,
  c.fee_fen::float8 as fee_fen, c.status::int as status, c.version, c.created_at`;
export const CLASS_JOINS = `join users u on u.id = c.teacher_id left join rooms r on r.id = c.room_id`;

/** A teaching class of the caller's school (not deleted), locked for update when asked; a teacher only an own class. */
export async function classOf(db: Queryable, user: SchoolCaller, id: number, lock = false): Promise<LockedClass> {
  const c = await lockedClass(db, user.schoolId, id, teachesOnly(user) ? user.id : null, lock);
  if (!c) throw new AppError('teaching.class_not_found');
  return c;
}

/** The clashes of proposed sessions with what is busy over their days, with the names of who clashes. */
export async function clashesOf(
  db: Queryable,
  schoolId: number,
  proposed: ProposedSession[],
  opts: { exceptSessions: number[]; ownClass: { kind: 'teaching' | 'tutoring'; id: number } | null },
): Promise<Clash[]> {
  if (!proposed.length) return [];
  const busy = await loadBusy(db, schoolId, { ...busyScope(proposed), ...opts });
  return nameClashes(db, findClashes(proposed, busy));
}

/** The days (first to last) and the teachers, rooms and students of proposed sessions (some): what loadBusy reads for them. */
export function busyScope(proposed: readonly ProposedSession[]): {
  from: string;
  to: string;
  teacherIds: number[];
  roomIds: number[];
  studentIds: number[];
} {
  let from = proposed[0].day;
  let to = proposed[0].day;
  const teachers = new Set<number>();
  const rooms = new Set<number>();
  const students = new Set<number>();
  for (const p of proposed) {
    if (p.day < from) from = p.day;
    if (p.day > to) to = p.day;
    teachers.add(p.teacher_id);
    if (p.room_id !== null && p.room_id !== undefined) rooms.add(p.room_id);
    for (const s of p.student_ids ?? []) students.add(s);
  }
  return { from, to, teacherIds: [...teachers], roomIds: [...rooms], studentIds: [...students] };
}

/** The refusal of a write with clashes: the first one named in msg, all of them in data.clashes. */
export function clashError(clashes: Clash[]): AppError {
  const c = clashes[0];
  return new AppError(
    `teaching.clash_${c.kind}`,
    {
      count: clashes.length,
      who: c.who_name ?? String(c.who),
      day: c.day,
      start_time: c.start_time,
      end_time: c.end_time,
      with: c.with.label,
      with_start: c.with.start_time,
      with_end: c.with.end_time,
    },
    Code.Error,
    { clashes },
  );
}

/** The database's own refusal (an exclusion constraint: a writer outside the scheduling lock got there first). */
export function overlapError(): AppError {
  return new AppError('teaching.clash_database');
}

/** An exclusion constraint of class_sessions refused the write (a race the lock did not cover). */
export const isOverlapViolation = (err: unknown): boolean => (err as { code?: string }).code === '23P01';
