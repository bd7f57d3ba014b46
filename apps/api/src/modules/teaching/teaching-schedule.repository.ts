import { Role, type BusyInterval, type CalendarDay, type Clash } from '@wantuo/shared';
import { sql, type Expression, type RawBuilder } from 'kysely';
import { anyOf } from '../../core/access/access';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/**
 * The SQL of the school's schedule shared by the teaching and tutoring classes (issue 38): the scheduling lock, the
 * calendar, who is busy when (the clash check's read), a generation's read and write, the cancellation of sessions.
 */

export type SessionKind = 'teaching' | 'tutoring';

/** `<> all($n::int[])` for a list of ids: one parameter, whatever the list's length. */
export const allOf = (ids: readonly number[]) => sql<number>`all(${[...ids]}::int[])`;

/** A date column as the answers' 'YYYY-MM-DD'. */
export const dayText = (day: Expression<string>) => sql<string>`to_char(${day}, 'YYYY-MM-DD')`;

/** Minutes after midnight as 'HH:MM' (a start: below 24:00). */
export const clock = (min: Expression<number>) => sql<string>`to_char(make_time(${min} / 60, ${min} % 60, 0), 'HH24:MI')`;

/** Minutes after midnight as 'HH:MM', midnight at the end of the day as '24:00' (an end). */
export const endClock = (min: Expression<number>) =>
  sql<string>`case when ${min} = 1440 then '24:00' else to_char(make_time(${min} / 60, ${min} % 60, 0), 'HH24:MI') end`;

/** A time column as minutes after midnight. */
const minutes = (col: Expression<string>) => sql<number>`(extract(hour from ${col}) * 60 + extract(minute from ${col}))::int`;

/** The school's today (school-local), as a one-row table `d` (`offset 0`: evaluated once). */
export const todayOf = (on: Queryable, school: number) =>
  kdb(on)
    .selectFrom('schools')
    .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
    .where('id', '=', school)
    .offset(0)
    .as('d');

/**
 * Serialises the writes of the school's schedule (generation, moves, members joining a scheduled class): the
 * teacher and room clashes are refused by the database's exclusion constraints anyway, the student clashes (through
 * class membership and care time slots) only by the check under this lock. Scheduling is an admin's occasional act.
 */
export async function lockSchedule(on: Queryable, schoolId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(13013, ${schoolId}::int)`.execute(kdb(on));
}

/** The school's calendar days in [from, to]. */
export async function calendarOf(on: Queryable, schoolId: number, from: string, to: string): Promise<CalendarDay[]> {
  return kdb(on)
    .selectFrom('school_calendar_days')
    .select((eb) => [
      dayText(eb.ref('day')).as('day'),
      sql<CalendarDay['kind']>`${eb.ref('kind')}`.as('kind'),
      eb.cast<number | null>('works_as', 'integer').as('works_as'),
      'note',
    ])
    .where('school_id', '=', schoolId)
    .where(sql<boolean>`day between ${from}::date and ${to}::date`)
    .orderBy('day')
    .execute();
}

/** Whether the room is the school's. */
export async function roomOfSchool(on: Queryable, roomId: number, schoolId: number): Promise<boolean> {
  const r = await kdb(on)
    .selectFrom('rooms')
    .select(sql.lit(1).as('one'))
    .where('id', '=', roomId)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
  return r !== undefined;
}

/** Whether the user is a working teacher (or head teacher) of the school; the row shared-locked. */
export async function workingTeacher(on: Queryable, teacherId: number, schoolId: number): Promise<boolean> {
  const r = await kdb(on)
    .selectFrom('users')
    .select(sql.lit(1).as('one'))
    .where('id', '=', teacherId)
    .where('school_id', '=', schoolId)
    .where('role', 'in', [Role.Teacher, Role.HeadTeacher])
    .where('job_status', '=', 1)
    .where('deleted_at', 'is', null)
    .forShare()
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * The class's planned sessions from the school's today, in day order, with the weekday each runs as (a make-up
 * day's works_as); `room` moves those in the room `from` to the room `to` (null: none) in the answer.
 */
export function upcomingSessions(
  on: Queryable,
  schoolId: number,
  kind: SessionKind,
  classId: number,
  room?: { from: number | null; to: number | null },
) {
  return kdb(on)
    .selectFrom('class_sessions as s')
    .crossJoin(todayOf(on, schoolId))
    .leftJoin('school_calendar_days as cd', (j) =>
      j.onRef('cd.school_id', '=', 's.school_id').onRef('cd.day', '=', 's.day').on('cd.kind', '=', 'makeup'),
    )
    .select((eb) => [
      's.id',
      dayText(eb.ref('s.day')).as('day'),
      sql<number>`coalesce(${eb.ref('cd.works_as')}, extract(isodow from ${eb.ref('s.day')}))::int`.as('weekday'),
      's.start_min',
      's.end_min',
      's.teacher_id',
      (room
        ? sql<
            number | null
          >`case when ${eb.ref('s.room_id')} is not distinct from ${room.from}::int then ${room.to}::int else ${eb.ref('s.room_id')} end`
        : sql<number | null>`${eb.ref('s.room_id')}`
      ).as('room_id'),
    ])
    .where('s.kind', '=', kind)
    .where('s.class_id', '=', classId)
    .where('s.state', '=', 'planned')
    .where((eb) => eb('s.day', '>=', eb.ref('d.today')))
    .orderBy('s.day')
    .orderBy('s.start_min')
    .execute();
}

/**
 * The cancellation of sessions: planned ones become cancelled, which frees their teacher and room. One statement for
 * a session (cancel) and for many (the school calendar's importHolidays); answers the ids.
 */
export async function cancelSessions(on: Queryable, ids: readonly number[], reason: string): Promise<number[]> {
  const rows = await kdb(on)
    .updateTable('class_sessions')
    .set((eb) => ({ state: 'cancelled', cancel_reason: reason, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', anyOf(ids))
    .where('state', '=', 'planned')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** What loadBusy reads the busy intervals for. */
export interface BusyQuery {
  from: string;
  to: string;
  teacherIds: number[];
  roomIds: number[];
  studentIds: number[];
  exceptSessions: number[];
  ownClass: { kind: SessionKind; id: number } | null;
}

/** The sessions of the teachers (or rooms) `who` over the range: `k` what `who` is. */
function sessionsOf(on: Queryable, k: 'teacher' | 'room', who: readonly number[], q: BusyQuery) {
  const col = k === 'teacher' ? 's.teacher_id' : 's.room_id';
  return kdb(on)
    .selectFrom('class_sessions as s')
    .leftJoin('teaching_classes as tc', (j) => j.on('s.kind', '=', 'teaching').onRef('tc.id', '=', 's.class_id'))
    .leftJoin('tutoring_classes as uc', (j) => j.on('s.kind', '=', 'tutoring').onRef('uc.id', '=', 's.class_id'))
    .select((eb) => [
      sql.lit(k).as('k'),
      sql<number>`${eb.ref(col)}`.as('who'),
      's.id',
      sql<SessionKind>`${eb.ref('s.kind')}`.as('kind'),
      's.class_id',
      dayText(eb.ref('s.day')).as('day'),
      's.start_min',
      's.end_min',
      eb.fn.coalesce('tc.name', 'uc.name', 's.kind').as('label'),
    ])
    .where(col, '=', sql<number>`any(${[...who]}::int[])`)
    .where(sql<boolean>`s.day between ${q.from}::date and ${q.to}::date`)
    .where('s.state', '<>', 'cancelled')
    .where('s.id', '<>', allOf(q.exceptSessions));
}

/**
 * What the teachers, rooms and students of the proposed sessions are busy with over [from, to]: their sessions not
 * cancelled (but `exceptSessions` and, for students, the sessions of `ownClass` whose students they are anyway), and
 * the students' care time slots (their care class's slot while it runs, their own slots) every week. Three
 * statements whatever the numbers.
 */
export async function loadBusy(on: Queryable, schoolId: number, q: BusyQuery): Promise<BusyInterval[]> {
  // teachers and rooms are the school's own (checked when given to a class): their sessions are the school's, looked up
  // by (teacher, day) and (room, day) alone, so no stale statistics can lead the planner to the school's day index
  const sessions = await sessionsOf(on, 'teacher', q.teacherIds, q)
    .unionAll(sessionsOf(on, 'room', q.roomIds, q))
    .execute();
  const busy: BusyInterval[] = sessions.map((s) => ({
    kind: s.k,
    who: s.who,
    day: s.day,
    start: s.start_min,
    end: s.end_min,
    ref: { source: s.kind, session_id: s.id, class_id: s.class_id, label: s.label },
  }));
  if (!q.studentIds.length) return busy;
  const students = sql`${[...q.studentIds]}::int[]`;
  const own = { kind: q.ownClass?.kind ?? '', id: q.ownClass?.id ?? 0 };
  // the students' other sessions, of their teaching and their tutoring classes: the students' classes first, then each
  // class's sessions in the range through (kind, class_id, day): `offset 0` keeps the lateral a per-class index range
  // whatever the age of the statistics (flattened into a join, the planner scanned the school's whole range after a
  // term was written at once)
  const theirs = await sql<{
    who: number;
    id: number;
    kind: SessionKind;
    class_id: number;
    day: string;
    start_min: number;
    end_min: number;
    label: string;
  }>`
    with m as materialized (
       select 'teaching'::text as kind, student_id, class_id from teaching_class_students
        where student_id = any(${students}) and school_id = ${schoolId} and not (${own.kind}::text = 'teaching' and class_id = ${own.id}::int)
       union all
       select 'tutoring', student_id, class_id from tutoring_class_students
        where student_id = any(${students}) and school_id = ${schoolId} and not (${own.kind}::text = 'tutoring' and class_id = ${own.id}::int)),
     c as (
       select 'teaching'::text as kind, id, name from teaching_classes
        where id = any(array(select class_id from m where kind = 'teaching')) and deleted_at is null
       union all
       select 'tutoring', id, name from tutoring_classes
        where id = any(array(select class_id from m where kind = 'tutoring')) and deleted_at is null)
     select m.student_id as who, x.id, c.kind, c.id as class_id, x.day, x.start_min, x.end_min, c.name as label
       from c
       cross join lateral (
         select s.id, to_char(s.day, 'YYYY-MM-DD') as day, s.start_min, s.end_min from class_sessions s
          where s.kind = c.kind and s.class_id = c.id and s.day between ${q.from}::date and ${q.to}::date and s.state <> 'cancelled'
            and s.id <> ${allOf(q.exceptSessions)}
         offset 0) x
       join m on m.class_id = c.id and m.kind = c.kind`.execute(kdb(on));
  for (const s of theirs.rows)
    busy.push({
      kind: 'student',
      who: s.who,
      day: s.day,
      start: s.start_min,
      end: s.end_min,
      ref: { source: s.kind, session_id: s.id, class_id: s.class_id, label: s.label },
    });
  const care = await careSlots(on, schoolId, sql<number>`any(${students})`).execute();
  for (const c of care)
    busy.push({
      kind: 'student',
      who: c.who,
      weekdays: c.weekdays,
      start: c.start_min,
      end: c.end_min,
      ref: { source: c.source, class_id: c.class_id, label: c.label },
    });
  return busy;
}

/** The students' care time slots: their care class's slot while it runs, their own slots (`students`: `any(…)`). */
function careSlots(on: Queryable, schoolId: number, students: RawBuilder<number>) {
  const k = kdb(on);
  return k
    .selectFrom('care_class_students as m')
    .innerJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'm.class_id').on('cc.deleted_at', 'is', null).on('cc.status', '=', 1))
    .innerJoin('class_times as t', (j) => j.onRef('t.id', '=', 'cc.class_time_id').on('t.deleted_at', 'is', null))
    .select((eb) => [
      'm.student_id as who',
      sql<number | null>`${eb.ref('cc.id')}`.as('class_id'),
      sql<'care' | 'care_student'>`'care'`.as('source'),
      sql<number[]>`${eb.ref('t.weekdays')}::int[]`.as('weekdays'),
      minutes(eb.ref('t.start_time')).as('start_min'),
      minutes(eb.ref('t.end_time')).as('end_min'),
      sql<string>`${eb.ref('cc.name')} || ' ' || ${eb.ref('t.name')}`.as('label'),
    ])
    .where('m.student_id', '=', students)
    .where('m.school_id', '=', schoolId)
    .unionAll(
      k
        .selectFrom('student_class_times as m')
        .innerJoin('class_times as t', (j) => j.onRef('t.id', '=', 'm.class_time_id').on('t.deleted_at', 'is', null))
        .select((eb) => [
          'm.student_id as who',
          sql<number | null>`null`.as('class_id'),
          sql<'care' | 'care_student'>`'care_student'`.as('source'),
          sql<number[]>`${eb.ref('t.weekdays')}::int[]`.as('weekdays'),
          minutes(eb.ref('t.start_time')).as('start_min'),
          minutes(eb.ref('t.end_time')).as('end_min'),
          't.name as label',
        ])
        .where('m.student_id', '=', students)
        .where('m.school_id', '=', schoolId),
    );
}

/** The names of teachers, rooms, students (and, when asked, tutoring classes) by id: one statement. */
export async function namesOf(
  on: Queryable,
  ids: { teacher: number[]; room: number[]; student: number[]; tutoring?: number[] },
): Promise<Array<{ k: string; id: number; name: string }>> {
  const k = kdb(on);
  let q = k
    .selectFrom('users')
    .select([sql<string>`'teacher'`.as('k'), 'id', 'name'])
    .where('id', '=', sql<number>`any(${ids.teacher}::int[])`)
    .unionAll(
      k
        .selectFrom('rooms')
        .select([sql<string>`'room'`.as('k'), 'id', 'name'])
        .where('id', '=', sql<number>`any(${ids.room}::int[])`),
    )
    .unionAll(
      k
        .selectFrom('students')
        .select([sql<string>`'student'`.as('k'), 'id', 'name'])
        .where('id', '=', sql<number>`any(${ids.student}::int[])`),
    );
  if (ids.tutoring)
    q = q.unionAll(
      k
        .selectFrom('tutoring_classes')
        .select([sql<string>`'tutoring'`.as('k'), 'id', 'name'])
        .where('id', '=', sql<number>`any(${ids.tutoring}::int[])`),
    );
  return q.execute();
}

/** The clashes' names (teachers, rooms, students): one statement, only when there are clashes. */
export async function nameClashes(on: Queryable, clashes: Clash[]): Promise<Clash[]> {
  if (!clashes.length) return clashes;
  const ids = (kind: Clash['kind']) => [...new Set(clashes.filter((c) => c.kind === kind).map((c) => c.who))];
  const names = await namesOf(on, { teacher: ids('teacher'), room: ids('room'), student: ids('student') });
  const byKey = new Map(names.map((n) => [`${n.k}:${n.id}`, n.name]));
  return clashes.map((c) => ({ ...c, who_name: byKey.get(`${c.kind}:${c.who}`) ?? String(c.who) }));
}
