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
import type { DataSource, EntityManager } from 'typeorm';
import { offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { tutoringClashes, tutoringClassOf } from '../tutoring/tutoring-sql';
import {
  calendarOf,
  classOf,
  clashError,
  clashesOf,
  isOverlapViolation,
  lockSchedule,
  schoolOf,
  SESSION_COLUMNS,
  SESSION_JOINS,
  teachesOnly,
} from './teaching-sql';

/**
 * One core for the sessions of teaching and tutoring classes (class_sessions rows of either kind): a session locked on
 * the version read, moved with the clash rules, cancelled, read one by one or a class's page. What differs between the
 * kinds is a SessionRules object each (SESSION_RULES), not a test of the kind in the code.
 */

type Db = Pick<EntityManager, 'query'>;

export type SessionKind = 'teaching' | 'tutoring';

/** The tables of each kind of class: its classes and its students (the roll call reads a session's by its kind). */
export const CLASS_TABLES = {
  teaching: { classes: 'teaching_classes', members: 'teaching_class_students' },
  tutoring: { classes: 'tutoring_classes', members: 'tutoring_class_students' },
} as const;

/** The refusals of a session's reads and writes. */
type SessionKeys = Record<'notFound' | 'stale' | 'notPlanned' | 'classStopped' | 'roomNotFound' | 'dayIsHoliday' | 'clashDatabase', MessageKey>;

/** What differs between the kinds of class whose sessions the core keeps. */
export interface SessionRules {
  kind: SessionKind;
  keys: SessionKeys;
  /** the teacher whose sessions alone the caller sees (a teacher their own), or null: every one of the school */
  teacherOf(user: SessionUser): number | null;
  /** one() reads a session of either kind (the teaching one is also the roll call's, of both kinds) */
  oneOfAnyKind: boolean;
  /** a session of a deleted class is not found when cancelled */
  cancelLiveClassOnly: boolean;
  /** the class whose sessions are listed, refused when the caller does not see it */
  checkClass(db: Db, user: SessionUser, classId: number): Promise<unknown>;
  /** the clashes of a moved session with what its teacher, room and students are busy with then */
  clashes(db: Db, schoolId: number, proposed: ProposedSession[], opts: { exceptSessions: number[]; ownClass: number }): Promise<Clash[]>;
}

const keysOf = (ns: SessionKind): SessionKeys => ({
  notFound: `${ns}.session_not_found`,
  stale: `${ns}.session_stale`,
  notPlanned: `${ns}.session_not_planned`,
  classStopped: `${ns}.class_stopped`,
  roomNotFound: `${ns}.room_not_found`,
  dayIsHoliday: `${ns}.day_is_holiday`,
  clashDatabase: `${ns}.clash_database`,
});

export const SESSION_RULES: Record<SessionKind, SessionRules> = {
  teaching: {
    kind: 'teaching',
    keys: keysOf('teaching'),
    teacherOf: (user) => (teachesOnly(user) ? user.id : null),
    oneOfAnyKind: true,
    cancelLiveClassOnly: false,
    checkClass: (db, user, classId) => classOf(db, user, classId),
    clashes: (db, schoolId, proposed, o) =>
      clashesOf(db, schoolId, proposed, { exceptSessions: o.exceptSessions, ownClass: { kind: 'teaching', id: o.ownClass } }),
  },
  tutoring: {
    kind: 'tutoring',
    keys: keysOf('tutoring'),
    teacherOf: () => null,
    oneOfAnyKind: false,
    cancelLiveClassOnly: true,
    checkClass: (db, user, classId) => tutoringClassOf(db, schoolOf(user), classId),
    clashes: (db, schoolId, proposed, o) => tutoringClashes(db, schoolId, proposed, o),
  },
};

/**
 * The cancellation of sessions ($1 ids, $2 the reason): planned ones become cancelled, which frees their teacher and
 * room. One statement for a session (cancel) and for many (the school calendar's importHolidays); answers the ids.
 */
export const CANCEL_SESSIONS_SQL = `with c as (update class_sessions set state = 'cancelled', cancel_reason = $2, version = version + 1, updated_at = now()
  where id = any($1::int[]) and state = 'planned' returning id) select id from c`;

/** A session locked for update, with its class's status (1 running, 0 stopped). */
interface LockedSession {
  id: number;
  class_id: number;
  teacher_id: number;
  room_id: number | null;
  state: string;
  version: number;
  class_status: number;
}

/** The sessions of one kind of class: its service delegates to one of these. */
export class SessionCore {
  constructor(
    private readonly db: DataSource,
    private readonly rules: SessionRules,
  ) {}

  /** The class's sessions in day order with their lesson number (among those not cancelled), paged, by range and state. */
  async page(user: SessionUser, q: TeachingSessionsQuery): Promise<Page<TeachingSession>> {
    await this.rules.checkClass(this.db, user, q.class_id);
    const rows: Array<TeachingSession & { total: number }> = await this.db.query(
      `with f as (
         select s.id, s.day, s.start_min, case when s.state = 'cancelled' then null else row_number() over (partition by s.state = 'cancelled' order by s.day, s.start_min, s.id) end as lesson_no
           from class_sessions s where s.kind = '${this.rules.kind}' and s.class_id = $1),
       w as (select * from f where ($2::date is null or day >= $2::date) and ($3::date is null or day <= $3::date))
       select n.total, p.* from (select count(*)::int as total from w join class_sessions s on s.id = w.id where ($4::text is null or s.state = $4)) n
       left join lateral (
         select ${SESSION_COLUMNS}, w.lesson_no::int as lesson_no from w join class_sessions s on s.id = w.id ${SESSION_JOINS}
          where ($4::text is null or s.state = $4) order by w.day, w.start_min, w.id limit $5 offset $6) p on true`,
      [q.class_id, q.from ?? null, q.to ?? null, q.state ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as TeachingSession);
    return pageOf(list, totalOf(rows), q);
  }

  /** One session of the school with its lesson number (the caller's to see: see SessionRules.teacherOf). */
  async one(db: Db, user: SessionUser, id: number): Promise<TeachingSession> {
    const [row]: TeachingSession[] = await db.query(
      `select ${SESSION_COLUMNS},
              (select count(*)::int from class_sessions o where o.kind = s.kind and o.class_id = s.class_id and o.state <> 'cancelled'
                  and (o.day, o.start_min, o.id) <= (s.day, s.start_min, s.id) and s.state <> 'cancelled') as lesson_no
         from class_sessions s ${SESSION_JOINS}
        where s.school_id = $1 and s.id = $2 and ($3::int is null or s.teacher_id = $3) and ($4::text is null or s.kind = $4)`,
      [schoolOf(user), id, this.rules.teacherOf(user), this.rules.oneOfAnyKind ? null : this.rules.kind],
    );
    if (!row) throw new AppError(this.rules.keys.notFound);
    if (row.lesson_no === 0) row.lesson_no = null;
    return row;
  }

  /**
   * Moves one planned session (day, times, room) on the version read under the school's scheduling lock, with the
   * clash rules of the generation for its teacher, room and students: refused when its class is stopped, on a
   * holiday or with the clash list. Two moves into one slot: the second waits for the lock and then sees the first's.
   */
  async move(user: SessionUser, input: MoveTeachingSessionInput): Promise<TeachingSession> {
    const school = schoolOf(user);
    const { keys } = this.rules;
    await this.db.transaction(async (em) => {
      await lockSchedule(em, school);
      const s = await this.lock(em, school, input, false);
      // a stopped class's sessions stay as they were (they may still be cancelled)
      if (s.class_status !== 1) throw new AppError(keys.classStopped);
      const roomId = input.room_id === undefined ? s.room_id : input.room_id;
      if (roomId !== null) {
        const [r]: unknown[] = await em.query(`select 1 from rooms where id = $1 and school_id = $2`, [roomId, school]);
        if (!r) throw new AppError(keys.roomNotFound);
      }
      const calendar = await calendarOf(em, school, input.day, input.day);
      const weekday = effectiveWeekday(input.day, new Map(calendar.map((c) => [c.day, c])));
      if (weekday === null) throw new AppError(keys.dayIsHoliday, { day: input.day });
      const start = toMinutes(input.start_time);
      const end = toMinutes(input.end_time);
      const members: Array<{ student_id: number }> = await em.query(
        `select student_id from ${CLASS_TABLES[this.rules.kind].members} where class_id = $1 order by student_id`,
        [s.class_id],
      );
      const proposed = { day: input.day, weekday, start, end, teacher_id: s.teacher_id, room_id: roomId, session_id: s.id };
      const clashes = await this.rules.clashes(em, school, [{ ...proposed, student_ids: members.map((m) => m.student_id) }], {
        exceptSessions: [s.id],
        ownClass: s.class_id,
      });
      if (clashes.length) throw clashError(clashes);
      await em
        .query(
          `update class_sessions set day = $2, start_min = $3, end_min = $4, room_id = $5, version = version + 1, updated_at = now() where id = $1`,
          [s.id, input.day, start, end, roomId],
        )
        // the database's own refusal (an exclusion constraint: a writer outside the scheduling lock got there first)
        .catch((err: unknown) => {
          throw isOverlapViolation(err) ? new AppError(keys.clashDatabase) : err;
        });
    });
    return this.one(this.db, user, input.id);
  }

  /** Cancels one planned session with a reason on the version read: it frees its teacher and room. */
  async cancel(user: SessionUser, input: CancelTeachingSessionInput): Promise<TeachingSession> {
    await this.db.transaction(async (em) => {
      const s = await this.lock(em, schoolOf(user), input, this.rules.cancelLiveClassOnly);
      await em.query(CANCEL_SESSIONS_SQL, [[s.id], input.reason]);
    });
    return this.one(this.db, user, input.id);
  }

  /** The session of this kind locked for update, on the version read and still planned (the concurrency check). */
  private async lock(em: EntityManager, schoolId: number, at: { id: number; version: number }, liveClass: boolean): Promise<LockedSession> {
    const [s]: LockedSession[] = await em.query(
      `select s.id, s.class_id, s.teacher_id, s.room_id, s.state, s.version, c.status as class_status
         from class_sessions s join ${CLASS_TABLES[this.rules.kind].classes} c on c.id = s.class_id${liveClass ? ' and c.deleted_at is null' : ''}
        where s.school_id = $1 and s.id = $2 and s.kind = $3 for update of s`,
      [schoolId, at.id, this.rules.kind],
    );
    if (!s) throw new AppError(this.rules.keys.notFound);
    if (s.version !== at.version) throw new AppError(this.rules.keys.stale);
    if (s.state !== 'planned') throw new AppError(this.rules.keys.notPlanned);
    return s;
  }
}
