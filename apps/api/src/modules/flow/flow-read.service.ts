import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  boardState,
  DATA_PERIOD_SQL,
  FLOW_STEPS,
  replay,
  Role,
  type BoardState,
  type ClockingInInfoQuery,
  type ClockingInListQuery,
  type FlowPayload,
  type Page,
  type StudentClockingInCountQuery,
  type StudentDayCount,
  type StudentDayInfo,
  type StudentDayRow,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { offsetOf, pageOf, RUNS_AS, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { RESPONSIBLE } from '../students/students.service';
import { DEPARTURE_COLUMNS, DEPARTURE_JOIN, EVENT_COLUMNS, toFlowEvent } from './flow-store';

/** A class the caller sees (`cc` the class): an admin every class, a head teacher the classes they head or hold a duty in. */
const CLASS_VISIBLE = (role: string, me: string) => `(${role}::int = ${Role.Admin}
  or cc.head_teacher_id = ${me}
  or exists (select 1 from duty_assignments d where d.class_id = cc.id and d.teacher_id = ${me}))`;

/**
 * The student-days of a date range ($1 school, $2 from, $3 to): every day a student has a record, and every
 * day a running class meets (its time slot's weekdays; by the school calendar: none on a holiday, a make-up day as
 * the weekday it runs as) for its active students, as 'expected' when they have no record. Columns: day, student_id, class_id, state (board state), the projection's columns as `sd`.
 */
const DAYS_CTE = `
  days as (select g.day, ${RUNS_AS('$1', 'g.day')} as runs_as from (select d::date as day from generate_series($2::date, $3::date, interval '1 day') d) g),
  expected as (
    select days.day, ccs.student_id, ccs.class_id
      from days cross join care_class_students ccs
      join care_classes ec on ec.id = ccs.class_id and ec.deleted_at is null and ec.status = 1
      join students es on es.id = ccs.student_id and es.status = 1
      left join class_times ct on ct.id = ec.class_time_id
     where ccs.school_id = $1 and days.runs_as <> 0 and (ct.id is null or days.runs_as::smallint = any(ct.weekdays))
  ),
  recorded as (select * from student_days where school_id = $1 and day between $2::date and $3::date),
  sdays as (
    select coalesce(r.day, e.day) as day, coalesce(r.student_id, e.student_id) as student_id, coalesce(r.class_id, e.class_id) as class_id,
           case when r.on_leave and r.state = 'expected' then 'on_leave' else coalesce(r.state, 'expected') end as state,
           coalesce(r.on_leave, false) as on_leave,
           r.picked_up_at, r.entered_at, r.dinner_at, r.tutor_started_at, r.tutor_ended_at, r.left_at, r.left_with, coalesce(r.version, 0) as version
      from expected e full join recorded r on r.student_id = e.student_id and r.day = e.day
  )`;

/** The day read actions of the flow: one student's timeline, the attendance list, the counts per class and day. */
@Injectable()
export class FlowReadService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One student-day with its full timeline (voids included): an admin for any student of the school, a head
   * teacher for the students of their classes, a parent for own children.
   */
  async info(user: SessionUser, q: ClockingInInfoQuery): Promise<StudentDayInfo> {
    const [student]: Array<{ id: number; name: string; class_id: number | null }> = await this.db.query(
      `select s.id, s.name, ccs.class_id from students s left join care_class_students ccs on ccs.student_id = s.id
        where s.id = $1 and s.school_id = $2
          and ($3::int = ${Role.Admin}
               or ($3::int = ${Role.HeadTeacher} and ${RESPONSIBLE('$4')})
               or ($3::int = ${Role.Parent} and exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $4)))`,
      [q.student_id, user.schoolId, user.role, user.id],
    );
    if (!student) throw new AppError('flow.student_not_found');
    return this.dayOf(user.schoolId!, student, q.date);
  }

  /** The day of a student the caller may see (checked by the caller). */
  async dayOf(schoolId: number, student: { id: number; name: string; class_id: number | null }, date: string): Promise<StudentDayInfo> {
    const rows: Array<Parameters<typeof toFlowEvent>[0] & { position: string; actor_name: string | null; class_id: number | null }> =
      await this.db.query(
        `select ${EVENT_COLUMNS}, e.global_position::text as position, u.name as actor_name, e.class_id
         from flow_events e left join users u on u.id = e.actor_id
        where e.student_id = $1 and e.day = $2 and e.school_id = $3
        order by e.version`,
        [student.id, date, schoolId],
      );
    const events = rows.map(toFlowEvent);
    const day = replay(events);
    const names = new Map(rows.map((r) => [r.actor, r.actor_name]));
    const voided = new Set(events.filter((e) => e.type === 'event.voided').map((e) => e.payload.voided_event_id));
    let leftWith: StudentDayInfo['left_with'] = null;
    if (day.left_with !== null) {
      const [p]: Array<{ id: number; name: string; relation: string }> = await this.db.query(
        `select id, name, relation from pickup_people where id = $1 and school_id = $2`,
        [day.left_with, schoolId],
      );
      leftWith = p ?? null;
    }
    const steps: StudentDayInfo['steps'] = {};
    for (const s of FLOW_STEPS) {
      const r = day.steps[s];
      if (r) steps[s] = { at: r.at, by: r.by, by_name: names.get(r.by) ?? null, event_id: r.event_id };
    }
    return {
      student_id: student.id,
      student_name: student.name,
      date,
      class_id: rows.length ? rows[rows.length - 1].class_id : student.class_id,
      state: boardState(day),
      on_leave: day.on_leave,
      steps,
      left_with: leftWith,
      version: day.version,
      events: rows.map((r, i) => ({
        position: Number(r.position),
        event_id: events[i].event_id,
        type: events[i].type,
        at: events[i].at,
        actor: r.actor,
        actor_name: r.actor_name,
        payload: r.payload as FlowPayload,
        voided: voided.has(events[i].event_id),
      })),
    };
  }

  /** Checks a class filter: it must be a class of the school the caller sees. */
  private async checkClass(user: SessionUser, classId: number | undefined): Promise<void> {
    if (!classId) return;
    const [row]: unknown[] = await this.db.query(
      `select 1 from care_classes cc where cc.id = $1 and cc.school_id = $2 and cc.deleted_at is null and ${CLASS_VISIBLE('$3', '$4')}`,
      [classId, user.schoolId, user.role, user.id],
    );
    if (!row) throw new AppError('care.class_not_found');
  }

  /**
   * Student-days of a date range, newest day first, by class and name; rows and total in one query; the page's
   * departures carry their verified pick-up person or manual reason (DEPARTURE_JOIN on the page's rows only).
   */
  async list(user: SessionUser, q: ClockingInListQuery): Promise<Page<StudentDayRow>> {
    await this.checkClass(user, q.class_id);
    const rows: Array<Partial<StudentDayRow> & { total: number }> = await this.db.query(
      `with ${DAYS_CTE},
       f as (
         select sd.*, s.name as student_name, cc.name as class_name, lw.name as left_with_name
           from sdays sd join students s on s.id = sd.student_id
           left join care_classes cc on cc.id = sd.class_id
           left join pickup_people lw on lw.id = sd.left_with
          where ($4::int is null or sd.class_id = $4) and ($5::text is null or sd.state = $5)
            and (sd.class_id is not null and ${CLASS_VISIBLE('$6', '$7')} or $6::int = ${Role.Admin})
       )
       select c.total, p.*
         from (select count(*)::int as total from f) c
         left join lateral (
           select x.*, ${DEPARTURE_COLUMNS('dep')}
             from (
               select day::text || ':' || student_id as id, day::text as day, student_id, student_name, class_id, class_name, state, on_leave,
                      picked_up_at, entered_at, dinner_at, tutor_started_at, tutor_ended_at, left_at, left_with_name, version
                 from f order by f.day desc, f.class_name nulls last, f.student_name, f.student_id
                limit $8 offset $9
             ) x
             ${DEPARTURE_JOIN('dep', 'x')}
            order by x.day desc, x.class_name nulls last, x.student_name, x.student_id
         ) p on true`,
      [user.schoolId, q.date_from, q.date_to, q.class_id ?? null, q.state ?? null, user.role, user.id, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as StudentDayRow);
    return pageOf(list, totalOf(rows), q);
  }

  /** Per day and class: how many students are in each board state. */
  async counts(user: SessionUser, q: StudentClockingInCountQuery): Promise<{ list: StudentDayCount[] }> {
    await this.checkClass(user, q.class_id);
    const states: BoardState[] = ['expected', 'picked_up', 'in_centre', 'left', 'on_leave'];
    const period = DATA_PERIOD_SQL[q.group ?? 'day']('sd.day');
    const list: StudentDayCount[] = await this.db.query(
      `with ${DAYS_CTE}
       select ${period}::text || ':' || coalesce(sd.class_id, 0) as id, ${period}::text as day, sd.class_id, cc.name as class_name,
              count(*)::int as total,
              ${states.map((s) => `count(*) filter (where sd.state = '${s}')::int as ${s}`).join(', ')}
         from sdays sd left join care_classes cc on cc.id = sd.class_id
        where ($4::int is null or sd.class_id = $4)
          and (sd.class_id is not null and ${CLASS_VISIBLE('$5', '$6')} or $5::int = ${Role.Admin})
        group by 2, sd.class_id, cc.name
        order by 2 desc, cc.name nulls last, sd.class_id`,
      [user.schoolId, q.date_from, q.date_to, q.class_id ?? null, user.role, user.id],
    );
    return { list };
  }

  /** The counts of studentClockingInCount as an .xlsx: one row per period and class, Chinese headers, a total row. */
  async countsExport(user: SessionUser, q: StudentClockingInCountQuery): Promise<FileAnswer> {
    const { list } = await this.counts(user, q);
    const group = q.group ?? 'day';
    return xlsxFile(`出勤统计-${q.date_from}-${q.date_to}.xlsx`, [
      sheet({
        name: '出勤统计',
        rows: [...list].reverse(),
        total: true,
        columns: [
          { header: PERIOD_HEADER[group], value: (r) => r.day, width: 14 },
          { header: '班级', value: (r) => r.class_name ?? '未分班', width: 16 },
          { header: '应到人次', value: (r) => r.total, width: 10, sum: true },
          { header: '已离园', value: (r) => r.left, width: 10, sum: true },
          { header: '在园', value: (r) => r.in_centre, width: 10, sum: true },
          { header: '已接到', value: (r) => r.picked_up, width: 10, sum: true },
          { header: '未到', value: (r) => r.expected, width: 10, sum: true },
          { header: '请假', value: (r) => r.on_leave, width: 10, sum: true },
        ],
      }),
    ]);
  }
}

const PERIOD_HEADER = { day: '日期', week: '周（周一）', month: '月份' } as const;
