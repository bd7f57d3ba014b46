import { findClashes, type Clash, type ProposedSession } from '@wantuo/shared';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { keysOf, type SessionRules } from '../teaching/session-core';
import { busyScope, loadBusy } from '../teaching/teaching-sql';
import { namesOf, roomOfSchool, workingTeacher } from '../teaching/teaching-schedule.repository';
import { lockedClass, type LockedTutoringClass } from './tutoring-classes.repository';
import { studentsTutoringSessions } from './tutoring-students.repository';

/** The checks shared by the tutoring services (their SQL in the tutoring repositories). Sessions are class_sessions rows of kind 'tutoring'. */

export { seedTypes } from './tutoring-classes.repository';
export type { LockedTutoringClass } from './tutoring-classes.repository';

/** A tutoring class of the school (not deleted), locked for update when asked. */
export async function tutoringClassOf(db: Queryable, schoolId: number, id: number, lock = false): Promise<LockedTutoringClass> {
  const c = await lockedClass(db, schoolId, id, lock);
  if (!c) throw new AppError('tutoring.class_not_found');
  return c;
}

/** A working teacher (or head teacher) of the school. */
export async function checkTeacher(db: Queryable, schoolId: number, teacherId: number): Promise<void> {
  if (!(await workingTeacher(db, teacherId, schoolId))) throw new AppError('tutoring.teacher_invalid');
}

export async function checkRoom(db: Queryable, schoolId: number, roomId: number | null | undefined): Promise<void> {
  if (roomId === null || roomId === undefined) return;
  if (!(await roomOfSchool(db, roomId, schoolId))) throw new AppError('tutoring.room_not_found');
}

/**
 * The clashes of proposed tutoring sessions: the teaching module's busy intervals (teachers' and rooms' sessions of
 * either kind, the students' teaching sessions and care time slots) plus the students' other tutoring sessions, checked
 * by the shared rule, with the names of who clashes and the tutoring classes' names on their sessions. Four to six
 * statements whatever the numbers.
 */
export async function tutoringClashes(
  db: Queryable,
  schoolId: number,
  proposed: ProposedSession[],
  opts: { exceptSessions: number[]; ownClass: number | null },
): Promise<Clash[]> {
  if (!proposed.length) return [];
  const range = busyScope(proposed);
  const busy = await loadBusy(db, schoolId, {
    ...range,
    exceptSessions: opts.exceptSessions,
    ownClass: opts.ownClass === null ? null : { kind: 'tutoring', id: opts.ownClass },
  });
  if (range.studentIds.length) {
    const theirs = await studentsTutoringSessions(db, schoolId, {
      from: range.from,
      to: range.to,
      studentIds: range.studentIds,
      ownClass: opts.ownClass ?? 0,
      exceptSessions: opts.exceptSessions,
    });
    // once the teaching module counts tutoring members too, the same session is not listed twice
    const known = new Set(busy.filter((b) => b.kind === 'student' && b.ref.session_id).map((b) => `${b.who}:${b.ref.session_id}`));
    for (const s of theirs) {
      if (known.has(`${s.who}:${s.id}`)) continue;
      busy.push({
        kind: 'student',
        who: s.who,
        day: s.day,
        start: s.start_min,
        end: s.end_min,
        ref: { source: 'tutoring', session_id: s.id, class_id: s.class_id, label: 'tutoring' },
      });
    }
  }
  const clashes = findClashes(proposed, busy);
  if (!clashes.length) return clashes;
  return named(db, clashes);
}

/** Who clashes by name, and the tutoring sessions labelled with their class's name (one statement). */
async function named(db: Queryable, clashes: Clash[]): Promise<Clash[]> {
  const ids = (kind: Clash['kind']) => [...new Set(clashes.filter((c) => c.kind === kind).map((c) => c.who))];
  const tutoring = [...new Set(clashes.filter((c) => c.with.source === 'tutoring' && c.with.class_id).map((c) => c.with.class_id as number))];
  const names = await namesOf(db, { teacher: ids('teacher'), room: ids('room'), student: ids('student'), tutoring });
  const byKey = new Map(names.map((n) => [`${n.k}:${n.id}`, n.name]));
  return clashes.map((c) => ({
    ...c,
    who_name: byKey.get(`${c.kind}:${c.who}`) ?? String(c.who),
    with: c.with.source === 'tutoring' && c.with.class_id ? { ...c.with, label: byKey.get(`tutoring:${c.with.class_id}`) ?? c.with.label } : c.with,
  }));
}

/** The tutoring classes' sessions in the shared session core (teaching/session-core.ts): their own refusals and clashes. */
export const TUTORING_SESSION_RULES: SessionRules = {
  kind: 'tutoring',
  keys: keysOf('tutoring'),
  teacherOf: () => null,
  oneOfAnyKind: false,
  cancelLiveClassOnly: true,
  checkClass: (db, user, classId) => tutoringClassOf(db, user.schoolId, classId),
  clashes: (db, schoolId, proposed, o) => tutoringClashes(db, schoolId, proposed, o),
};
