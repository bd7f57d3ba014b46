import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  addDays,
  LeaveStatus,
  Role,
  type AuditStudentInfoInput,
  type CancelLeaveInput,
  type LeaveDecisionResult,
  type Page,
  type ParentLeaveListInput,
  type SubmitLeaveInput,
  type TeacherStudentLeaveListInput,
} from '@wantuo/shared';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { schoolToday } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { FlowService } from '../flow/flow.service';
import { LeaveRepository, type LeaveRow } from './leave.repository';

/** Every day from `from` to `to` (YYYY-MM-DD), both included. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** A deterministic UUID (v5 layout, sha1) for a name: the same leave day always gets the same event id. */
export function uuidFor(name: string): string {
  const h = createHash('sha1').update(`wantuo-leave:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * Leave requests: a parent asks for days off for an own child, the head teacher of the child's class (or the admin)
 * approves or rejects; approved days from today on are marked on the student-day stream (FlowService, markLeave),
 * a cancelled approved request unmarks its days from today on; the parent hears the decision by SMS.
 */
@Injectable()
export class LeaveService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: LeaveRepository,
    private readonly flow: FlowService,
    private readonly messages: GuardianMessages,
    private readonly events: DomainEvents,
  ) {}

  // ---------------------------------------------------------------- teachers

  /** Requests of the students the caller is responsible for, pending first, then newest first. */
  async teacherList(user: SchoolCaller, q: TeacherStudentLeaveListInput): Promise<Page<LeaveRow>> {
    return this.repo.page({ schoolId: user.schoolId, status: q.status, responsible: user.id }, q, 'pending_first');
  }

  async teacherInfo(user: SchoolCaller, id: number): Promise<LeaveRow> {
    const row = await this.repo.row(this.db, user.schoolId, id, user.id);
    if (!row) throw new AppError('leave.not_found');
    return row;
  }

  // ---------------------------------------------------------------- the admin (who decides any request of the school)

  /** adminLeaveList: every request of the school, in the teachers' order (pending first, then newest first). */
  async adminList(user: SchoolCaller, q: TeacherStudentLeaveListInput): Promise<Page<LeaveRow>> {
    return this.repo.page({ schoolId: user.schoolId, status: q.status }, q, 'pending_first');
  }

  /** adminLeaveInfo: one request of the school. */
  async adminInfo(user: SchoolCaller, id: number): Promise<LeaveRow> {
    const row = await this.repo.row(this.db, user.schoolId, id);
    if (!row) throw new AppError('leave.not_found');
    return row;
  }

  /**
   * Approves or rejects a pending request (the head teacher only of an own class's student; the admin any of the
   * school), on the version the reviewer read. Approval marks the days from today on as leave.
   */
  async audit(user: SchoolCaller, input: AuditStudentInfoInput): Promise<Sendable<LeaveDecisionResult>> {
    const decided = await this.db.transaction(async (em) => {
      const current = await this.repo.forDecision(em, user.schoolId, input.id);
      if (!current) throw new AppError('leave.not_found');
      if (user.role === Role.HeadTeacher && current.head_teacher_id !== user.id) throw new AppError('leave.not_own_class');
      if (current.version !== input.version) throw new AppError('error.conflict');
      if (current.status !== LeaveStatus.Pending) throw new AppError('leave.not_pending');
      await this.repo.decide(em, user.schoolId, input.id, input.approve ? LeaveStatus.Approved : LeaveStatus.Rejected, input.note || null, user.id);
      return (await this.repo.row(em, user.schoolId, input.id))!;
    });
    let days: LeaveDecisionResult['days'] = [];
    if (input.approve) {
      days = await this.mark(user, decided, 'markLeave');
      // the parent may have cancelled while the days were being marked: then the days are unmarked again
      const now = await this.repo.statusOf(decided.id);
      if (now !== LeaveStatus.Approved) await this.mark(user, decided, 'cancelLeave');
      this.changed(user.schoolId, decided, now === LeaveStatus.Approved);
    }
    await this.notify(user.schoolId, decided);
    return { leave: decided, days };
  }

  // ---------------------------------------------------------------- parents

  async submit(user: SchoolCaller, input: SubmitLeaveInput): Promise<LeaveRow> {
    return this.db.transaction(async (em) => {
      // one request at a time per student: the overlap check and the insert do not race
      await this.repo.lockStudent(em, input.student_id);
      const today = await this.repo.guardiansActiveChild(em, user.schoolId, input.student_id, user.id);
      if (!today) throw new AppError('leave.student_not_found');
      if (input.start_day < today) throw new AppError('leave.start_past');
      if (await this.repo.overlaps(em, input.student_id, input.start_day, input.end_day)) throw new AppError('leave.overlap');
      const id = await this.repo.insert(em, {
        schoolId: user.schoolId,
        studentId: input.student_id,
        requestedBy: user.id,
        start: input.start_day,
        end: input.end_day,
        reason: input.reason,
      });
      return (await this.repo.row(em, user.schoolId, id))!;
    });
  }

  /** The parent's own request: pending or approved becomes cancelled; approved days from today on are unmarked. */
  async cancel(user: SchoolCaller, input: CancelLeaveInput): Promise<Sendable<LeaveDecisionResult>> {
    let wasApproved = false;
    const cancelled = await this.db.transaction(async (em) => {
      const current = await this.repo.forCancel(em, user.schoolId, input.id, user.id);
      if (!current) throw new AppError('leave.not_found');
      if (current.version !== input.version) throw new AppError('error.conflict');
      if (current.status !== LeaveStatus.Pending && current.status !== LeaveStatus.Approved) throw new AppError('leave.not_cancellable');
      wasApproved = current.status === LeaveStatus.Approved;
      await this.repo.cancel(em, user.schoolId, input.id);
      return (await this.repo.row(em, user.schoolId, input.id))!;
    });
    const days = wasApproved ? await this.mark(user, cancelled, 'cancelLeave') : [];
    if (wasApproved) this.changed(user.schoolId, cancelled, false);
    return { leave: cancelled, days };
  }

  /** Requests for the parent's own children (whoever of their guardians asked), newest first. */
  async parentList(user: SchoolCaller, q: ParentLeaveListInput): Promise<Page<LeaveRow>> {
    return this.repo.page({ schoolId: user.schoolId, studentId: q.student_id, guardian: user.id }, q, 'newest');
  }

  // ---------------------------------------------------------------- helpers

  /**
   * After the commit of an approval or of an approved request's cancellation: what hangs on leave days (dinner
   * bookings) follows through the 'leave.changed' domain event; this module knows nothing of them.
   */
  private changed(schoolId: number, leave: LeaveRow, approved: boolean): void {
    this.events.emit('leave.changed', {
      school_id: schoolId,
      leave_id: leave.id,
      student_id: leave.student_id,
      start_day: leave.start_day,
      end_day: leave.end_day,
      approved,
    });
  }

  /**
   * Marks (or unmarks) the request's days from today (the school's date) on, one flow command per day, as a
   * platform command (no responsibility check). Each day has a deterministic event id: a retry writes nothing twice.
   */
  private async mark(user: SchoolCaller, leave: LeaveRow, type: 'markLeave' | 'cancelLeave'): Promise<LeaveDecisionResult['days']> {
    const today = await schoolToday(this.db, user.schoolId);
    const from = leave.start_day > today ? leave.start_day : today;
    const out: LeaveDecisionResult['days'] = [];
    for (const day of daysFrom(from, leave.end_day)) {
      const run = () =>
        this.flow.command(
          user,
          [leave.student_id],
          { type, leave_id: leave.id },
          {
            day,
            system: true,
            eventId: uuidFor(`${leave.id}:${type}:${leave.version}:${day}`),
          },
        );
      // a refusal (already on leave / not on leave) is final; a lost race with a teacher's step is tried once more
      let r = (await run()).results[0];
      if (r && !r.ok) r = (await run()).results[0];
      out.push(r?.ok ? { day, ok: true } : { day, ok: false, error: r?.error ?? 'flow.stale' });
    }
    return out;
  }

  /**
   * Tells the requester (a guardian; else the primary guardian) the decision: WeChat, else SMS (GuardianMessages),
   * once per decision (keyed by the request's version).
   */
  private async notify(schoolId: number, leave: LeaveRow): Promise<void> {
    const to = await this.repo.recipient(leave.requested_by, leave.student_id);
    if (!to) return;
    await this.messages.send([
      {
        school_id: schoolId,
        user_id: to,
        kind: 'leave.reviewed',
        params: {
          student: leave.student_name,
          start_day: leave.start_day,
          end_day: leave.end_day,
          result: leave.status === LeaveStatus.Approved ? '已批准' : '未通过',
          note: leave.review_note ?? '',
        },
        link: `/parent?student=${leave.student_id}`,
        key: `leave:${leave.id}:${leave.version}`,
      },
    ]);
  }
}
