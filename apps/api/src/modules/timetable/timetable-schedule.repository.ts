import type { CalendarDay, ScheduleEntry, TeacherAvailability } from '@wantuo/shared';
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import { kdb, type DB } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';

/** The SQL of the timetables (issue 38): a class's week, the school's week, a teacher's week and availability. */

type T = DB & { t: DB['class_times'] };

/** A time column as 'HH:MM'. */
const hhmm = (col: Expression<string>) => sql<string>`to_char(${col}, 'HH24:MI')`;

/**
 * The week (`day`: any day of it, null for the school's today) of the school as its Monday `week`, with the school's
 * calendar days of that week as JSON: a one-row table `wk`.
 */
function weekOf(on: Queryable, schoolId: number, day: string | null) {
  const k = kdb(on);
  const today = k
    .selectFrom('schools')
    .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
    .where('id', '=', schoolId)
    .offset(0)
    .as('t');
  const x = k
    .selectFrom(today)
    .select(sql<string>`coalesce(${day}::date, t.today)`.as('d'))
    .as('x');
  const m = k
    .selectFrom(x)
    .select(sql<string>`(x.d - (extract(isodow from x.d)::int - 1))::date`.as('monday'))
    .as('m');
  return k
    .selectFrom(m)
    .select((eb) => [
      sql<string>`to_char(${eb.ref('m.monday')}, 'YYYY-MM-DD')`.as('week'),
      'm.monday',
      sql<CalendarDay[]>`(${eb
        .selectFrom('school_calendar_days as c')
        .select(
          sql`coalesce(json_agg(json_build_object('day', to_char(c.day, 'YYYY-MM-DD'), 'kind', c.kind, 'works_as', c.works_as, 'note', c.note) order by c.day), '[]')`.as(
            'calendar',
          ),
        )
        .where('c.school_id', '=', schoolId)
        .where(sql<boolean>`c.day between m.monday and m.monday + 6`)})`.as('calendar'),
    ])
    .as('wk');
}

/** The week's Monday (`week`) and its calendar. */
export function week(on: Queryable, schoolId: number, day: string | null) {
  return kdb(on)
    .selectFrom(weekOf(on, schoolId, day))
    .select(['wk.week', 'wk.calendar'])
    .executeTakeFirstOrThrow();
}

/** Sessions with their class's name (a teaching or a tutoring class), teacher and room (`s` class_sessions). */
const sessionRows = (on: Queryable) =>
  kdb(on)
    .selectFrom('class_sessions as s')
    .innerJoin('users as tu', 'tu.id', 's.teacher_id')
    .leftJoin('rooms as sr', 'sr.id', 's.room_id')
    .leftJoin('teaching_classes as tc', (j) => j.on('s.kind', '=', 'teaching').onRef('tc.id', '=', 's.class_id'))
    .leftJoin('tutoring_classes as uc', (j) => j.on('s.kind', '=', 'tutoring').onRef('uc.id', '=', 's.class_id'))
    .select((eb) => [
      's.id',
      sql<'teaching' | 'tutoring'>`${eb.ref('s.kind')}`.as('kind'),
      's.class_id',
      eb.fn.coalesce('tc.name', 'uc.name').as('class_name'),
      sql<string>`to_char(${eb.ref('s.day')}, 'YYYY-MM-DD')`.as('day'),
      's.start_min',
      's.end_min',
      's.teacher_id',
      'tu.name as teacher_name',
      's.room_id',
      'sr.name as room_name',
      sql<ScheduleEntry['state']>`${eb.ref('s.state')}`.as('state'),
    ]);

/** The teaching class's sessions in the week of `monday` (cancelled ones too), through the class's index. */
export function classWeekSessions(on: Queryable, classId: number, monday: string) {
  return sessionRows(on)
    .where('s.kind', '=', 'teaching')
    .where('s.class_id', '=', classId)
    .where(sql<boolean>`s.day between ${monday}::date and ${monday}::date + 6`)
    .orderBy('s.day')
    .orderBy('s.start_min')
    .orderBy('s.id')
    .execute();
}

/** The teacher's sessions (of either kind) in the week of `monday`, through the teachers' index. */
export function teacherWeekSessions(on: Queryable, schoolId: number, teacherId: number, monday: string) {
  return sessionRows(on)
    .where('s.teacher_id', '=', teacherId)
    .where('s.school_id', '=', schoolId)
    .where(sql<boolean>`s.day between ${monday}::date and ${monday}::date + 6`)
    .orderBy('s.day')
    .orderBy('s.start_min')
    .orderBy('s.id')
    .execute();
}

export type SessionRow = Awaited<ReturnType<typeof classWeekSessions>>[number];

/** A care class's slot columns (`t` class_times, left joined: all may be null). */
const careSlotColumns = (eb: ExpressionBuilder<T, 't'>) => [
  eb.ref('t.name').as('slot_name'),
  hhmm(eb.ref('t.start_time')).as('start_time'),
  hhmm(eb.ref('t.end_time')).as('end_time'),
  sql<number[]>`${eb.ref('t.weekdays')}::int[]`.as('weekdays'),
];

/** A care class of the school (not deleted) with its head teacher and slot; `mine`: the caller (`own`, null: the admin) heads it or is on duty in it. */
export function careClass(on: Queryable, schoolId: number, classId: number, own: number | null) {
  return kdb(on)
    .selectFrom('care_classes as c')
    .leftJoin('users as u', 'u.id', 'c.head_teacher_id')
    .leftJoin('class_times as t', (j) => j.onRef('t.id', '=', 'c.class_time_id').on('t.deleted_at', 'is', null))
    .select((eb) => [
      'c.id',
      'c.name',
      eb.cast<number>('c.status', 'integer').as('status'),
      'c.head_teacher_id as teacher_id',
      'u.name as teacher_name',
      sql<string | null>`${eb.ref('t.name')}`.as('slot_name'),
      sql<string | null>`to_char(${eb.ref('t.start_time')}, 'HH24:MI')`.as('start_time'),
      sql<string | null>`to_char(${eb.ref('t.end_time')}, 'HH24:MI')`.as('end_time'),
      sql<number[] | null>`${eb.ref('t.weekdays')}::int[]`.as('weekdays'),
      sql<boolean>`${
        own === null
          ? sql`true`
          : eb.or([
              eb('c.head_teacher_id', '=', own),
              eb.exists(
                eb
                  .selectFrom('duty_assignments as d')
                  .select(sql.lit(1).as('one'))
                  .whereRef('d.class_id', '=', 'c.id')
                  .where('d.teacher_id', '=', own),
              ),
            ])
      }`.as('mine'),
    ])
    .where('c.id', '=', classId)
    .where('c.school_id', '=', schoolId)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A care class with its slot, as the timetables lay it out on the days of a week. */
export type CareRow = Omit<NonNullable<Awaited<ReturnType<typeof careClass>>>, 'mine'>;

/** A teaching class of the school (not deleted) with its teacher and room; `mine`: the caller (`own`, null: the admin) teaches it. */
export function teachingClass(on: Queryable, schoolId: number, classId: number, own: number | null) {
  return kdb(on)
    .selectFrom('teaching_classes as c')
    .innerJoin('users as u', 'u.id', 'c.teacher_id')
    .leftJoin('rooms as r', 'r.id', 'c.room_id')
    .select((eb) => [
      'c.id',
      'c.name',
      eb.cast<number>('c.status', 'integer').as('status'),
      'c.teacher_id',
      'u.name as teacher_name',
      'c.room_id',
      'r.name as room_name',
      sql<boolean>`${own === null ? sql`true` : eb('c.teacher_id', '=', own)}`.as('mine'),
    ])
    .where('c.id', '=', classId)
    .where('c.school_id', '=', schoolId)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A session of the school's week: day index, room, id, kind, class, class name, start and end minutes, teacher, teacher name, state. */
export type SchoolSessionTuple = [
  number,
  number | null,
  number,
  'teaching' | 'tutoring',
  number,
  string | null,
  number,
  number,
  number,
  string,
  ScheduleEntry['state'],
];

/**
 * The school's week in one statement: the week with its calendar, the school's rooms and the week's sessions by
 * (school, day) as compact JSON arrays.
 */
export function schoolWeek(on: Queryable, schoolId: number, day: string | null) {
  return kdb(on)
    .selectFrom(weekOf(on, schoolId, day))
    .select((eb) => [
      'wk.week',
      'wk.calendar',
      sql<Array<{ id: number; name: string }>>`(${eb
        .selectFrom('rooms as r')
        .select(sql`coalesce(json_agg(json_build_object('id', r.id, 'name', r.name) order by lower(r.name), r.id), '[]')`.as('rooms'))
        .where('r.school_id', '=', schoolId)})`.as('rooms'),
      sql<SchoolSessionTuple[]>`(${eb
        .selectFrom('class_sessions as s')
        .innerJoin('users as tu', 'tu.id', 's.teacher_id')
        .leftJoin('teaching_classes as tc', (j) => j.on('s.kind', '=', 'teaching').onRef('tc.id', '=', 's.class_id'))
        .leftJoin('tutoring_classes as uc', (j) => j.on('s.kind', '=', 'tutoring').onRef('uc.id', '=', 's.class_id'))
        .select(
          sql`coalesce(json_agg(json_build_array(s.day - wk.monday, s.room_id, s.id, s.kind, s.class_id, coalesce(tc.name, uc.name), s.start_min, s.end_min, s.teacher_id, tu.name, s.state)
                order by s.day, s.start_min, s.id), '[]')`.as('sessions'),
        )
        .where('s.school_id', '=', schoolId)
        .where(sql<boolean>`s.day between wk.monday and wk.monday + 6`)})`.as('sessions'),
    ])
    .executeTakeFirstOrThrow();
}

/** The week with its calendar and the teacher's saved availability (null: none saved). */
export function teacherWeek(on: Queryable, schoolId: number, teacherId: number, day: string | null) {
  return kdb(on)
    .selectFrom(weekOf(on, schoolId, day))
    .select((eb) => [
      'wk.week',
      'wk.calendar',
      sql<{ windows: TeacherAvailability['windows']; note: string; version: number; updated_at: string } | null>`(${eb
        .selectFrom('teacher_availability as a')
        .select(sql`json_build_object('windows', a.windows, 'note', a.note, 'version', a.version, 'updated_at', a.updated_at)`.as('availability'))
        .where('a.user_id', '=', teacherId)
        .where('a.school_id', '=', schoolId)})`.as('availability'),
    ])
    .executeTakeFirstOrThrow();
}

/** The running care classes (with a slot) the teacher heads or is on duty in, by the slot's start, with their duty. */
export function teacherCareClasses(on: Queryable, schoolId: number, teacherId: number) {
  return kdb(on)
    .selectFrom('care_classes as c')
    .innerJoin('class_times as t', (j) => j.onRef('t.id', '=', 'c.class_time_id').on('t.deleted_at', 'is', null))
    .leftJoin('users as u', 'u.id', 'c.head_teacher_id')
    .select((eb) => [
      'c.id',
      'c.name',
      eb.cast<number>('c.status', 'integer').as('status'),
      'c.head_teacher_id as teacher_id',
      'u.name as teacher_name',
      ...careSlotColumns(eb),
      sql<'head' | 'duty'>`case when ${eb.ref('c.head_teacher_id')} = ${teacherId} then 'head' else 'duty' end`.as('duty'),
    ])
    .where('c.school_id', '=', schoolId)
    .where('c.deleted_at', 'is', null)
    .where('c.status', '=', 1)
    .where((eb) =>
      eb.or([
        eb('c.head_teacher_id', '=', teacherId),
        eb(
          'c.id',
          'in',
          eb.selectFrom('duty_assignments as d').select('d.class_id').where('d.teacher_id', '=', teacherId).where('d.school_id', '=', schoolId),
        ),
      ]),
    )
    .orderBy('t.start_time')
    .orderBy('c.id')
    .execute();
}

/** The running teaching classes the teacher teaches, by name. */
export function teacherTeachingClasses(on: Queryable, schoolId: number, teacherId: number) {
  return kdb(on)
    .selectFrom('teaching_classes')
    .select(['id', 'name'])
    .where('school_id', '=', schoolId)
    .where('teacher_id', '=', teacherId)
    .where('status', '=', 1)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The first save of a teacher's availability (nothing when one exists already). */
export function insertAvailability(on: Queryable, v: { userId: number; schoolId: number; windows: string; note: string }) {
  return kdb(on)
    .insertInto('teacher_availability')
    .values({ user_id: v.userId, school_id: v.schoolId, windows: sql`${v.windows}::jsonb`, note: v.note })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning([sql<TeacherAvailability['windows']>`windows`.as('windows'), 'note', 'version', 'updated_at'])
    .execute();
}

/** Saves a teacher's availability on the version read (nothing when stale). */
export function updateAvailability(on: Queryable, v: { userId: number; schoolId: number; windows: string; note: string; version: number }) {
  return kdb(on)
    .updateTable('teacher_availability')
    .set((eb) => ({ windows: sql`${v.windows}::jsonb`, note: v.note, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('user_id', '=', v.userId)
    .where('school_id', '=', v.schoolId)
    .where('version', '=', v.version)
    .returning([sql<TeacherAvailability['windows']>`windows`.as('windows'), 'note', 'version', 'updated_at'])
    .execute();
}
