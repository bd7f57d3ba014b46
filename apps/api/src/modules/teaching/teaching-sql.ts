import { Code, findClashes, Role, type BusyInterval, type CalendarDay, type Clash, type ProposedSession } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';

/** SQL and checks shared by the teaching services: the rows, the scheduling lock, the calendar and the clash check. */

type Db = Pick<EntityManager, 'query'>;

/** The caller's school (the role guard only lets school members reach these actions). */
export const schoolOf = (user: SessionUser): number => user.schoolId ?? -1;

/** A teacher (role 2) sees only the classes and sessions they teach; the admin all of the school's. */
export const teachesOnly = (user: SessionUser): boolean => user.role !== Role.Admin;

/** A TeachingClass row (`c` teaching_classes). */
export const CLASS_COLUMNS = `c.id, c.name, c.subject, c.teacher_id, u.name as teacher_name, c.room_id, r.name as room_name, c.capacity,
  (select count(*)::int from teaching_class_students m where m.class_id = c.id) as students, c.sessions_count,
  (select count(*)::int from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state <> 'cancelled') as sessions_scheduled,
  (select count(*)::int from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state = 'held') as sessions_held,
  c.fee_fen::float8 as fee_fen, c.status::int as status, c.version, c.created_at`;
export const CLASS_JOINS = `join users u on u.id = c.teacher_id left join rooms r on r.id = c.room_id`;

/** A TeachingSession row (`s` class_sessions; weekday: the one the day runs as, a make-up day's works_as). */
export const SESSION_COLUMNS = `s.id, s.class_id, to_char(s.day, 'YYYY-MM-DD') as day,
  coalesce((select cd.works_as from school_calendar_days cd where cd.school_id = s.school_id and cd.day = s.day and cd.kind = 'makeup'), extract(isodow from s.day))::int as weekday,
  to_char(make_time(s.start_min / 60, s.start_min % 60, 0), 'HH24:MI') as start_time,
  case when s.end_min = 1440 then '24:00' else to_char(make_time(s.end_min / 60, s.end_min % 60, 0), 'HH24:MI') end as end_time,
  s.teacher_id, tu.name as teacher_name, s.room_id, sr.name as room_name, s.state, s.cancel_reason, s.version,
  (select case when count(*) = 0 then null else json_build_object('present', count(*) filter (where rc.status = 'present'), 'late', count(*) filter (where rc.status = 'late'),
          'absent', count(*) filter (where rc.status = 'absent'), 'leave', count(*) filter (where rc.status = 'leave')) end
     from session_roll_calls rc where rc.session_id = s.id) as roll_call`;
export const SESSION_JOINS = `join users tu on tu.id = s.teacher_id left join rooms sr on sr.id = s.room_id`;

/** A teaching class of the school (not deleted), locked for update when asked; a teacher only an own class. */
export interface LockedClass {
  id: number;
  name: string;
  teacher_id: number;
  room_id: number | null;
  capacity: number;
  sessions_count: number;
  status: number;
  version: number;
}

export async function classOf(db: Db, user: SessionUser, id: number, lock = false): Promise<LockedClass> {
  const [c]: LockedClass[] = await db.query(
    `select id, name, teacher_id, room_id, capacity, sessions_count, status::int as status, version from teaching_classes
      where school_id = $1 and id = $2 and deleted_at is null and ($3::int is null or teacher_id = $3)${lock ? ' for update' : ''}`,
    [schoolOf(user), id, teachesOnly(user) ? user.id : null],
  );
  if (!c) throw new AppError('teaching.class_not_found');
  return c;
}

/**
 * Serialises the writes of the school's schedule (generation, moves, members joining a scheduled class): the
 * teacher and room clashes are refused by the database's exclusion constraints anyway, the student clashes (through
 * class membership and care time slots) only by the check under this lock. Scheduling is an admin's occasional act.
 */
export async function lockSchedule(em: EntityManager, schoolId: number): Promise<void> {
  await em.query(`select pg_advisory_xact_lock(13013, $1::int)`, [schoolId]);
}

/** The school's calendar days in [from, to]. */
export async function calendarOf(db: Db, schoolId: number, from: string, to: string): Promise<CalendarDay[]> {
  return db.query(
    `select to_char(day, 'YYYY-MM-DD') as day, kind, works_as::int as works_as, note from school_calendar_days
      where school_id = $1 and day between $2::date and $3::date order by day`,
    [schoolId, from, to],
  );
}

const MINUTES = (col: string) => `(extract(hour from ${col}) * 60 + extract(minute from ${col}))::int`;

/**
 * What the teachers, rooms and students of the proposed sessions are busy with over [from, to]: their sessions not
 * cancelled (but `exceptSessions` and, for students, the sessions of `ownClass` whose students they are anyway), and
 * the students' care time slots (their care class's slot while it runs, their own slots) every week. Three
 * statements whatever the numbers.
 */
export async function loadBusy(
  db: Db,
  schoolId: number,
  q: {
    from: string;
    to: string;
    teacherIds: number[];
    roomIds: number[];
    studentIds: number[];
    exceptSessions: number[];
    ownClass: { kind: 'teaching' | 'tutoring'; id: number } | null;
  },
): Promise<BusyInterval[]> {
  // teachers and rooms are the school's own (checked when given to a class): their sessions are the school's, looked up
  // by (teacher, day) and (room, day) alone, so no stale statistics can lead the planner to the school's day index
  const sessions: Array<{
    k: 'teacher' | 'room';
    who: number;
    id: number;
    kind: 'teaching' | 'tutoring';
    class_id: number;
    day: string;
    start_min: number;
    end_min: number;
    label: string;
  }> = await db.query(
    `select 'teacher' as k, s.teacher_id as who, s.id, s.kind, s.class_id, to_char(s.day, 'YYYY-MM-DD') as day, s.start_min, s.end_min, coalesce(tc.name, uc.name, s.kind) as label
       from class_sessions s left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
       left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id
      where s.teacher_id = any($3::int[]) and s.day between $1::date and $2::date and s.state <> 'cancelled' and s.id <> all($5::int[])
     union all
     select 'room', s.room_id, s.id, s.kind, s.class_id, to_char(s.day, 'YYYY-MM-DD'), s.start_min, s.end_min, coalesce(tc.name, uc.name, s.kind)
       from class_sessions s left join teaching_classes tc on s.kind = 'teaching' and tc.id = s.class_id
       left join tutoring_classes uc on s.kind = 'tutoring' and uc.id = s.class_id
      where s.room_id = any($4::int[]) and s.day between $1::date and $2::date and s.state <> 'cancelled' and s.id <> all($5::int[])`,
    [q.from, q.to, q.teacherIds, q.roomIds, q.exceptSessions],
  );
  const busy: BusyInterval[] = sessions.map((s) => ({
    kind: s.k,
    who: s.who,
    day: s.day,
    start: s.start_min,
    end: s.end_min,
    ref: { source: s.kind, session_id: s.id, class_id: s.class_id, label: s.label },
  }));
  if (!q.studentIds.length) return busy;
  // the students' other sessions, of their teaching and their tutoring classes
  const theirs: Array<{
    who: number;
    id: number;
    kind: 'teaching' | 'tutoring';
    class_id: number;
    day: string;
    start_min: number;
    end_min: number;
    label: string;
  }> = await db.query(
    // the students' classes first, then each class's sessions in the range through (kind, class_id, day): `offset 0`
    // keeps the lateral a per-class index range whatever the age of the statistics (flattened into a join, the planner
    // scanned the school's whole range after a term was written at once)
    `with m as materialized (
       select 'teaching'::text as kind, student_id, class_id from teaching_class_students
        where student_id = any($4::int[]) and school_id = $1 and not ($6::text = 'teaching' and class_id = $7::int)
       union all
       select 'tutoring', student_id, class_id from tutoring_class_students
        where student_id = any($4::int[]) and school_id = $1 and not ($6::text = 'tutoring' and class_id = $7::int)),
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
          where s.kind = c.kind and s.class_id = c.id and s.day between $2::date and $3::date and s.state <> 'cancelled' and s.id <> all($5::int[])
         offset 0) x
       join m on m.class_id = c.id and m.kind = c.kind`,
    [schoolId, q.from, q.to, q.studentIds, q.exceptSessions, q.ownClass?.kind ?? '', q.ownClass?.id ?? 0],
  );
  for (const s of theirs)
    busy.push({
      kind: 'student',
      who: s.who,
      day: s.day,
      start: s.start_min,
      end: s.end_min,
      ref: { source: s.kind, session_id: s.id, class_id: s.class_id, label: s.label },
    });
  const care: Array<{
    who: number;
    class_id: number | null;
    source: 'care' | 'care_student';
    weekdays: number[];
    start_min: number;
    end_min: number;
    label: string;
  }> = await db.query(
    `select m.student_id as who, cc.id as class_id, 'care' as source, t.weekdays::int[] as weekdays, ${MINUTES('t.start_time')} as start_min, ${MINUTES('t.end_time')} as end_min,
            cc.name || ' ' || t.name as label
       from care_class_students m
       join care_classes cc on cc.id = m.class_id and cc.deleted_at is null and cc.status = 1
       join class_times t on t.id = cc.class_time_id and t.deleted_at is null
      where m.student_id = any($2::int[]) and m.school_id = $1
     union all
     select m.student_id, null, 'care_student', t.weekdays::int[], ${MINUTES('t.start_time')}, ${MINUTES('t.end_time')}, t.name
       from student_class_times m join class_times t on t.id = m.class_time_id and t.deleted_at is null
      where m.student_id = any($2::int[]) and m.school_id = $1`,
    [schoolId, q.studentIds],
  );
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

type SessionKind = 'teaching' | 'tutoring';

/** A session already stored as one of the rows a generation reads: [id, day, start_min, end_min]. */
export type StoredSession = [number, string, number, number];

/** What a generation of teaching classes reads, under the school's scheduling lock when it writes. */
export interface GenerationState {
  /** the classes found (the school's, not deleted; a teacher's own) with the count of their sessions kept */
  classes: Array<LockedClass & { kept: number }>;
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

/**
 * A generation's whole read, for one class or a term's many, in one statement (it was ten a class): the classes
 * ($2, locked for update in id order when writing), their planned sessions in their ranges ($4..$5 each: replaced)
 * and the count of their other sessions, the calendar, the students and every class of theirs with that class's
 * sessions once (not once per student), the teachers' and rooms' sessions by (teacher|room, day), the care time
 * slots; all over the whole range $6..$7, the replaced sessions among them (left out by the caller). The students'
 * classes' sessions per class through a lateral range (`offset 0` keeps it an index range whatever the statistics).
 */
const GENERATION_STATE = (lock: boolean) => `
  with c as materialized (
    select c.id, c.name, c.teacher_id, c.room_id, c.capacity, c.sessions_count, c.status::int as status, c.version from teaching_classes c
     where c.school_id = $1 and c.id = any($2::int[]) and c.deleted_at is null and ($3::int is null or c.teacher_id = $3) order by c.id${lock ? ' for update' : ''}),
  q as materialized (select q.id, q.f, q.t from unnest($2::int[], $4::date[], $5::date[]) as q(id, f, t) join c on c.id = q.id),
  st as materialized (select m.class_id, m.student_id from c join teaching_class_students m on m.class_id = c.id),
  m as materialized (
    select 'teaching'::text as kind, class_id, student_id from teaching_class_students
     where student_id = any(array(select distinct student_id from st)) and school_id = $1
    union all
    select 'tutoring', class_id, student_id from tutoring_class_students
     where student_id = any(array(select distinct student_id from st)) and school_id = $1),
  oc as (
    select 'teaching'::text as kind, id, name from teaching_classes
     where id = any(array(select distinct class_id from m where kind = 'teaching')) and deleted_at is null
    union all
    select 'tutoring', id, name from tutoring_classes
     where id = any(array(select distinct class_id from m where kind = 'tutoring')) and deleted_at is null),
  b as (
    select 'teacher' as k, s.teacher_id as who, s.id, s.kind, s.class_id, s.day, s.start_min, s.end_min from class_sessions s
     where s.teacher_id = any(array(select distinct teacher_id from c)) and s.day between $6::date and $7::date and s.state <> 'cancelled'
    union all
    select 'room', s.room_id, s.id, s.kind, s.class_id, s.day, s.start_min, s.end_min from class_sessions s
     where s.room_id = any(array(select distinct room_id from c where room_id is not null)) and s.day between $6::date and $7::date and s.state <> 'cancelled'),
  care as (
    select m.student_id as who, cc.id as class_id, 'care' as source, t.weekdays::int[] as weekdays, ${MINUTES('t.start_time')} as start_min,
           ${MINUTES('t.end_time')} as end_min, cc.name || ' ' || t.name as label
      from care_class_students m
      join care_classes cc on cc.id = m.class_id and cc.deleted_at is null and cc.status = 1
      join class_times t on t.id = cc.class_time_id and t.deleted_at is null
     where m.student_id = any(array(select distinct student_id from st)) and m.school_id = $1
    union all
    select m.student_id, null, 'care_student', t.weekdays::int[], ${MINUTES('t.start_time')}, ${MINUTES('t.end_time')}, t.name
      from student_class_times m join class_times t on t.id = m.class_time_id and t.deleted_at is null
     where m.student_id = any(array(select distinct student_id from st)) and m.school_id = $1)
  select
    (select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'teacher_id', c.teacher_id, 'room_id', c.room_id, 'capacity', c.capacity,
              'sessions_count', c.sessions_count, 'status', c.status, 'version', c.version,
              'kept', (select count(*) from class_sessions s where s.kind = 'teaching' and s.class_id = c.id and s.state <> 'cancelled'
                         and not (s.state = 'planned' and s.day between q.f and q.t)))), '[]')
       from c join q on q.id = c.id) as classes,
    (select coalesce(json_agg(json_build_array(q.id, s.id)), '[]') from q
       join class_sessions s on s.kind = 'teaching' and s.class_id = q.id and s.state = 'planned' and s.day between q.f and q.t) as replaced,
    (select coalesce(json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'kind', d.kind, 'works_as', d.works_as::int, 'note', d.note) order by d.day), '[]')
       from school_calendar_days d where d.school_id = $1 and d.day between $6::date and $7::date) as calendar,
    (select coalesce(json_agg(json_build_array(st.class_id, st.student_id) order by st.class_id, st.student_id), '[]') from st) as members,
    (select coalesce(json_agg(json_build_array(m.kind, m.class_id, m.student_id)), '[]') from m) as memberships,
    (select coalesce(json_agg(json_build_array(oc.kind, oc.id, oc.name, x.sessions)), '[]') from oc
       cross join lateral (
         select coalesce(json_agg(json_build_array(s.id, to_char(s.day, 'YYYY-MM-DD'), s.start_min, s.end_min)), '[]') as sessions from (
           select s.id, s.day, s.start_min, s.end_min from class_sessions s
            where s.kind = oc.kind and s.class_id = oc.id and s.day between $6::date and $7::date and s.state <> 'cancelled' offset 0) s) x) as class_sessions,
    (select coalesce(json_agg(json_build_array(b.k, b.who, b.id, b.kind, b.class_id, to_char(b.day, 'YYYY-MM-DD'), b.start_min, b.end_min, coalesce(tc.name, uc.name, b.kind))), '[]')
       from b left join teaching_classes tc on b.kind = 'teaching' and tc.id = b.class_id
       left join tutoring_classes uc on b.kind = 'tutoring' and uc.id = b.class_id) as busy,
    (select coalesce(json_agg(json_build_array(care.who, care.class_id, care.source, care.weekdays, care.start_min, care.end_min, care.label)), '[]') from care) as care`;
const GENERATION_STATE_READ = GENERATION_STATE(false);
const GENERATION_STATE_LOCKED = GENERATION_STATE(true);

/** The generation's read (see GENERATION_STATE) for classes with their ranges; `lock` (a write, under lockSchedule) locks the classes. */
export async function generationState(
  db: Db,
  user: SessionUser,
  ranges: ReadonlyArray<{ class_id: number; from: string; to: string }>,
  lock: boolean,
): Promise<GenerationState> {
  let from = ranges[0].from;
  let to = ranges[0].to;
  for (const r of ranges) {
    if (r.from < from) from = r.from;
    if (r.to > to) to = r.to;
  }
  const [row]: Array<Omit<GenerationState, 'classSessions'> & { class_sessions: GenerationState['classSessions'] }> = await db.query(
    lock ? GENERATION_STATE_LOCKED : GENERATION_STATE_READ,
    [schoolOf(user), ranges.map((r) => r.class_id), teachesOnly(user) ? user.id : null, ranges.map((r) => r.from), ranges.map((r) => r.to), from, to],
  );
  const { class_sessions, ...rest } = row;
  return { ...rest, classSessions: class_sessions };
}

/**
 * Replaces classes' sessions in one statement: deletes `replaced` (first: the insert waits on the delete's count, so
 * the exclusion constraints see the replaced sessions gone), inserts the new ones from arrays (one entry a session)
 * and bumps the classes' versions. Answers the number written.
 */
export async function replaceSessions(
  em: Db,
  q: {
    schoolId: number;
    kind: SessionKind;
    classIds: number[];
    replaced: number[];
    userId: number;
    rows: { classIds: number[]; days: string[]; starts: number[]; ends: number[]; teacherIds: number[]; roomIds: Array<number | null> };
  },
): Promise<number> {
  const versionTable = q.kind === 'teaching' ? 'teaching_classes' : 'tutoring_classes';
  const [r]: Array<{ written: number }> = await em.query(
    `with d as (delete from class_sessions where id = any($1::int[]) returning id),
     i as (insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id, room_id, created_by)
           select $2, $3, x.class_id, x.day, x.start_min, x.end_min, x.teacher_id, x.room_id, $4
             from unnest($5::int[], $6::date[], $7::int[], $8::int[], $9::int[], $10::int[]) as x(class_id, day, start_min, end_min, teacher_id, room_id)
            where (select count(*) from d) >= 0
           returning id),
     u as (update ${versionTable} set version = version + 1, updated_at = now() where id = any($11::int[]) returning id)
     select (select count(*)::int from i) as written, (select count(*)::int from u) as updated`,
    [
      q.replaced,
      q.schoolId,
      q.kind,
      q.userId,
      q.rows.classIds,
      q.rows.days,
      q.rows.starts,
      q.rows.ends,
      q.rows.teacherIds,
      q.rows.roomIds,
      q.classIds,
    ],
  );
  return r.written;
}

/** The clashes' names (teachers, rooms, students): one statement, only when there are clashes. */
export async function nameClashes(db: Db, clashes: Clash[]): Promise<Clash[]> {
  if (!clashes.length) return clashes;
  const ids = (kind: Clash['kind']) => [...new Set(clashes.filter((c) => c.kind === kind).map((c) => c.who))];
  const names: Array<{ k: Clash['kind']; id: number; name: string }> = await db.query(
    `select 'teacher' as k, id, name from users where id = any($1::int[])
     union all select 'room', id, name from rooms where id = any($2::int[])
     union all select 'student', id, name from students where id = any($3::int[])`,
    [ids('teacher'), ids('room'), ids('student')],
  );
  const byKey = new Map(names.map((n) => [`${n.k}:${n.id}`, n.name]));
  return clashes.map((c) => ({ ...c, who_name: byKey.get(`${c.kind}:${c.who}`) ?? String(c.who) }));
}

/** The clashes of proposed sessions with what is busy over their days, with the names of who clashes. */
export async function clashesOf(
  db: Db,
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
