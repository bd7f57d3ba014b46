import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type AlertKind, type FlowAlert, type Page } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, pageOf, RUNS_AS, SCHOOL_TODAY, totalOf } from '../../core/database/sql-kit';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { SmsTexts } from '../sms/texts.service';
import type { SessionUser } from '../../core/http/request-context';

/** Minutes after the class time's start before the first two alerts fire. */
export const ALERT_GRACE = { notPickedUpMinutes: 15, notEnteredMinutes: 30 } as const;

/** What each flow exception (ALERT_KINDS, @wantuo/shared) says. */
export const ALERT_WHAT: Record<AlertKind, string> = {
  not_picked_up: `放学 ${ALERT_GRACE.notPickedUpMinutes} 分钟后仍未被接到`,
  not_entered: `上课 ${ALERT_GRACE.notEnteredMinutes} 分钟后仍未入园`,
  absent: '今天未到园且没有请假',
  after_closing: '晚托结束后仍在园内',
  pickup_unauthorised: '未授权接送尝试',
};

/** The kinds raised by an event rather than a condition (the pick-up module's pickup_unauthorised): the scan neither raises nor clears them. */
export const EVENT_ALERT_KINDS: readonly AlertKind[] = ['pickup_unauthorised'];

/**
 * Raises an event alert for students on the school's today (one flow_alerts row per student, day and kind; a second
 * attempt the same day keeps the first row). $1 school, $2 students, $3 kind. Answers the rows newly raised.
 */
export const RAISE_EVENT_ALERT_SQL = `insert into flow_alerts (school_id, student_id, day, kind)
  select $1, s.id, d.today, $3 from students s cross join ${SCHOOL_TODAY} d
   where s.school_id = $1 and s.id = any($2::int[])
  on conflict (student_id, day, kind) do nothing
  returning id, student_id`;

/**
 * Conditions, for every running class whose time slot runs today (the weekday the school calendar runs today as: none
 * on a holiday, works_as on a make-up day, else the school's weekday), from the projection
 * (student_days; no row means the child has not been seen today):
 * - not_picked_up: needs the shuttle, not picked up, 15 min after the start;
 * - not_entered: not in the centre 30 min after the start, and before the end;
 * - absent: never came and no approved leave, after the end;
 * - after_closing: still in the centre after the end.
 */
const CANDIDATES = `
  with local as (
    select s.id as school_id, s.name as school_name, ($1::timestamptz at time zone s.timezone) as local_now,
           ${RUNS_AS('s.id', '($1::timestamptz at time zone s.timezone)::date')} as runs_as
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

@Injectable()
export class AlertsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly texts: SmsTexts,
    private readonly messages: GuardianMessages,
  ) {}

  /**
   * One scan at `at` for every school: raise what holds and was not raised yet today (once: a unique key per
   * student, day and kind), clear what no longer holds, and tell each newly raised alert to the head teacher (SMS) and
   * every guardian of the student (GuardianMessages: WeChat, else SMS; held to 07:00 in the quiet hours).
   */
  async scan(at: Date = new Date()): Promise<{ raised: number; cleared: number }> {
    const { raised, cleared } = await this.db.transaction(async (em) => {
      const raised: Array<{
        school_id: number;
        school_name: string;
        class_name: string;
        student_name: string;
        kind: AlertKind;
        id: number;
        student_id: number;
        head_mobile: string | null;
        guardians: number[];
      }> = await em.query(
        `with current as (${CANDIDATES}),
           inserted as (
             insert into flow_alerts (school_id, student_id, day, kind, raised_at)
             select school_id, student_id, day, kind, $1 from current
             on conflict (student_id, day, kind) do nothing
             returning id, student_id, kind
           )
           select i.id::int, c.student_id, c.school_id, c.school_name, c.class_name, c.student_name, c.kind,
                  (select mobile from users where id = c.head_teacher_id and job_status = 1) as head_mobile,
                  coalesce((select array_agg(g.user_id order by g.is_primary desc, g.created_at) from student_guardians g
                             where g.student_id = c.student_id), '{}') as guardians
             from inserted i join current c on c.student_id = i.student_id and c.kind = i.kind`,
        [at],
      );
      const [, cleared]: [unknown, number] = await em.query(
        `with current as (${CANDIDATES})
         update flow_alerts a set cleared_at = $1
          where a.cleared_at is null
            and a.day = (select (($1::timestamptz) at time zone s.timezone)::date from schools s where s.id = a.school_id)
            and a.kind <> all($2::text[])
            and not exists (select 1 from current c where c.student_id = a.student_id and c.kind = a.kind)`,
        [at, EVENT_ALERT_KINDS],
      );
      return { raised, cleared };
    });
    const params = (r: (typeof raised)[number]) => ({
      school: r.school_name,
      student: r.student_name,
      class: r.class_name,
      what: ALERT_WHAT[r.kind],
    });
    // the head teacher by SMS; every guardian of the student by WeChat, else SMS (an alert cannot be turned off)
    await this.texts.queue(
      raised
        .filter((r) => r.head_mobile)
        .map((r) => ({
          school_id: r.school_id,
          mobile: r.head_mobile!,
          kind: 'alert.raised' as const,
          params: params(r),
          key: `alert:${r.id}:head`,
        })),
    );
    await this.messages.send(
      raised.flatMap((r) =>
        r.guardians.map((user_id) => ({
          school_id: r.school_id,
          user_id,
          kind: 'alert.raised' as const,
          params: params(r),
          link: `/parent?student=${r.student_id}`,
          key: `alert:${r.id}:${user_id}`,
        })),
      ),
      { now: at },
    );
    return { raised: raised.length, cleared };
  }

  /** Alerts of a day for the boards: the school for admins, own classes for head teachers; open ones first. */
  async list(user: SessionUser, q: { date?: string; open_only?: boolean; page: number; limit: number }): Promise<Page<FlowAlert>> {
    const rows: Array<FlowAlert & { total: number }> = await this.db.query(
      `with on_day as (select coalesce($2::date, d.today) as day from ${SCHOOL_TODAY} d),
       visible as (
         select a.*, st.name as student_name, c.id as class_id, c.name as class_name
           from flow_alerts a
           join students st on st.id = a.student_id
           join care_class_students cs on cs.student_id = a.student_id
           join care_classes c on c.id = cs.class_id
          where a.school_id = $1 and a.day = (select day from on_day)
            and ($3::boolean is false or a.cleared_at is null)
            and ($4::int is null or c.head_teacher_id = $4)
       )
       select id, student_id, student_name, class_id, class_name, to_char(day, 'YYYY-MM-DD') as day, kind, raised_at, cleared_at,
              count(*) over ()::int as total
         from visible order by cleared_at is not null, raised_at desc, id desc limit $5 offset $6`,
      [user.schoolId, q.date ?? null, q.open_only ?? false, user.role === Role.HeadTeacher ? user.id : null, q.limit, offsetOf(q)],
    );
    return pageOf(
      rows.map(({ total: _, ...r }) => r),
      totalOf(rows),
      q,
    );
  }
}
