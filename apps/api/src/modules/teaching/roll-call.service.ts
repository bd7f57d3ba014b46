import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, type RollCallAnswer, type RollCallCount, type RollCallCountQuery, type RollCallQuery, type SaveRollCallInput } from '@wantuo/shared';
import { DataSource } from 'typeorm';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { schoolToday, type Queryable } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import type { Sendable } from '../../core/http/sendable';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { markHeld, outsiders, rollCallCounts, rollCallSession, rollCallStudents, saveRollCalls } from './teaching-roll-call.repository';
import { TeachingSessionsService } from './sessions.service';

const PERIOD_HEADER = { day: '日期', week: '周（周一）', month: '月份' } as const;
const KIND_NAME = { teaching: '兴趣班', tutoring: '课业辅导' } as const;

/**
 * Roll call of a session (teaching or tutoring), by its teacher (or the admin) from the phone: the class's students with their status; an
 * approved leave (leave_requests status 1 covering the day) pre-fills 'leave' until the roll call is saved.
 */
@Injectable()
export class RollCallService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: TeachingSessionsService,
  ) {}

  /** The session's class name, day and teacher: the session's teacher or the school's admin only. */
  private async access(db: Queryable, user: SchoolCaller, sessionId: number, lock: boolean) {
    const s = await rollCallSession(db, user.schoolId, sessionId, user.role === Role.Admin ? null : user.id, lock);
    if (!s) throw new AppError('teaching.session_not_found');
    return s;
  }

  async get(user: SchoolCaller, q: RollCallQuery): Promise<Sendable<RollCallAnswer>> {
    const s = await this.access(this.db, user, q.session_id, false);
    // the class's students now, and those who left it after a roll call of this session
    const students = await rollCallStudents(this.db, s.kind, s.id, s.class_id, s.day);
    for (const st of students) if (!st.saved && st.on_leave) st.status = 'leave';
    return { session: await this.sessions.one(this.db, user, s.id), class_name: s.class_name, students };
  }

  /** Saves the statuses of several students at once (from the session's day on); the session becomes held. */
  async save(user: SchoolCaller, input: SaveRollCallInput): Promise<Sendable<RollCallAnswer>> {
    const school = user.schoolId;
    await this.db.transaction(async (em) => {
      const s = await this.access(em, user, input.session_id, true);
      if (s.state === 'cancelled') throw new AppError('teaching.roll_call_cancelled');
      if (s.day > (await schoolToday(em, school))) throw new AppError('teaching.roll_call_future');
      const ids = input.entries.map((e) => e.student_id);
      const out = await outsiders(em, s.kind, ids, s.class_id, school);
      if (out.length) throw new AppError('teaching.roll_call_not_member', { names: out.map((o) => o.name ?? `#${o.id}`).join('、') });
      await saveRollCalls(em, { sessionId: s.id, schoolId: school, by: user.id, studentIds: ids, statuses: input.entries.map((e) => e.status) });
      if (s.state === 'planned') await markHeld(em, s.id);
    });
    return this.get(user, { session_id: input.session_id });
  }

  /**
   * The data centre's roll-call counts: per period (the data centre's day, week or month of the session's day) and
   * kind, the sessions with a roll call and each status saved; the admin every session of the school, a teacher or
   * head teacher the sessions they teach. One statement over (school, day).
   */
  async counts(user: SchoolCaller, q: RollCallCountQuery): Promise<{ list: RollCallCount[] }> {
    const list = await rollCallCounts(this.db, {
      schoolId: user.schoolId,
      from: q.date_from,
      to: q.date_to,
      group: q.group ?? 'day',
      kind: q.kind ?? null,
      teacher: user.role === Role.Admin ? null : user.id,
    });
    return { list };
  }

  /** The counts of rollCallCount as an .xlsx: one row per period and kind, Chinese headers, a total row. */
  async countsExport(user: SchoolCaller, q: RollCallCountQuery): Promise<FileAnswer> {
    const { list } = await this.counts(user, q);
    return xlsxFile(`课堂考勤-${q.date_from}-${q.date_to}.xlsx`, [
      sheet({
        name: '课堂考勤',
        rows: [...list].reverse(),
        total: true,
        columns: [
          { header: PERIOD_HEADER[q.group ?? 'day'], value: (r) => r.period, width: 14 },
          { header: '类型', value: (r) => KIND_NAME[r.kind], width: 12 },
          { header: '点名课次', value: (r) => r.sessions, width: 10, sum: true },
          { header: '点名人次', value: (r) => r.total, width: 10, sum: true },
          { header: '出勤', value: (r) => r.present, width: 8, sum: true },
          { header: '迟到', value: (r) => r.late, width: 8, sum: true },
          { header: '缺勤', value: (r) => r.absent, width: 8, sum: true },
          { header: '请假', value: (r) => r.leave, width: 8, sum: true },
        ],
      }),
    ]);
  }
}
