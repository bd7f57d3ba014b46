import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobStatus, type AlertKind, type Page } from '@wantuo/shared';
import { sql, type InferResult, type Selectable } from 'kysely';
import { DataSource } from 'typeorm';
import { anyOf } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import { runsAs, schoolTodayOf } from '../../core/database/school-day';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

/** Minutes after the class time's start before the first two alerts fire. */
export const ALERT_GRACE = { notPickedUpMinutes: 15, notEnteredMinutes: 30 } as const;

/** An alert newly raised by a scan, with whom to tell: the head teacher's mobile and the student's guardians. */
export type RaisedAlert = Pick<Selectable<DB['flow_alerts']>, 'id' | 'student_id' | 'school_id' | 'kind'> & {
  school_name: Selectable<DB['schools']>['name'];
  class_name: Selectable<DB['care_classes']>['name'];
  student_name: Selectable<DB['students']>['name'];
  head_mobile: Selectable<DB['users']>['mobile'] | null;
  guardians: Array<Selectable<DB['student_guardians']>['user_id']>;
};

/**
 * Conditions at `at`, for every running class whose time slot runs today (the weekday the school calendar runs today
 * as: none on a holiday, works_as on a make-up day, else the school's weekday), from the projection (student_days; no
 * row means the child has not been seen today):
 * - not_picked_up: needs the shuttle, not picked up, 15 min after the start;
 * - not_entered: not in the centre 30 min after the start, and before the end;
 * - absent: never came and no approved leave, after the end;
 * - after_closing: still in the centre after the end.
 * Columns: school_id, school_name, local_now, day, class_id, class_name, head_teacher_id, start_time, end_time,
 * student_id, student_name, needs_shuttle, kind.
 */
const candidates = (at: Date) => sql`
  with local as (
    select s.id as school_id, s.name as school_name, (${at}::timestamptz at time zone s.timezone) as local_now,
           ${runsAs(sql.ref('s.id'), sql`(${at}::timestamptz at time zone s.timezone)::date`)} as runs_as
      from schools s where s.status = 1
  ), members as (
    select l.school_id, l.school_name, l.local_now, l.local_now::date as day, c.id as class_id, c.name as class_name,
           c.head_teacher_id, ct.start_time, ct.end_time, st.id as student_id, st.name as student_name, st.needs_shuttle
      from local l
      join care_classes c on c.school_id = l.school_id and c.deleted_at is null and c.status = 1
      join class_times ct on ct.id = c.class_time_id and ct.deleted_at is null
                          and l.runs_as::smallint = any(ct.weekdays)
      join care_class_students cs on cs.class_id = c.id
      join students st on st.id = cs.student_id and st.status = 1
  )
  select m.*, k.kind
    from members m
    left join student_days d on d.student_id = m.student_id and d.day = m.day
    cross join lateral (values
      ('not_picked_up', m.needs_shuttle and coalesce(d.state, 'expected') = 'expected' and not coalesce(d.on_leave, false)
                        and m.local_now::time > m.start_time + make_interval(mins => ${ALERT_GRACE.notPickedUpMinutes})),
      ('not_entered', coalesce(d.state, 'expected') in ('expected', 'picked_up') and not coalesce(d.on_leave, false)
                      and m.local_now::time > m.start_time + make_interval(mins => ${ALERT_GRACE.notEnteredMinutes})
                      and m.local_now::time <= m.end_time),
      ('absent', coalesce(d.state, 'expected') = 'expected' and not coalesce(d.on_leave, false) and m.local_now::time > m.end_time),
      ('after_closing', coalesce(d.state, 'expected') = 'in_centre' and m.local_now::time > m.end_time)
    ) as k(kind, holds)
   where k.holds`;

/** Which alerts a board lists: the school's of a day (today by default), open ones only, a head teacher's classes. */
export interface AlertFilter {
  schoolId: number;
  day: string | null;
  openOnly: boolean;
  headTeacherId: number | null;
}

/** The SQL of the alerts module (issue 38). */
@Injectable()
export class AlertsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Raises at `at` what holds and was not raised yet today (once: a unique key per student, day and kind); answers the
   * newly raised, each with its head teacher's mobile (a working one) and its student's guardians (primary first).
   */
  async raise(on: Queryable, at: Date): Promise<RaisedAlert[]> {
    const r = await sql<RaisedAlert>`
      with current as (${candidates(at)}),
        inserted as (
          insert into flow_alerts (school_id, student_id, day, kind, raised_at)
          select school_id, student_id, day, kind, ${at} from current
          on conflict (student_id, day, kind) do nothing
          returning id, student_id, kind
        )
        select i.id::int, c.student_id, c.school_id, c.school_name, c.class_name, c.student_name, c.kind,
               (select mobile from users where id = c.head_teacher_id and job_status = 1) as head_mobile,
               coalesce((select array_agg(g.user_id order by g.is_primary desc, g.created_at) from student_guardians g
                          where g.student_id = c.student_id), '{}') as guardians
          from inserted i join current c on c.student_id = i.student_id and c.kind = i.kind`.execute(kdb(on));
    return r.rows;
  }

  /** Clears at `at` the open alerts of each school's today that no longer hold (the event-raised `kept` kinds stay). */
  async clear(on: Queryable, at: Date, kept: readonly AlertKind[]): Promise<number> {
    const r = await sql`
      with current as (${candidates(at)})
      update flow_alerts a set cleared_at = ${at}
       where a.cleared_at is null
         and a.day = (select ((${at}::timestamptz) at time zone s.timezone)::date from schools s where s.id = a.school_id)
         and a.kind <> all(${[...kept]}::text[])
         and not exists (select 1 from current c where c.student_id = a.student_id and c.kind = a.kind)`.execute(kdb(on));
    return Number(r.numAffectedRows ?? 0);
  }

  /**
   * Raises an event alert `kind` for these students of the school on the school's today: one flow_alerts row per
   * student, day and kind (a second the same day keeps the first). Answers the rows newly raised.
   */
  raiseEvent(schoolId: number, studentIds: readonly number[], kind: AlertKind, on: Queryable = this.db) {
    return kdb(on)
      .insertInto('flow_alerts')
      .columns(['school_id', 'student_id', 'day', 'kind'])
      .expression((eb) =>
        eb
          .selectFrom('students as s')
          .select([sql.val(schoolId).as('school_id'), 's.id', schoolTodayOf(schoolId).as('day'), sql.val(kind).as('kind')])
          .where('s.school_id', '=', schoolId)
          .where('s.id', '=', anyOf(studentIds)),
      )
      .onConflict((oc) => oc.columns(['student_id', 'day', 'kind']).doNothing())
      .returning(['id', 'student_id'])
      .execute();
  }

  /**
   * Whom to tell of an event alert of these students of the school: each student with their (first) class's name, the
   * school's name, the class's head teacher's mobile (a working one) and the student's guardians (primary first).
   */
  eventRecipients(schoolId: number, studentIds: readonly number[]) {
    return kdb(this.db)
      .selectFrom('students as s')
      .innerJoin('schools as sc', 'sc.id', 's.school_id')
      .leftJoin('care_class_students as cs', 'cs.student_id', 's.id')
      .leftJoin('care_classes as c', 'c.id', 'cs.class_id')
      .select((eb) => [
        's.id as student_id',
        's.name as student',
        eb.fn.coalesce('c.name', sql.lit('')).as('class_name'),
        'sc.name as school',
        eb
          .selectFrom('users as u')
          .select('u.mobile')
          .whereRef('u.id', '=', 'c.head_teacher_id')
          .where('u.job_status', '=', JobStatus.OnJob)
          .as('head_mobile'),
        sql<number[]>`coalesce((select array_agg(g.user_id order by g.is_primary desc, g.created_at) from student_guardians g
                                 where g.student_id = ${eb.ref('s.id')}), '{}')`.as('guardians'),
      ])
      .where('s.school_id', '=', schoolId)
      .where('s.id', '=', anyOf(studentIds))
      .execute();
  }

  /** A page of the alerts `f` selects (one row per alert and class of its student): open ones first, newest first. */
  page(f: AlertFilter, q: PageQuery): Promise<Page<AlertRow>> {
    const total = visible(this.db, f).select((eb) => eb.fn.countAll<number>().as('total'));
    const list = listed(this.db, f)
      .orderBy(sql`a.cleared_at is not null`)
      .orderBy('a.raised_at', 'desc')
      .orderBy('a.id', 'desc');
    return pageRows(this.db, total, list, q);
  }
}

/** The alerts `f` selects, each with its student and the student's class. */
const visible = (on: Queryable, f: AlertFilter) => {
  const head = f.headTeacherId;
  return kdb(on)
    .selectFrom('flow_alerts as a')
    .innerJoin('students as st', 'st.id', 'a.student_id')
    .innerJoin('care_class_students as cs', 'cs.student_id', 'a.student_id')
    .innerJoin('care_classes as c', 'c.id', 'cs.class_id')
    .where('a.school_id', '=', f.schoolId)
    .where('a.day', '=', f.day === null ? schoolTodayOf(f.schoolId) : sql<string>`${f.day}::date`)
    .$if(f.openOnly, (w) => w.where('a.cleared_at', 'is', null))
    .$if(head !== null, (w) => w.where('c.head_teacher_id', '=', head));
};

/** An alert as a board lists it (answer FlowAlert). */
const listed = (on: Queryable, f: AlertFilter) =>
  visible(on, f).select((eb) => [
    'a.id',
    'a.student_id',
    'st.name as student_name',
    'c.id as class_id',
    'c.name as class_name',
    sql<string>`to_char(${eb.ref('a.day')}, 'YYYY-MM-DD')`.as('day'),
    'a.kind',
    'a.raised_at',
    'a.cleared_at',
  ]);

export type AlertRow = InferResult<ReturnType<typeof listed>>[number];
