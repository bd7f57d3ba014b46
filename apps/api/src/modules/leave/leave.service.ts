import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  addDays,
  LeaveStatus,
  Role,
  type AuditStudentInfoInput,
  type CancelLeaveInput,
  type LeaveDecisionResult,
  type LeaveRequestRow,
  type Page,
  type ParentLeaveListInput,
  type SubmitLeaveInput,
  type TeacherStudentLeaveListInput,
} from '@wantuo/shared';
import { createHash } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { offsetOf, pageOf, SCHOOL_TODAY, schoolToday, totalOf, type PageQuery } from '../../core/database/sql-kit';
import { DomainEvents } from '../../core/events/domain-events';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { GuardianMessages } from '../messages/guardian-messages.service';
import { FlowService } from '../flow/flow.service';
import { RESPONSIBLE } from '../students/students.service';

/** The columns of a leave request (`l` the request, `s` its student, `cc` the care class, `ru`/`rv` requester/reviewer). */
const COLUMNS = `l.id, l.student_id, s.name as student_name, cc.id as class_id, cc.name as class_name,
  l.requested_by, ru.name as requested_by_name, to_char(l.start_day, 'YYYY-MM-DD') as start_day, to_char(l.end_day, 'YYYY-MM-DD') as end_day,
  (l.end_day - l.start_day + 1)::int as days, l.reason, l.status::int as status, l.reviewed_by, rv.name as reviewed_by_name,
  l.review_note, l.reviewed_at, l.version, l.created_at`;

const FROM = `leave_requests l
  join students s on s.id = l.student_id
  left join care_class_students ccs on ccs.student_id = s.id
  left join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
  join users ru on ru.id = l.requested_by
  left join users rv on rv.id = l.reviewed_by`;

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
    private readonly flow: FlowService,
    private readonly messages: GuardianMessages,
    private readonly events: DomainEvents,
  ) {}

  // ---------------------------------------------------------------- teachers

  /** Requests of the students the caller is responsible for, pending first, then newest first. */
  async teacherList(user: SessionUser, q: TeacherStudentLeaveListInput): Promise<Page<LeaveRequestRow>> {
    const where = `l.school_id = $1 and ($2::smallint is null or l.status = $2) and ${RESPONSIBLE('$3')}`;
    return this.page(where, [user.schoolId, q.status ?? null, user.id], q, 'l.status = 0 desc, l.created_at desc, l.id desc');
  }

  async teacherInfo(user: SessionUser, id: number): Promise<LeaveRequestRow> {
    const [row]: LeaveRequestRow[] = await this.db.query(
      `select ${COLUMNS} from ${FROM} where l.id = $1 and l.school_id = $2 and ${RESPONSIBLE('$3')}`,
      [id, user.schoolId, user.id],
    );
    if (!row) throw new AppError('leave.not_found');
    return row;
  }

  // ---------------------------------------------------------------- the admin (who decides any request of the school)

  /** adminLeaveList: every request of the school, in the teachers' order (pending first, then newest first). */
  async adminList(user: SessionUser, q: TeacherStudentLeaveListInput): Promise<Page<LeaveRequestRow>> {
    const where = `l.school_id = $1 and ($2::smallint is null or l.status = $2)`;
    return this.page(where, [user.schoolId, q.status ?? null], q, 'l.status = 0 desc, l.created_at desc, l.id desc');
  }

  /** adminLeaveInfo: one request of the school. */
  async adminInfo(user: SessionUser, id: number): Promise<LeaveRequestRow> {
    const row: LeaveRequestRow | undefined = await this.row(this.db.manager, user.schoolId!, id);
    if (!row) throw new AppError('leave.not_found');
    return row;
  }

  /**
   * Approves or rejects a pending request (the head teacher only of an own class's student; the admin any of the
   * school), on the version the reviewer read. Approval marks the days from today on as leave.
   */
  async audit(user: SessionUser, input: AuditStudentInfoInput): Promise<LeaveDecisionResult> {
    const decided = await this.db.transaction(async (em) => {
      const [current]: Array<{ status: number; version: number; head_teacher_id: number | null }> = await em.query(
        `select l.status, l.version, cc.head_teacher_id
           from leave_requests l
           left join care_class_students ccs on ccs.student_id = l.student_id
           left join care_classes cc on cc.id = ccs.class_id and cc.deleted_at is null
          where l.id = $1 and l.school_id = $2
          for update of l`,
        [input.id, user.schoolId],
      );
      if (!current) throw new AppError('leave.not_found');
      if (user.role === Role.HeadTeacher && current.head_teacher_id !== user.id) throw new AppError('leave.not_own_class');
      if (current.version !== input.version) throw new AppError('error.conflict');
      if (current.status !== LeaveStatus.Pending) throw new AppError('leave.not_pending');
      await em.query(
        `update leave_requests set status = $3, review_note = $4, reviewed_by = $5, reviewed_at = now(), version = version + 1
          where id = $1 and school_id = $2`,
        [input.id, user.schoolId, input.approve ? LeaveStatus.Approved : LeaveStatus.Rejected, input.note || null, user.id],
      );
      return this.row(em, user.schoolId!, input.id);
    });
    let days: LeaveDecisionResult['days'] = [];
    if (input.approve) {
      days = await this.mark(user, decided, 'markLeave');
      // the parent may have cancelled while the days were being marked: then the days are unmarked again
      const [now]: Array<{ status: number }> = await this.db.query(`select status from leave_requests where id = $1`, [decided.id]);
      if (now?.status !== LeaveStatus.Approved) await this.mark(user, decided, 'cancelLeave');
      this.changed(user.schoolId!, decided, now?.status === LeaveStatus.Approved);
    }
    await this.notify(user.schoolId!, decided);
    return { leave: decided, days };
  }

  // ---------------------------------------------------------------- parents

  async submit(user: SessionUser, input: SubmitLeaveInput): Promise<LeaveRequestRow> {
    return this.db.transaction(async (em) => {
      // one request at a time per student: the overlap check and the insert do not race
      await em.query(`select pg_advisory_xact_lock(hashtextextended('leave:' || $1, 0))`, [input.student_id]);
      const [student]: Array<{ today: string }> = await em.query(
        `select to_char(d.today, 'YYYY-MM-DD') as today
           from students s cross join ${SCHOOL_TODAY} d
          where s.school_id = $1 and s.id = $2 and s.status = 1
            and exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $3)`,
        [user.schoolId, input.student_id, user.id],
      );
      if (!student) throw new AppError('leave.student_not_found');
      if (input.start_day < student.today) throw new AppError('leave.start_past');
      const [overlap]: unknown[] = await em.query(
        `select 1 from leave_requests where student_id = $1 and status in (0, 1) and start_day <= $3 and end_day >= $2 limit 1`,
        [input.student_id, input.start_day, input.end_day],
      );
      if (overlap) throw new AppError('leave.overlap');
      const [{ id }]: Array<{ id: number }> = await em.query(
        `insert into leave_requests (school_id, student_id, requested_by, start_day, end_day, reason)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [user.schoolId, input.student_id, user.id, input.start_day, input.end_day, input.reason],
      );
      return this.row(em, user.schoolId!, id);
    });
  }

  /** The parent's own request: pending or approved becomes cancelled; approved days from today on are unmarked. */
  async cancel(user: SessionUser, input: CancelLeaveInput): Promise<LeaveDecisionResult> {
    let wasApproved = false;
    const cancelled = await this.db.transaction(async (em) => {
      const [current]: Array<{ status: number; version: number }> = await em.query(
        `select status, version from leave_requests where id = $1 and school_id = $2 and requested_by = $3 for update`,
        [input.id, user.schoolId, user.id],
      );
      if (!current) throw new AppError('leave.not_found');
      if (current.version !== input.version) throw new AppError('error.conflict');
      if (current.status !== LeaveStatus.Pending && current.status !== LeaveStatus.Approved) throw new AppError('leave.not_cancellable');
      wasApproved = current.status === LeaveStatus.Approved;
      await em.query(`update leave_requests set status = 3, version = version + 1 where id = $1 and school_id = $2`, [input.id, user.schoolId]);
      return this.row(em, user.schoolId!, input.id);
    });
    const days = wasApproved ? await this.mark(user, cancelled, 'cancelLeave') : [];
    if (wasApproved) this.changed(user.schoolId!, cancelled, false);
    return { leave: cancelled, days };
  }

  /** Requests for the parent's own children (whoever of their guardians asked), newest first. */
  async parentList(user: SessionUser, q: ParentLeaveListInput): Promise<Page<LeaveRequestRow>> {
    const where = `l.school_id = $1 and ($2::int is null or l.student_id = $2)
      and exists (select 1 from student_guardians g where g.student_id = l.student_id and g.user_id = $3)`;
    return this.page(where, [user.schoolId, q.student_id ?? null, user.id], q, 'l.created_at desc, l.id desc');
  }

  // ---------------------------------------------------------------- helpers

  /**
   * After the commit of an approval or of an approved request's cancellation: what hangs on leave days (dinner
   * bookings) follows through the 'leave.changed' domain event; this module knows nothing of them.
   */
  private changed(schoolId: number, leave: LeaveRequestRow, approved: boolean): void {
    this.events.emit('leave.changed', {
      school_id: schoolId,
      leave_id: leave.id,
      student_id: leave.student_id,
      start_day: leave.start_day,
      end_day: leave.end_day,
      approved,
    });
  }

  private async page(where: string, params: unknown[], q: PageQuery, order: string): Promise<Page<LeaveRequestRow>> {
    const n = params.length + 1;
    const rows: Array<LeaveRequestRow & { total: number }> = await this.db.query(
      `select c.total, p.*
         from (select count(*)::int as total from leave_requests l join students s on s.id = l.student_id where ${where}) c
         left join lateral (
           select ${COLUMNS} from ${FROM} where ${where} order by ${order} limit $${n} offset $${n + 1}
         ) p on true`,
      [...params, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as LeaveRequestRow);
    return pageOf(list, totalOf(rows), q);
  }

  private async row(em: EntityManager, schoolId: number, id: number): Promise<LeaveRequestRow> {
    const [row]: LeaveRequestRow[] = await em.query(`select ${COLUMNS} from ${FROM} where l.id = $1 and l.school_id = $2`, [id, schoolId]);
    return row;
  }

  /**
   * Marks (or unmarks) the request's days from today (the school's date) on, one flow command per day, as a
   * platform command (no responsibility check). Each day has a deterministic event id: a retry writes nothing twice.
   */
  private async mark(user: SessionUser, leave: LeaveRequestRow, type: 'markLeave' | 'cancelLeave'): Promise<LeaveDecisionResult['days']> {
    const today = await schoolToday(this.db, user.schoolId!);
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
  private async notify(schoolId: number, leave: LeaveRequestRow): Promise<void> {
    const [to]: Array<{ user_id: number | null }> = await this.db.query(
      `select coalesce(
         (select id from users where id = $1 and role = $3 and deleted_at is null),
         (select u.id from student_guardians g join users u on u.id = g.user_id
           where g.student_id = $2 and u.deleted_at is null order by g.is_primary desc, g.user_id limit 1)
       ) as user_id`,
      [leave.requested_by, leave.student_id, Role.Parent],
    );
    if (!to?.user_id) return;
    await this.messages.send([
      {
        school_id: schoolId,
        user_id: to.user_id,
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
