import { Injectable } from '@nestjs/common';
import {
  boardState,
  FLOW_STEPS,
  replay,
  type ClockingInInfoQuery,
  type ClockingInListQuery,
  type FlowPayload,
  type StudentClockingInCountQuery,
  type StudentDayInfo,
} from '@wantuo/shared';
import { AccessRepository } from '../../core/access/access';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { FlowReadRepository } from './flow-read.repository';
import { toFlowEvent } from './flow-store';

/** The day read actions of the flow: one student's timeline, the attendance list, the counts per class and day. */
@Injectable()
export class FlowReadService {
  constructor(
    private readonly repo: FlowReadRepository,
    private readonly access: AccessRepository,
  ) {}

  /**
   * One student-day with its full timeline (voids included): an admin for any student of the school, a head
   * teacher for the students of their classes, a parent for own children.
   */
  async info(user: SchoolCaller, q: ClockingInInfoQuery): Promise<StudentDayInfo> {
    const student = await this.repo.visibleStudent(user, q.student_id);
    if (!student) throw new AppError('flow.student_not_found');
    return this.dayOf(user.schoolId, student, q.date);
  }

  /** The day of a student the caller may see (checked by the caller). */
  async dayOf(schoolId: number, student: { id: number; name: string; class_id: number | null }, date: string): Promise<StudentDayInfo> {
    const rows = await this.repo.dayEvents(schoolId, student.id, date);
    const events = rows.map((r) => toFlowEvent({ ...r, payload: r.payload as FlowPayload }));
    const day = replay(events);
    const names = new Map(rows.map((r) => [r.actor, r.actor_name]));
    const voided = new Set(events.filter((e) => e.type === 'event.voided').map((e) => e.payload.voided_event_id));
    let leftWith: StudentDayInfo['left_with'] = null;
    if (day.left_with !== null) {
      const p = await this.repo.pickupPerson(schoolId, day.left_with);
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
  private async checkClass(user: SchoolCaller, classId: number | undefined): Promise<void> {
    if (classId) await this.access.requireCareClasses(user, [classId], new AppError('care.class_not_found'));
  }

  /**
   * Student-days of a date range, newest day first, by class and name; rows and total in one query; the page's
   * departures carry their verified pick-up person or manual reason (DEPARTURE_JOIN on the page's rows only).
   */
  async list(user: SchoolCaller, q: ClockingInListQuery) {
    await this.checkClass(user, q.class_id);
    return this.repo.list(
      user,
      { schoolId: user.schoolId, from: q.date_from, to: q.date_to, classId: q.class_id ?? null, state: q.state ?? null },
      q,
    );
  }

  /** Per day and class: how many students are in each board state. */
  async counts(user: SchoolCaller, q: StudentClockingInCountQuery) {
    await this.checkClass(user, q.class_id);
    const list = await this.repo.counts(
      user,
      { schoolId: user.schoolId, from: q.date_from, to: q.date_to, classId: q.class_id ?? null },
      q.group ?? 'day',
    );
    return { list };
  }

  /** The counts of studentClockingInCount as an .xlsx: one row per period and class, Chinese headers, a total row. */
  async countsExport(user: SchoolCaller, q: StudentClockingInCountQuery): Promise<FileAnswer> {
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
