import type { AvailabilityWindow, TeachingSession, TeachingSessionsQuery } from '@wantuo/shared';
import { sql } from 'kysely';
import { kdb, pageRows } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { clock, dayText, endClock, type SessionKind } from './teaching-schedule.repository';

/** The SQL of the sessions of either kind of class (SessionCore) and of a move's week (issue 38). */

/** Sessions with their teacher, room, weekday and roll-call counts (`s` class_sessions): the answer TeachingSession. */
const sessionRows = (on: Queryable) =>
  kdb(on)
    .selectFrom('class_sessions as s')
    .innerJoin('users as tu', 'tu.id', 's.teacher_id')
    .leftJoin('rooms as sr', 'sr.id', 's.room_id')
    .select((eb) => [
      's.id',
      's.class_id',
      dayText(eb.ref('s.day')).as('day'),
      // the weekday the day runs as: a make-up day's works_as
      sql<number>`coalesce(${eb
        .selectFrom('school_calendar_days as cd')
        .select('cd.works_as')
        .whereRef('cd.school_id', '=', 's.school_id')
        .whereRef('cd.day', '=', 's.day')
        .where('cd.kind', '=', 'makeup')}, extract(isodow from ${eb.ref('s.day')}))::int`.as('weekday'),
      clock(eb.ref('s.start_min')).as('start_time'),
      endClock(eb.ref('s.end_min')).as('end_time'),
      's.teacher_id',
      'tu.name as teacher_name',
      's.room_id',
      'sr.name as room_name',
      's.state',
      's.cancel_reason',
      's.version',
      sql<TeachingSession['roll_call']>`(${eb
        .selectFrom('session_roll_calls as rc')
        .select(
          sql`case when count(*) = 0 then null else json_build_object('present', count(*) filter (where rc.status = 'present'), 'late', count(*) filter (where rc.status = 'late'),
          'absent', count(*) filter (where rc.status = 'absent'), 'leave', count(*) filter (where rc.status = 'leave')) end`.as('roll_call'),
        )
        .whereRef('rc.session_id', '=', 's.id')})`.as('roll_call'),
    ]);

/** The class's sessions in day order with their lesson number (among those not cancelled), paged, by range and state. */
export function sessionPage(on: Queryable, kind: SessionKind, q: TeachingSessionsQuery) {
  const k = kdb(on);
  const total = k
    .selectFrom('class_sessions as s')
    .select(sql<number>`count(*)::int`.as('total'))
    .where('s.kind', '=', kind)
    .where('s.class_id', '=', q.class_id)
    .$if(!!q.from, (b) => b.where(sql<boolean>`s.day >= ${q.from}::date`))
    .$if(!!q.to, (b) => b.where(sql<boolean>`s.day <= ${q.to}::date`))
    .$if(!!q.state, (b) => b.where('s.state', '=', q.state!));
  // the lesson numbers over all the class's sessions, before the range narrows them
  const numbered = k
    .selectFrom('class_sessions as s')
    .select((eb) => [
      's.id',
      's.day',
      's.start_min',
      sql<
        number | null
      >`case when ${eb.ref('s.state')} = 'cancelled' then null else row_number() over (partition by ${eb.ref('s.state')} = 'cancelled' order by ${eb.ref('s.day')}, ${eb.ref('s.start_min')}, ${eb.ref('s.id')}) end`.as(
        'lesson_no',
      ),
    ])
    .where('s.kind', '=', kind)
    .where('s.class_id', '=', q.class_id);
  const list = sessionRows(on)
    .innerJoin(numbered.as('w'), 'w.id', 's.id')
    .select((eb) => sql<number | null>`${eb.ref('w.lesson_no')}::int`.as('lesson_no'))
    .$if(!!q.from, (b) => b.where(sql<boolean>`w.day >= ${q.from}::date`))
    .$if(!!q.to, (b) => b.where(sql<boolean>`w.day <= ${q.to}::date`))
    .$if(!!q.state, (b) => b.where('s.state', '=', q.state!))
    .orderBy('w.day')
    .orderBy('w.start_min')
    .orderBy('w.id');
  return pageRows(on, total, list, q);
}

/** One session of the school with its lesson number (0 when cancelled); `teacher`: only theirs, `kind`: only of that kind. */
export function sessionOne(on: Queryable, schoolId: number, id: number, teacher: number | null, kind: SessionKind | null) {
  return sessionRows(on)
    .select((eb) =>
      sql<number>`(${eb
        .selectFrom('class_sessions as o')
        .select(sql`count(*)::int`.as('n'))
        .whereRef('o.kind', '=', 's.kind')
        .whereRef('o.class_id', '=', 's.class_id')
        .where('o.state', '<>', 'cancelled')
        .where(sql<boolean>`(o.day, o.start_min, o.id) <= (s.day, s.start_min, s.id)`)
        .where('s.state', '<>', 'cancelled')})`.as('lesson_no'),
    )
    .where('s.school_id', '=', schoolId)
    .where('s.id', '=', id)
    .$if(teacher !== null, (b) => b.where('s.teacher_id', '=', teacher!))
    .$if(kind !== null, (b) => b.where('s.kind', '=', kind!))
    .executeTakeFirst();
}

/** A session of this kind locked for update, with its class's status (1 running, 0 stopped); `liveClass`: of a class not deleted. */
export function lockSession(on: Queryable, kind: SessionKind, schoolId: number, id: number, liveClass: boolean) {
  const k = kdb(on);
  const cols = ['s.id', 's.class_id', 's.teacher_id', 's.room_id', 's.state', 's.version', 'c.status as class_status'] as const;
  const found =
    kind === 'teaching'
      ? k
          .selectFrom('class_sessions as s')
          .innerJoin('teaching_classes as c', (j) =>
            liveClass ? j.onRef('c.id', '=', 's.class_id').on('c.deleted_at', 'is', null) : j.onRef('c.id', '=', 's.class_id'),
          )
          .select(cols)
      : k
          .selectFrom('class_sessions as s')
          .innerJoin('tutoring_classes as c', (j) =>
            liveClass ? j.onRef('c.id', '=', 's.class_id').on('c.deleted_at', 'is', null) : j.onRef('c.id', '=', 's.class_id'),
          )
          .select(cols);
  return found.where('s.school_id', '=', schoolId).where('s.id', '=', id).where('s.kind', '=', kind).forUpdate('s').executeTakeFirst();
}

/** The ids of the class's students, in order. */
export async function classMembers(on: Queryable, kind: SessionKind, classId: number): Promise<number[]> {
  const rows =
    kind === 'teaching'
      ? await kdb(on).selectFrom('teaching_class_students').select('student_id').where('class_id', '=', classId).orderBy('student_id').execute()
      : await kdb(on).selectFrom('tutoring_class_students').select('student_id').where('class_id', '=', classId).orderBy('student_id').execute();
  return rows.map((r) => r.student_id);
}

/** Moves a session (day, times, room) and its version on. */
export async function moveSession(on: Queryable, id: number, v: { day: string; start: number; end: number; roomId: number | null }): Promise<void> {
  await kdb(on)
    .updateTable('class_sessions')
    .set((eb) => ({ day: v.day, start_min: v.start, end_min: v.end, room_id: v.roomId, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', id)
    .execute();
}

/** The teacher's and the room's other sessions (not cancelled) over [monday, sunday], by day and start. */
export function weekBusy(on: Queryable, q: { sessionId: number; teacherId: number; roomId: number; monday: string; sunday: string }) {
  const k = kdb(on);
  const of = (who: 'teacher' | 'room') =>
    k
      .selectFrom('class_sessions as s')
      .leftJoin('teaching_classes as tc', (j) => j.on('s.kind', '=', 'teaching').onRef('tc.id', '=', 's.class_id'))
      .select((eb) => [
        sql.lit(who).as('k'),
        dayText(eb.ref('s.day')).as('day'),
        's.start_min',
        's.end_min',
        eb.fn.coalesce('tc.name', 's.kind').as('label'),
      ])
      .where(who === 'teacher' ? 's.teacher_id' : 's.room_id', '=', who === 'teacher' ? q.teacherId : q.roomId)
      .where(sql<boolean>`s.day between ${q.monday}::date and ${q.sunday}::date`)
      .where('s.state', '<>', 'cancelled')
      .where('s.id', '<>', q.sessionId);
  return of('teacher')
    .unionAll(of('room'))
    .orderBy(sql`2`)
    .orderBy(sql`3`)
    .execute();
}

/** The teacher's offered times (teacherSchedule POST), if saved. */
export function availabilityOf(on: Queryable, teacherId: number, schoolId: number) {
  return kdb(on)
    .selectFrom('teacher_availability')
    .select([sql<AvailabilityWindow[]>`windows`.as('windows'), 'note'])
    .where('user_id', '=', teacherId)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
}
