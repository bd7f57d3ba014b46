import {
  effectiveWeekday,
  toMinutes,
  type CancelTeachingSessionInput,
  type Clash,
  type MessageKey,
  type MoveTeachingSessionInput,
  type Page,
  type ProposedSession,
  type TeachingSession,
  type TeachingSessionsQuery,
} from '@wantuo/shared';
import type { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import type { Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import { calendarOf, cancelSessions, lockSchedule, roomOfSchool, type SessionKind } from './teaching-schedule.repository';
import { classMembers, lockSession, moveSession, sessionOne, sessionPage } from './teaching-sessions.repository';
import { classOf, clashError, clashesOf, isOverlapViolation, teachesOnly } from './teaching-sql';

/**
 * One core for the sessions of teaching and tutoring classes (class_sessions rows of either kind): a session locked on
 * the version read, moved with the clash rules, cancelled, read one by one or a class's page. What differs between the
 * kinds is a SessionRules object each (TEACHING_SESSION_RULES here, TUTORING_SESSION_RULES in the tutoring module), not a test of the kind in the code.
 */

type Db = Queryable;

export type { SessionKind } from './teaching-schedule.repository';

/** The refusals of a session's reads and writes. */
type SessionKeys = Record<'notFound' | 'stale' | 'notPlanned' | 'classStopped' | 'roomNotFound' | 'dayIsHoliday' | 'clashDatabase', MessageKey>;

/** What differs between the kinds of class whose sessions the core keeps. */
export interface SessionRules {
  kind: SessionKind;
  keys: SessionKeys;
  /** the teacher whose sessions alone the caller sees (a teacher their own), or null: every one of the school */
  teacherOf(user: SchoolCaller): number | null;
  /** one() reads a session of either kind (the teaching one is also the roll call's, of both kinds) */
  oneOfAnyKind: boolean;
  /** a session of a deleted class is not found when cancelled */
  cancelLiveClassOnly: boolean;
  /** the class whose sessions are listed, refused when the caller does not see it */
  checkClass(db: Db, user: SchoolCaller, classId: number): Promise<unknown>;
  /** the clashes of a moved session with what its teacher, room and students are busy with then */
  clashes(db: Db, schoolId: number, proposed: ProposedSession[], opts: { exceptSessions: number[]; ownClass: number }): Promise<Clash[]>;
}

/** A kind's refusals: its module's own message keys. */
export const keysOf = (ns: SessionKind): SessionKeys => ({
  notFound: `${ns}.session_not_found`,
  stale: `${ns}.session_stale`,
  notPlanned: `${ns}.session_not_planned`,
  classStopped: `${ns}.class_stopped`,
  roomNotFound: `${ns}.room_not_found`,
  dayIsHoliday: `${ns}.day_is_holiday`,
  clashDatabase: `${ns}.clash_database`,
});

/** The teaching classes' rules (the tutoring module declares its own: TUTORING_SESSION_RULES). */
export const TEACHING_SESSION_RULES: SessionRules = {
  kind: 'teaching',
  keys: keysOf('teaching'),
  teacherOf: (user) => (teachesOnly(user) ? user.id : null),
  oneOfAnyKind: true,
  cancelLiveClassOnly: false,
  checkClass: (db, user, classId) => classOf(db, user, classId),
  clashes: (db, schoolId, proposed, o) =>
    clashesOf(db, schoolId, proposed, { exceptSessions: o.exceptSessions, ownClass: { kind: 'teaching', id: o.ownClass } }),
};

/** The sessions of one kind of class: its service delegates to one of these. */
export class SessionCore {
  constructor(
    private readonly db: DataSource,
    private readonly rules: SessionRules,
  ) {}

  /** The class's sessions in day order with their lesson number (among those not cancelled), paged, by range and state. */
  async page(user: SchoolCaller, q: TeachingSessionsQuery): Promise<Page<TeachingSession>> {
    await this.rules.checkClass(this.db, user, q.class_id);
    return sessionPage(this.db, this.rules.kind, q);
  }

  /** One session of the school with its lesson number (the caller's to see: see SessionRules.teacherOf). */
  async one(db: Db, user: SchoolCaller, id: number): Promise<TeachingSession> {
    const row = await sessionOne(db, user.schoolId, id, this.rules.teacherOf(user), this.rules.oneOfAnyKind ? null : this.rules.kind);
    if (!row) throw new AppError(this.rules.keys.notFound);
    return row.lesson_no === 0 ? { ...row, lesson_no: null } : row;
  }

  /**
   * Moves one planned session (day, times, room) on the version read under the school's scheduling lock, with the
   * clash rules of the generation for its teacher, room and students: refused when its class is stopped, on a
   * holiday or with the clash list. Two moves into one slot: the second waits for the lock and then sees the first's.
   */
  async move(user: SchoolCaller, input: MoveTeachingSessionInput): Promise<TeachingSession> {
    const school = user.schoolId;
    const { keys } = this.rules;
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const s = await this.lock(em, school, input, false);
      // a stopped class's sessions stay as they were (they may still be cancelled)
      if (s.class_status !== 1) throw new AppError(keys.classStopped);
      const roomId = input.room_id === undefined ? s.room_id : input.room_id;
      if (roomId !== null && !(await roomOfSchool(em, roomId, school))) throw new AppError(keys.roomNotFound);
      const calendar = await calendarOf(em, school, input.day, input.day);
      const weekday = effectiveWeekday(input.day, new Map(calendar.map((c) => [c.day, c])));
      if (weekday === null) throw new AppError(keys.dayIsHoliday, { day: input.day });
      const start = toMinutes(input.start_time);
      const end = toMinutes(input.end_time);
      const members = await classMembers(em, this.rules.kind, s.class_id);
      const proposed = { day: input.day, weekday, start, end, teacher_id: s.teacher_id, room_id: roomId, session_id: s.id };
      const clashes = await this.rules.clashes(em, school, [{ ...proposed, student_ids: members }], {
        exceptSessions: [s.id],
        ownClass: s.class_id,
      });
      if (clashes.length) throw clashError(clashes);
      await moveSession(em, s.id, { day: input.day, start, end, roomId })
        // the database's own refusal (an exclusion constraint: a writer outside the scheduling lock got there first)
        .catch((err: unknown) => {
          throw isOverlapViolation(err) ? new AppError(keys.clashDatabase) : err;
        });
    });
    return this.one(this.db, user, input.id);
  }

  /** Cancels one planned session with a reason on the version read: it frees its teacher and room. */
  async cancel(user: SchoolCaller, input: CancelTeachingSessionInput): Promise<TeachingSession> {
    await this.db.transaction(async (em) => {
      const s = await this.lock(em, user.schoolId, input, this.rules.cancelLiveClassOnly);
      await cancelSessions(em, [s.id], input.reason);
    });
    return this.one(this.db, user, input.id);
  }

  /** The session of this kind locked for update, on the version read and still planned (the concurrency check). */
  private async lock(em: Db, schoolId: number, at: { id: number; version: number }, liveClass: boolean) {
    const s = await lockSession(em, this.rules.kind, schoolId, at.id, liveClass);
    if (!s) throw new AppError(this.rules.keys.notFound);
    if (s.version !== at.version) throw new AppError(this.rules.keys.stale);
    if (s.state !== 'planned') throw new AppError(this.rules.keys.notPlanned);
    return s;
  }
}
