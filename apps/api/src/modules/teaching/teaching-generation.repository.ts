import type { CalendarDay } from '@wantuo/shared';
import { sql } from 'kysely';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import type { SessionKind } from './teaching-schedule.repository';

/** A class a generation reads (the school's, not deleted; a teacher's own) with the count of its sessions kept. */
export interface GenerationClass {
  id: number;
  name: string;
  teacher_id: number;
  room_id: number | null;
  capacity: number;
  sessions_count: number;
  status: number;
  version: number;
  kept: number;
}

/** A session already stored as one of the rows a generation reads: [id, day, start_min, end_min]. */
export type StoredSession = [number, string, number, number];

/** What a generation of teaching classes reads, under the school's scheduling lock when it writes (JSON of one statement). */
export interface GenerationState {
  /** the classes found (the school's, not deleted; a teacher's own) with the count of their sessions kept */
  classes: GenerationClass[];
  /** the classes' planned sessions in their ranges (replaced): [class_id, id] */
  replaced: Array<[number, number]>;
  calendar: CalendarDay[];
  /** the classes' students: [class_id, student_id] */
  members: Array<[number, number]>;
  /** every class of those students: [kind, class_id, student_id] */
  memberships: Array<[SessionKind, number, number]>;
  /** the sessions (not cancelled) over the whole range of those classes: [kind, class_id, name, sessions] */
  classSessions: Array<[SessionKind, number, string, StoredSession[]]>;
  /** the teachers' and rooms' sessions not cancelled over the whole range: [teacher|room, who, id, kind, class_id, day, start, end, label] */
  busy: Array<['teacher' | 'room', number, number, SessionKind, number, string, number, number, string]>;
  /** the students' care time slots: [student, care class or null, source, weekdays, start, end, label] */
  care: Array<[number, number | null, 'care' | 'care_student', number[], number, number, string]>;
}

const MINUTES = (col: 'start_time' | 'end_time') => sql.raw(`(extract(hour from t.${col}) * 60 + extract(minute from t.${col}))::int`);

/**
 * A generation's whole read, for one class or a term's many, in one statement (it was ten a class): the classes
 * (locked for update in id order when writing), their planned sessions in their ranges (replaced) and the count of
 * their other sessions, the calendar, the students and every class of theirs with that class's sessions once (not
 * once per student), the teachers' and rooms' sessions by (teacher|room, day), the care time slots; all over the
 * whole range, the replaced sessions among them (left out by the caller). The students' classes' sessions per class
 * through a lateral range (`offset 0` keeps it an index range whatever the statistics). A set-based statement of
 * JSON aggregates: written with Kysely's `sql` tag, every value a parameter.
 */
export async function generationState(
  on: Queryable,
  schoolId: number,
  teacher: number | null,
  ranges: ReadonlyArray<{ class_id: number; from: string; to: string }>,
  lock: boolean,
): Promise<GenerationState> {
  let from = ranges[0].from;
  let to = ranges[0].to;
  for (const r of ranges) {
    if (r.from < from) from = r.from;
    if (r.to > to) to = r.to;
  }
  const ids = sql`${ranges.map((r) => r.class_id)}::int[]`;
  const r = await sql<Omit<GenerationState, 'classSessions'> & { class_sessions: GenerationState['classSessions'] }>`
  with c as materialized (
    select c.id, c.name, c.teacher_id, c.room_id, c.capacity, c.sessions_count, c.status::int as status, c.version from teaching_classes c
     where c.school_id = ${schoolId} and c.id = any(${ids}) and c.deleted_at is null and (${teacher}::int is null or c.teacher_id = ${teacher}::int)
     order by c.id${lock ? sql` for update` : sql``}),
  q as materialized (
    select q.id, q.f, q.t from unnest(${ids}, ${ranges.map((r) => r.from)}::date[], ${ranges.map((r) => r.to)}::date[]) as q(id, f, t) join c on c.id = q.id),
  st as materialized (select m.class_id, m.student_id from c join teaching_class_students m on m.class_id = c.id),
  m as materialized (
    select 'teaching'::text as kind, class_id, student_id from teaching_class_students
     where student_id = any(array(select distinct student_id from st)) and school_id = ${schoolId}
    union all
    select 'tutoring', class_id, student_id from tutoring_class_students
     where student_id = any(array(select distinct student_id from st)) and school_id = ${schoolId}),
  oc as (
    select 'teaching'::text as kind, id, name from teaching_classes
     where id = any(array(select distinct class_id from m where kind = 'teaching')) and deleted_at is null
    union all
    select 'tutoring', id, name from tutoring_classes
     where id = any(array(select distinct class_id from m where kind = 'tutoring')) and deleted_at is null),
  b as (
    select 'teacher' as k, s.teacher_id as who, s.id, s.kind, s.class_id, s.day, s.start_min, s.end_min from class_sessions s
     where s.teacher_id = any(array(select distinct teacher_id from c)) and s.day between ${from}::date and ${to}::date and s.state <> 'cancelled'
    union all
    select 'room', s.room_id, s.id, s.kind, s.class_id, s.day, s.start_min, s.end_min from class_sessions s
     where s.room_id = any(array(select distinct room_id from c where room_id is not null)) and s.day between ${from}::date and ${to}::date
       and s.state <> 'cancelled'),
  care as (
    select m.student_id as who, cc.id as class_id, 'care' as source, t.weekdays::int[] as weekdays, ${MINUTES('start_time')} as start_min,
           ${MINUTES('end_time')} as end_min, cc.name || ' ' || t.name as label
      from care_class_students m
      join care_classes cc on cc.id = m.class_id and cc.deleted_at is null and cc.status = 1
      join class_times t on t.id = cc.class_time_id and t.deleted_at is null
     where m.student_id = any(array(select distinct student_id from st)) and m.school_id = ${schoolId}
    union all
    select m.student_id, null, 'care_student', t.weekdays::int[], ${MINUTES('start_time')}, ${MINUTES('end_time')}, t.name
      from student_class_times m join class_times t on t.id = m.class_time_id and t.deleted_at is null
     where m.student_id = any(array(select distinct student_id from st)) and m.school_id = ${schoolId})
  select
    (select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'teacher_id', c.teacher_id, 'room_id', c.room_id, 'capacity', c.capacity,
              'sessions_count', c.sessions_count, 'status', c.status, 'version', c.version,
              'kept', (select count(*) from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state <> 'cancelled'
                         and not (s.state = 'planned' and s.day between q.f and q.t)))), '[]')
       from c join q on q.id = c.id) as classes,
    (select coalesce(json_agg(json_build_array(q.id, s.id)), '[]') from q
       join class_sessions s on s.kind = 'teaching' and s.class_id = q.id and s.state = 'planned' and s.day between q.f and q.t) as replaced,
    (select coalesce(json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'kind', d.kind, 'works_as', d.works_as::int, 'note', d.note) order by d.day), '[]')
       from school_calendar_days d where d.school_id = ${schoolId} and d.day between ${from}::date and ${to}::date) as calendar,
    (select coalesce(json_agg(json_build_array(st.class_id, st.student_id) order by st.class_id, st.student_id), '[]') from st) as members,
    (select coalesce(json_agg(json_build_array(m.kind, m.class_id, m.student_id)), '[]') from m) as memberships,
    (select coalesce(json_agg(json_build_array(oc.kind, oc.id, oc.name, x.sessions)), '[]') from oc
       cross join lateral (
         select coalesce(json_agg(json_build_array(s.id, to_char(s.day, 'YYYY-MM-DD'), s.start_min, s.end_min)), '[]') as sessions from (
           select s.id, s.day, s.start_min, s.end_min from class_sessions s
            where s.kind = oc.kind and s.class_id = oc.id and s.day between ${from}::date and ${to}::date and s.state <> 'cancelled' offset 0) s) x) as class_sessions,
    (select coalesce(json_agg(json_build_array(b.k, b.who, b.id, b.kind, b.class_id, to_char(b.day, 'YYYY-MM-DD'), b.start_min, b.end_min,
              coalesce(tc.name, uc.name, b.kind))), '[]')
       from b left join teaching_classes tc on b.kind = 'teaching' and tc.id = b.class_id
       left join tutoring_classes uc on b.kind = 'tutoring' and uc.id = b.class_id) as busy,
    (select coalesce(json_agg(json_build_array(care.who, care.class_id, care.source, care.weekdays, care.start_min, care.end_min, care.label)), '[]')
       from care) as care`.execute(kdb(on));
  const { class_sessions, ...rest } = r.rows[0];
  return { ...rest, classSessions: class_sessions };
}

/** The new sessions of a generation, one entry a session. */
export interface SessionRowsToWrite {
  classIds: number[];
  days: string[];
  starts: number[];
  ends: number[];
  teacherIds: number[];
  roomIds: Array<number | null>;
}

/**
 * Replaces classes' sessions in one statement: deletes `replaced` (first: the insert waits on the delete's count, so
 * the exclusion constraints see the replaced sessions gone), inserts the new ones from arrays (one entry a session)
 * and bumps the classes' versions. Answers the number written.
 */
export async function replaceSessions(
  on: Queryable,
  q: { schoolId: number; kind: SessionKind; classIds: number[]; replaced: number[]; userId: number; rows: SessionRowsToWrite },
): Promise<number> {
  const versionTable = sql.table(q.kind === 'teaching' ? 'teaching_classes' : 'tutoring_classes');
  const r = await sql<{ written: number; updated: number }>`
    with d as (delete from class_sessions where id = any(${q.replaced}::int[]) returning id),
     i as (insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by)
           select ${q.schoolId}, ${q.kind}, x.class_id, x.day, x.start_min, x.end_min, x.teacher_id, x.room_id, ${q.userId}
             from unnest(${q.rows.classIds}::int[], ${q.rows.days}::date[], ${q.rows.starts}::int[], ${q.rows.ends}::int[], ${q.rows.teacherIds}::int[],
                         ${q.rows.roomIds}::int[]) as x(class_id, day, start_min, end_min, teacher_id, room_id)
            where (select count(*) from d) >= 0
           returning id),
     u as (update ${versionTable} set version = version + 1, updated_at = now() where id = any(${q.classIds}::int[]) returning id)
     select (select count(*)::int from i) as written, (select count(*)::int from u) as updated`.execute(kdb(on));
  return r.rows[0].written;
}
