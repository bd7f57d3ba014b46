import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, StudentStatus, type DepartureWho, type FlowPayload, type ReportComment, type ReportHomework } from '@wantuo/shared';
import { sql, type Expression, type RawBuilder } from 'kysely';
import { DataSource } from 'typeorm';
import { kdb } from '../../core/database/kysely';
import type { Queryable } from '../../core/database/sql-kit';
import { studentScope } from '../homework/homework.repository';

/** A (student, school day) of the projection daily_reports. */
export interface DayKey {
  student_id: number;
  day: string;
}

const one = sql.lit(1).as('one');

/** An instant as JSON carries it, whatever the session's time zone (UTC, milliseconds, Z). */
export const isoOf = (e: Expression<Date | null>) => sql<string | null>`to_char(${e} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The instants a school day `day` (a date expression) of zone `tz` starts and ends. */
const dayStart = (day: Expression<string>, tz: Expression<string>) => sql<Date>`(${day}::timestamp at time zone ${tz})`;
const dayEnd = (day: Expression<string>, tz: Expression<string>) => sql<Date>`((${day} + 1)::timestamp at time zone ${tz})`;

/** The school's zone (`sc` the school). */
const TZ = sql<string>`coalesce(sc.timezone, 'Asia/Shanghai')`;

/**
 * The homework open on a day (set on or before it, due on or after it) of a student, as the report's JSON list: done
 * (handed in or checked), marked (checked), the teacher's note, the guardian's note, the photos of that day's history
 * entries (the teacher's or the guardian's). Homework marking emits no domain event: the report reads this live.
 */
export const homeworkOf = (student: Expression<number>, day: Expression<string>, tz: Expression<string>): RawBuilder<ReportHomework[]> => sql<
  ReportHomework[]
>`coalesce((
  select jsonb_agg(jsonb_build_object('homework_id', h.id, 'title', h.title, 'due_day', to_char(h.due_day, 'YYYY-MM-DD'),
           'class_name', coalesce(case when h.kind = 'care' then (select cc.name from care_classes cc where cc.id = h.class_id)
                                       else (select tc.name from teaching_classes tc where tc.id = h.class_id) end, ''),
           'state', hs.state, 'done', hs.state <> 'todo', 'marked', hs.state = 'checked', 'note', hs.note, 'home_note', hs.home_note,
           'photos', coalesce((select jsonb_agg(distinct e.photo_url) from homework_events e
                                where e.homework_id = h.id and e.student_id = hs.student_id and e.photo_url is not null
                                  and e.at >= ${dayStart(day, tz)} and e.at < ${dayEnd(day, tz)}), '[]'::jsonb))
         order by h.due_day, h.id)
    from homework_submissions hs join homeworks h on h.id = hs.homework_id
   where hs.student_id = ${student} and h.set_day <= ${day} and h.due_day >= ${day}), '[]'::jsonb)`;

/** The points awarded or deducted on a day (the exchanges and refunds of the mall are not "earned"). Read live, like the homework. */
const ledgerOfDay = (student: Expression<number>, day: Expression<string>, tz: Expression<string>) => sql`from points_ledger l
   where l.student_id = ${student} and l.kind in ('award', 'deduct') and l.created_at >= ${dayStart(day, tz)} and l.created_at < ${dayEnd(day, tz)}`;
export const pointsOf = (student: Expression<number>, day: Expression<string>, tz: Expression<string>) =>
  sql<number>`(select coalesce(sum(l.delta), 0)::int ${ledgerOfDay(student, day, tz)})`;
export const pointsEntriesOf = (student: Expression<number>, day: Expression<string>, tz: Expression<string>) =>
  sql<
    Array<{ delta: number; reason: string | null; at: string }>
  >`(select coalesce(jsonb_agg(jsonb_build_object('delta', l.delta, 'reason', l.reason, 'at', ${isoOf(sql`l.created_at`)}) order by l.id), '[]'::jsonb) ${ledgerOfDay(student, day, tz)})`;

/** The keys as one table `k(student_id, day)`. */
const keysOf = (students: number[], days: string[]) => sql<DayKey>`unnest(${students}::int[], ${days}::date[])`.as<'k'>(sql`k(student_id, day)`);

// ---------------------------------------------------------------- the projection (report-projection.ts)

/** Locks the keys (in their order) for the caller's transaction, so two refreshes of a day cannot write out of order. */
export async function lockDays(em: Queryable, students: number[], days: string[]): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('daily_report'), hashtext(k.student_id || ':' || k.day))
         from unnest(${students}::int[], ${days}::date[]) with ordinality as k(student_id, day, n) order by n`.execute(kdb(em));
}

/** The flow events of the keys, in each day's order, with their day, class and position. */
export function dayEvents(em: Queryable, students: number[], days: string[]) {
  return kdb(em)
    .selectFrom('flow_events as e')
    .innerJoin(keysOf(students, days), (j) => j.onRef('e.student_id', '=', 'k.student_id').onRef('e.day', '=', 'k.day'))
    .select((eb) => [
      'e.event_id',
      'e.type',
      eb.ref('e.payload').$castTo<FlowPayload>().as('payload'),
      'e.actor_id as actor',
      'e.occurred_at as at',
      'e.student_id',
      sql<string>`to_char(${eb.ref('e.day')}, 'YYYY-MM-DD')`.as('day'),
      'e.class_id',
      sql<string>`${eb.ref('e.global_position')}::text`.as('position'),
    ])
    .orderBy('e.student_id')
    .orderBy('e.day')
    .orderBy('e.version')
    .execute();
}

export function pickupPeople(em: Queryable, ids: number[]) {
  return kdb(em)
    .selectFrom('pickup_people')
    .select(['id', 'name', 'relation'])
    .where('id', '=', sql<number>`any(${ids}::int[])`)
    .execute();
}

/** Drops the rows of the keys no event or comment backs. */
export async function dropUnbacked(em: Queryable, students: number[], days: string[]): Promise<void> {
  await kdb(em)
    .deleteFrom('daily_reports as r')
    .using(keysOf(students, days))
    .whereRef('r.student_id', '=', 'k.student_id')
    .whereRef('r.day', '=', 'k.day')
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(eb.selectFrom('flow_events as e').select(one).whereRef('e.student_id', '=', 'k.student_id').whereRef('e.day', '=', 'k.day')),
        ),
        eb.not(
          eb.exists(eb.selectFrom('daily_comments as c').select(one).whereRef('c.student_id', '=', 'k.student_id').whereRef('c.day', '=', 'k.day')),
        ),
      ]),
    )
    .execute();
}

/** A refreshed row as the upsert reads it (the folded flow parts; `last_position` null: no events). */
export interface FoldedRow {
  student_id: number;
  day: string;
  class_id?: number | null;
  state?: string;
  on_leave?: boolean;
  picked_up_at?: string | null;
  arrived_at?: string | null;
  arrived_by?: number | null;
  dinner_at?: string | null;
  tutor_started_at?: string | null;
  tutor_ended_at?: string | null;
  left_at?: string | null;
  left_by?: number | null;
  pickup?: DepartureWho | null;
  last_position: string | null;
}

/** The columns the refresh writes (everything but sent_at, the time the report's message went out). */
const WRITTEN = [
  'class_id',
  'state',
  'on_leave',
  'picked_up_at',
  'arrived_at',
  'arrived_by',
  'dinner_at',
  'tutor_started_at',
  'tutor_ended_at',
  'left_at',
  'left_by',
  'pickup',
  'comment',
  'last_position',
] as const;

/**
 * One statement: the rows of the keys from the folded flow parts (JSON) and the day's comment read here (as the
 * report's JSON: null for none). Never backwards: a refresh that read the day before a later event (another
 * process's) does not overwrite the newer row.
 */
export async function upsertReports(em: Queryable, rows: FoldedRow[]): Promise<void> {
  await sql`insert into daily_reports (student_id, day, school_id, ${sql.join(WRITTEN.map((c) => sql.ref(c)))}, updated_at)
  select f.student_id, f.day, st.school_id,
         coalesce(f.class_id, (select min(ccs.class_id) from care_class_students ccs where ccs.student_id = f.student_id)),
         f.state, coalesce(f.on_leave, false), f.picked_up_at, f.arrived_at, f.arrived_by, f.dinner_at, f.tutor_started_at, f.tutor_ended_at,
         f.left_at, f.left_by, f.pickup,
         (select jsonb_build_object('presets', to_jsonb(c.presets), 'text', c.text, 'photos', c.photos, 'author_name', u.name,
                                    'at', ${isoOf(sql`c.updated_at`)}, 'version', c.version)
            from daily_comments c join users u on u.id = c.author_id where c.student_id = f.student_id and c.day = f.day),
         f.last_position, now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as f(student_id int, day date, class_id int, state text, on_leave bool, picked_up_at timestamptz,
           arrived_at timestamptz, arrived_by int, dinner_at timestamptz, tutor_started_at timestamptz, tutor_ended_at timestamptz,
           left_at timestamptz, left_by int, pickup jsonb, last_position bigint)
    join students st on st.id = f.student_id
   where f.last_position is not null or exists (select 1 from daily_comments c where c.student_id = f.student_id and c.day = f.day)
  on conflict (student_id, day) do update set ${sql.join(WRITTEN.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}, updated_at = now()
   where daily_reports.last_position is null or excluded.last_position is null or daily_reports.last_position <= excluded.last_position`.execute(
    kdb(em),
  );
}

/** Holds off flow appends and comment saves for the rest of the caller's transaction (a rebuild). */
export async function lockSources(em: Queryable): Promise<void> {
  await sql`lock table flow_events, daily_comments in share mode`.execute(kdb(em));
}

/** Drops the rows (of one school, or all) no event or comment backs. */
export async function dropAllUnbacked(em: Queryable, school: number | null): Promise<void> {
  await kdb(em)
    .deleteFrom('daily_reports as r')
    .$if(school !== null, (q) => q.where('r.school_id', '=', school!))
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(eb.selectFrom('flow_events as e').select(one).whereRef('e.student_id', '=', 'r.student_id').whereRef('e.day', '=', 'r.day')),
        ),
        eb.not(
          eb.exists(eb.selectFrom('daily_comments as c').select(one).whereRef('c.student_id', '=', 'r.student_id').whereRef('c.day', '=', 'r.day')),
        ),
      ]),
    )
    .execute();
}

/** The next `limit` keys of a source after `after`, in index order (distinct on the primary keys' prefix stops at the limit). */
export function nextKeys(
  em: Queryable,
  table: 'flow_events' | 'daily_comments',
  school: number | null,
  after: readonly [number, string],
  limit: number,
): Promise<DayKey[]> {
  // both sources are keyed (student_id, day) and carry school_id: typed as the flow's, the text names `table`
  return kdb(em)
    .selectFrom(`${table as 'flow_events'} as x`)
    .distinctOn(['x.student_id', 'x.day'])
    .select((eb) => ['x.student_id', sql<string>`to_char(${eb.ref('x.day')}, 'YYYY-MM-DD')`.as('day')])
    .$if(school !== null, (q) => q.where('x.school_id', '=', school!))
    .where((eb) => sql<boolean>`(${eb.ref('x.student_id')}, ${eb.ref('x.day')}) > (${after[0]}::int, ${after[1]}::date)`)
    .orderBy('x.student_id')
    .orderBy('x.day')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------- the report's message (reports.listener.ts)

/** The rows of these student-days whose child has left and whose report has not gone out, with the guardians to tell. */
export function unsent(on: Queryable, keys: readonly DayKey[]) {
  return kdb(on)
    .selectFrom('daily_reports as r')
    .innerJoin(
      keysOf(
        keys.map((k) => k.student_id),
        keys.map((k) => k.day),
      ),
      (j) => j.onRef('r.student_id', '=', 'k.student_id').onRef('r.day', '=', 'k.day'),
    )
    .innerJoin('students as st', 'st.id', 'r.student_id')
    .innerJoin('schools as sc', 'sc.id', 'r.school_id')
    .select((eb) => [
      'r.student_id',
      sql<string>`to_char(${eb.ref('r.day')}, 'YYYY-MM-DD')`.as('day'),
      'r.school_id',
      'st.name as student',
      'sc.name as school',
      eb.fn
        .coalesce(
          eb
            .selectFrom('student_guardians as sg')
            .select((x) => sql<number[]>`array_agg(${x.ref('sg.user_id')} order by ${x.ref('sg.user_id')})`.as('ids'))
            .whereRef('sg.student_id', '=', 'r.student_id')
            .$asScalar(),
          sql<number[]>`'{}'`,
        )
        .as('guardians'),
    ])
    .where('r.left_at', 'is not', null)
    .where('r.sent_at', 'is', null)
    .execute();
}

/** Marks the reports of these student-days sent (those not marked yet). */
export async function markSent(on: Queryable, keys: readonly DayKey[]): Promise<void> {
  await kdb(on)
    .updateTable('daily_reports as r')
    .from(
      keysOf(
        keys.map((k) => k.student_id),
        keys.map((k) => k.day),
      ),
    )
    .set({ sent_at: sql`now()` })
    .whereRef('r.student_id', '=', 'k.student_id')
    .whereRef('r.day', '=', 'k.day')
    .where('r.sent_at', 'is', null)
    .execute();
}

// ---------------------------------------------------------------- the report's pages (reports.service.ts)

/** The school's today (school-local), as a one-row table `d` (`offset 0`: evaluated once). */
const todayOf = (on: Queryable, school: number) =>
  kdb(on)
    .selectFrom('schools')
    .select(sql<string>`(now() at time zone timezone)::date`.as('today'))
    .where('id', '=', school)
    .offset(0)
    .as('d');

/** The SQL of the daily report's pages and the teacher's comment (issue 38), typed by the schema. */
@Injectable()
export class ReportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The student of the school in the caller's scope, and `day` (default the school's today). */
  student(school: number, role: Role, me: number, studentId: number, day: string | null) {
    return kdb(this.db)
      .selectFrom('students as s')
      .crossJoin(todayOf(this.db, school))
      .select((eb) => ['s.id', 's.name', eb.fn.coalesce(sql<string | null>`${day}::text`, sql<string>`to_char(d.today, 'YYYY-MM-DD')`).as('day')])
      .where('s.school_id', '=', school)
      .where('s.id', '=', studentId)
      .where((eb) => studentScope(eb, role, me))
      .executeTakeFirst();
  }

  /** The student of the school, whether in the caller's scope (`mine`), and `day` (default the school's today). */
  commentStudent(school: number, role: Role, me: number, studentId: number, day: string | null) {
    return kdb(this.db)
      .selectFrom('students as s')
      .crossJoin(todayOf(this.db, school))
      .select((eb) => [
        's.id',
        sql<boolean>`${studentScope(eb, role, me)}`.as('mine'),
        eb.fn.coalesce(sql<string | null>`${day}::text`, sql<string>`to_char(d.today, 'YYYY-MM-DD')`).as('day'),
      ])
      .where('s.school_id', '=', school)
      .where('s.id', '=', studentId)
      .executeTakeFirst();
  }

  /** The child's day: the projection's row (times as ISO), the class, the homework and points read live. */
  report(studentId: number, day: string) {
    return kdb(this.db)
      .selectFrom('students as s')
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .leftJoin('daily_reports as r', (j) => j.onRef('r.student_id', '=', 's.id').on('r.day', '=', sql<string>`${day}::date`))
      .leftJoin('care_classes as cc', (j) =>
        j.on('cc.id', '=', sql<number>`coalesce(r.class_id, (select min(x.class_id) from care_class_students x where x.student_id = s.id))`),
      )
      .leftJoin('users as au', 'au.id', 'r.arrived_by')
      .leftJoin('users as lu', 'lu.id', 'r.left_by')
      .select((eb) => {
        const d = sql<string>`${day}::date`;
        return [
          's.id as student_id',
          's.name as student_name',
          sql<string>`${day}::text`.as('day'),
          'cc.name as class_name',
          'r.state',
          eb.fn.coalesce('r.on_leave', sql<boolean>`false`).as('on_leave'),
          isoOf(eb.ref('r.picked_up_at')).as('picked_up_at'),
          isoOf(eb.ref('r.arrived_at')).as('arrived_at'),
          'au.name as arrived_by_name',
          isoOf(eb.ref('r.dinner_at')).as('dinner_at'),
          isoOf(eb.ref('r.tutor_started_at')).as('tutor_started_at'),
          isoOf(eb.ref('r.tutor_ended_at')).as('tutor_ended_at'),
          isoOf(eb.ref('r.left_at')).as('left_at'),
          'lu.name as left_by_name',
          eb.ref('r.pickup').$castTo<DepartureWho | null>().as('pickup'),
          eb.ref('r.comment').$castTo<ReportComment | null>().as('comment'),
          isoOf(eb.ref('r.sent_at')).as('sent_at'),
          homeworkOf(eb.ref('s.id'), d, TZ).as('homework'),
          pointsOf(eb.ref('s.id'), d, TZ).as('points'),
          pointsEntriesOf(eb.ref('s.id'), d, TZ).as('points_entries'),
        ];
      })
      .where('s.id', '=', studentId)
      .executeTakeFirstOrThrow();
  }

  /** A page of the child's report days up to `day`, newest first, with the total. */
  days(studentId: number, day: string, limit: number, offset: number) {
    return kdb(this.db)
      .selectFrom('daily_reports as r')
      .innerJoin('schools as sc', 'sc.id', 'r.school_id')
      .select((eb) => [
        sql<string>`to_char(${eb.ref('r.day')}, 'YYYY-MM-DD')`.as('day'),
        'r.state',
        'r.on_leave',
        isoOf(eb.ref('r.arrived_at')).as('arrived_at'),
        isoOf(eb.ref('r.left_at')).as('left_at'),
        sql<number>`jsonb_array_length(${homeworkOf(eb.ref('r.student_id'), eb.ref('r.day'), TZ)})`.as('homework'),
        pointsOf(eb.ref('r.student_id'), eb.ref('r.day'), TZ).as('points'),
        eb('r.comment', 'is not', null).$castTo<boolean>().as('has_comment'),
        isoOf(eb.ref('r.sent_at')).as('sent_at'),
        sql<number>`count(*) over ()::int`.as('total'),
      ])
      .where('r.student_id', '=', studentId)
      .where('r.day', '<=', sql<string>`${day}::date`)
      .orderBy('r.day', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The care classes the caller may see the status of: the admin any of the school, a head teacher theirs, a teacher those with a duty (200 at most). */
  classes(school: number, me: number, isAdmin: boolean) {
    return kdb(this.db)
      .selectFrom('care_classes as cc')
      .select(['cc.id', 'cc.name'])
      .where('cc.school_id', '=', school)
      .where('cc.deleted_at', 'is', null)
      .$if(!isAdmin, (q) =>
        q.where((eb) =>
          eb.or([
            eb('cc.head_teacher_id', '=', me),
            eb.exists(eb.selectFrom('duty_assignments as d').select(one).whereRef('d.class_id', '=', 'cc.id').where('d.teacher_id', '=', me)),
          ]),
        ),
      )
      .orderBy('cc.id')
      .limit(200)
      .execute();
  }

  /** The school's today (school-local, YYYY-MM-DD). */
  async today(school: number): Promise<string> {
    const r = await kdb(this.db)
      .selectFrom(todayOf(this.db, school))
      .select(sql<string>`to_char(d.today, 'YYYY-MM-DD')`.as('today'))
      .executeTakeFirstOrThrow();
    return r.today;
  }

  /** The active students of a class on a day, by name: their report's state, sent, comment, and the day's homework. */
  classDay(classId: number, day: string) {
    return kdb(this.db)
      .selectFrom('care_class_students as ccs')
      .innerJoin('students as s', (j) => j.onRef('s.id', '=', 'ccs.student_id').on('s.status', '=', StudentStatus.Active))
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .leftJoin('daily_reports as r', (j) => j.onRef('r.student_id', '=', 's.id').on('r.day', '=', sql<string>`${day}::date`))
      .select((eb) => [
        's.id as student_id',
        's.name as student_name',
        'r.state',
        eb.fn.coalesce('r.on_leave', sql<boolean>`false`).as('on_leave'),
        isoOf(eb.ref('r.arrived_at')).as('arrived_at'),
        isoOf(eb.ref('r.left_at')).as('left_at'),
        isoOf(eb.ref('r.sent_at')).as('sent_at'),
        eb('r.comment', 'is not', null).$castTo<boolean>().as('has_comment'),
        sql<number>`coalesce((${eb.ref('r.comment')}->>'version')::int, 0)`.as('comment_version'),
        homeworkOf(eb.ref('s.id'), sql<string>`${day}::date`, TZ).as('homework'),
      ])
      .where('ccs.class_id', '=', classId)
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
  }

  /** The student's name and photo consent, under a share lock (a withdrawal waits or is seen), with the photos stored for the day. */
  photoConsent(em: Queryable, studentId: number, day: string) {
    return kdb(em)
      .selectFrom('students as s')
      .select((eb) => [
        's.name',
        's.photo_consent',
        eb.fn
          .coalesce(
            eb
              .selectFrom('daily_comments as dc')
              .select((x) => sql<string[]>`array(select jsonb_array_elements_text(${x.ref('dc.photos')}))`.as('photos'))
              .whereRef('dc.student_id', '=', 's.id')
              .where('dc.day', '=', sql<string>`${day}::date`)
              .$asScalar(),
            sql<string[]>`'{}'`,
          )
          .as('stored'),
      ])
      .where('s.id', '=', studentId)
      .forShare('s')
      .executeTakeFirstOrThrow();
  }

  /** The first version of the day's comment (undefined: one was written meanwhile). */
  async insertComment(
    em: Queryable,
    v: { studentId: number; day: string; school: number; presets: string[]; text: string; photos: string[]; author: number },
  ): Promise<number | undefined> {
    const r = await kdb(em)
      .insertInto('daily_comments')
      .values({
        student_id: v.studentId,
        day: v.day,
        school_id: v.school,
        presets: v.presets,
        text: v.text,
        photos: JSON.stringify(v.photos),
        author_id: v.author,
        version: 1,
      })
      .onConflict((oc) => oc.columns(['student_id', 'day']).doNothing())
      .returning('version')
      .executeTakeFirst();
    return r?.version;
  }

  /** The comment's next version on the version read (undefined: stale). */
  async updateComment(
    em: Queryable,
    v: { studentId: number; day: string; school: number; presets: string[]; text: string; photos: string[]; author: number; version: number },
  ): Promise<number | undefined> {
    const r = await kdb(em)
      .updateTable('daily_comments')
      .set((eb) => ({
        presets: v.presets,
        text: v.text,
        photos: JSON.stringify(v.photos),
        author_id: v.author,
        version: eb('version', '+', 1),
        updated_at: sql`now()`,
      }))
      .where('student_id', '=', v.studentId)
      .where('day', '=', v.day)
      .where('school_id', '=', v.school)
      .where('version', '=', v.version)
      .returning('version')
      .executeTakeFirst();
    return r?.version;
  }

  /** Keeps the comment's version (daily_comment_versions). */
  async keepVersion(em: Queryable, studentId: number, day: string): Promise<void> {
    await kdb(em)
      .insertInto('daily_comment_versions')
      .columns(['school_id', 'student_id', 'day', 'version', 'presets', 'text', 'photos', 'author_id'])
      .expression((db) =>
        db
          .selectFrom('daily_comments')
          .select(['school_id', 'student_id', 'day', 'version', 'presets', 'text', 'photos', 'author_id'])
          .where('student_id', '=', studentId)
          .where('day', '=', day),
      )
      .execute();
  }

  /** The day's comment as the report's JSON. */
  reportComment(em: Queryable, studentId: number, day: string) {
    return kdb(em)
      .selectFrom('daily_reports')
      .select((eb) => eb.ref('comment').$castTo<ReportComment>().as('comment'))
      .where('student_id', '=', studentId)
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
  }
}
