import { StudentStatus, type HolidayImportPreview } from '@wantuo/shared';
import { sql } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { clock, dayText, endClock, todayOf } from './teaching-schedule.repository';

/**
 * The SQL of the import of the national holidays (issue 38). The preview's and the make-up days' reads are
 * set-based statements (unnest, JSON aggregates, window ranks): written with Kysely's `sql` tag, every value a
 * parameter.
 */

/** A session the import creates on a make-up day (the preview's row, and the minutes, teacher and room it copies). */
export type MakeupSession = HolidayImportPreview['makeup_sessions'][number] & {
  start_min: number;
  end_min: number;
  teacher_id: number;
  room_id: number | null;
};

/** The school's today and its calendar days in [from, to] (any order). */
export async function todayAndCalendar(on: Queryable, schoolId: number, from: string, to: string) {
  return kdb(on)
    .selectFrom(todayOf(on, schoolId))
    .select((eb) => [
      dayText(eb.ref('d.today')).as('today'),
      sql<Array<{ day: string; kind: 'holiday' | 'makeup'; works_as: number | null }>>`(${eb
        .selectFrom('school_calendar_days as c')
        .select(
          sql`coalesce(json_agg(json_build_object('day', to_char(c.day, 'YYYY-MM-DD'), 'kind', c.kind, 'works_as', c.works_as::int)), '[]')`.as(
            'existing',
          ),
        )
        .where('c.school_id', '=', schoolId)
        .where(sql<boolean>`c.day between ${from}::date and ${to}::date`)})`.as('existing'),
    ])
    .executeTakeFirstOrThrow();
}

/** The planned sessions (of either kind) on the days, with their class and teacher. */
export function plannedOn(on: Queryable, schoolId: number, days: string[]): Promise<HolidayImportPreview['sessions']> {
  return kdb(on)
    .selectFrom('class_sessions as s')
    .innerJoin('users as tu', 'tu.id', 's.teacher_id')
    .leftJoin('teaching_classes as tc', (j) => j.on('s.kind', '=', 'teaching').onRef('tc.id', '=', 's.class_id'))
    .leftJoin('tutoring_classes as uc', (j) => j.on('s.kind', '=', 'tutoring').onRef('uc.id', '=', 's.class_id'))
    .select((eb) => [
      's.id',
      sql<'teaching' | 'tutoring'>`${eb.ref('s.kind')}`.as('kind'),
      's.class_id',
      sql<string>`coalesce(${eb.ref('tc.name')}, ${eb.ref('uc.name')})`.as('class_name'),
      dayText(eb.ref('s.day')).as('day'),
      clock(eb.ref('s.start_min')).as('start_time'),
      endClock(eb.ref('s.end_min')).as('end_time'),
      'tu.name as teacher_name',
    ])
    .where('s.school_id', '=', schoolId)
    .where('s.day', '=', sql<string>`any(${days}::date[])`)
    .where('s.state', '=', 'planned')
    .orderBy('s.day')
    .orderBy('s.start_min')
    .orderBy('s.id')
    .execute();
}

/**
 * The sessions a make-up day gets from the weekday it runs as (a Saturday that "runs as Tuesday" holds each class's
 * Tuesday sessions): for each running teaching and tutoring class, its sessions (not cancelled) of the nearest day
 * within two weeks that falls on that weekday and is not closed (neither in the school calendar nor among the days
 * the import closes, `closed`), copied with their times, teacher and room. A class that already has a session on the
 * make-up day gets none (a second import, or a generation that placed it), nor one whose teacher or room is busy then
 * (the database would refuse the overlap).
 */
export async function makeupSessionsOf(
  on: Queryable,
  school: number,
  days: Array<{ day: string; works_as: number }>,
  closed: string[],
): Promise<MakeupSession[]> {
  if (!days.length) return [];
  const r = await sql<MakeupSession>`
    with m as (select * from unnest(${days.map((d) => d.day)}::date[], ${days.map((d) => d.works_as)}::int[]) as m(day, works_as)),
          src as (
            select m.day as on_day, m.works_as, s.kind, s.class_id, s.day as from_day, s.start_min, s.end_min, s.teacher_id, s.room_id,
                   coalesce(tc.name, uc.name) as class_name,
                   dense_rank() over (partition by m.day, s.kind, s.class_id order by abs(s.day - m.day), s.day) as nearest
              from m
              join class_sessions s on s.school_id = ${school} and s.state <> 'cancelled' and s.day between m.day - 14 and m.day + 14
               and extract(isodow from s.day)::int = m.works_as and s.day <> all(${closed}::date[])
              left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id and tc.status = 1 and tc.deleted_at is null
              left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id and uc.status = 1 and uc.deleted_at is null
             where coalesce(tc.id, uc.id) is not null
               and not exists (select 1 from school_calendar_days cd where cd.school_id = ${school} and cd.day = s.day))
     select src.kind, src.class_id, src.class_name, to_char(src.on_day, 'YYYY-MM-DD') as day, src.works_as,
            to_char(src.from_day, 'YYYY-MM-DD') as from_day,
            to_char(make_time(src.start_min / 60, src.start_min % 60, 0), 'HH24:MI') as start_time,
            case when src.end_min = 1440 then '24:00' else to_char(make_time(src.end_min / 60, src.end_min % 60, 0), 'HH24:MI') end as end_time,
            tu.name as teacher_name, src.start_min, src.end_min, src.teacher_id, src.room_id
       from src join users tu on tu.id = src.teacher_id
      where src.nearest = 1
        and not exists (select 1 from class_sessions o where o.kind = src.kind and o.class_id = src.class_id and o.day = src.on_day and o.state <> 'cancelled')
        and not exists (select 1 from class_sessions o where o.day = src.on_day and o.state <> 'cancelled'
                          and (o.teacher_id = src.teacher_id or o.room_id = src.room_id)
                          and int4range(o.start_min, o.end_min) && int4range(src.start_min, src.end_min))
      order by src.on_day, src.start_min, src.kind, src.class_name, src.class_id`.execute(kdb(on));
  return r.rows;
}

/** What the preview adds: the classes and care students of each make-up day, the day contracts holding closed days. */
export async function previewExtra(
  on: Queryable,
  school: number,
  makeup: Array<{ day: string; works_as: number | null }>,
  closed: string[],
): Promise<{ makeup: HolidayImportPreview['makeup']; contracts: HolidayImportPreview['contracts'] }> {
  const r = await sql<{ makeup: HolidayImportPreview['makeup']; contracts: HolidayImportPreview['contracts'] }>`
    with m as (select * from unnest(${makeup.map((d) => d.day)}::date[], ${makeup.map((d) => d.works_as)}::int[]) as m(day, works_as)),
          cl as (select unnest(${closed}::date[]) as day)
       select
         (select coalesce(json_agg(json_build_object('day', to_char(m.day, 'YYYY-MM-DD'), 'works_as', m.works_as, 'classes', x.classes, 'care_students', y.n) order by m.day), '[]')
            from m
            cross join lateral (
              select coalesce(json_agg(json_build_object('kind', k.kind, 'class_id', k.class_id, 'class_name', k.class_name) order by k.kind, k.class_name), '[]') as classes
                from (select distinct s.kind, s.class_id, coalesce(tc.name, uc.name) as class_name
                        from class_sessions s
                        left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
                        left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id
                       where s.school_id = ${school} and s.state <> 'cancelled' and s.day between m.day - 14 and m.day + 14
                         and extract(isodow from s.day)::int = m.works_as
                         and s.day <> all(${closed}::date[])
                         and not exists (select 1 from school_calendar_days cd where cd.school_id = ${school} and cd.day = s.day)) k) x
            cross join lateral (
              select count(distinct ccs.student_id)::int as n
                from care_classes cc join care_class_students ccs on ccs.class_id = cc.id
                join students st on st.id = ccs.student_id and st.status = ${sql.lit(StudentStatus.Active)}
                left join class_times ct on ct.id = cc.class_time_id
               where cc.school_id = ${school} and cc.deleted_at is null and cc.status = 1 and (ct.id is null or m.works_as::smallint = any(ct.weekdays))) y) as makeup,
         (select coalesce(json_agg(json_build_object('id', k.id, 'no', k.no, 'student_id', k.student_id, 'student_name', st.name,
                   'start_day', to_char(k.start_day, 'YYYY-MM-DD'), 'end_day', to_char(k.end_day, 'YYYY-MM-DD'), 'closed_days', n.n) order by k.start_day, k.id), '[]')
            from contracts k join students st on st.id = k.student_id
            cross join lateral (select count(*)::int as n from cl where cl.day between k.start_day and k.end_day) n
           where k.school_id = ${school} and k.status = 'active' and k.kind = 'days' and n.n > 0) as contracts`.execute(kdb(on));
  return r.rows[0];
}

/** Writes the plan's days into the calendar (a day already there stays); answers the days written. */
export async function insertDays(
  on: Queryable,
  school: number,
  set: ReadonlyArray<{ day: string; kind: string; works_as: number | null; note: string }>,
  by: number,
): Promise<number> {
  const r = await sql<{ day: string }>`
    insert into school_calendar_days (school_id, day, kind, works_as, note, created_by)
    select ${school}, d.day, d.kind, d.works_as, d.note, ${by}
      from unnest(${set.map((d) => d.day)}::date[], ${set.map((d) => d.kind)}::text[], ${set.map((d) => d.works_as)}::int[], ${set.map((d) => d.note)}::text[])
        as d(day, kind, works_as, note)
    on conflict (school_id, day) do nothing returning day`.execute(kdb(on));
  return r.rows.length;
}

/** Creates the make-up days' sessions (makeupSessionsOf) in one statement; answers how many. */
export async function insertMakeupSessions(on: Queryable, school: number, rows: MakeupSession[], by: number): Promise<number> {
  const r = await sql<{ id: number }>`
    insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by)
    select ${school}, x.kind, x.class_id, x.day, x.start_min, x.end_min, x.teacher_id, x.room_id, ${by}
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(kind text, class_id int, day date, start_min smallint, end_min smallint, teacher_id int, room_id int)
    returning id`.execute(kdb(on));
  return r.rows.length;
}
