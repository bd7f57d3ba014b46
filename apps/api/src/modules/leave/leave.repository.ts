import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LeaveStatus, Role, type Page } from '@wantuo/shared';
import { sql, type ExpressionBuilder, type InferResult } from 'kysely';
import { DataSource } from 'typeorm';
import { guardianOf, responsibleFor } from '../../core/access/access';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import { schoolToday, type PageQuery, type Queryable } from '../../core/database/sql-kit';

/** Which requests a list shows: the school's, narrowed by status, to a teacher's students, to a guardian's children. */
export interface LeaveFilter {
  schoolId: number;
  status?: LeaveStatus | null;
  /** only students this teacher is responsible for */
  responsible?: number;
  /** only children of this guardian */
  guardian?: number;
  studentId?: number | null;
}

/** The teachers' order (pending first, then newest first) or the parents' (newest first). */
export type LeaveOrder = 'pending_first' | 'newest';

/** A request with its student, class, requester and reviewer (`l` the request, `s` its student). */
const requests = (on: Queryable) =>
  kdb(on)
    .selectFrom('leave_requests as l')
    .innerJoin('students as s', 's.id', 'l.student_id')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
    .innerJoin('users as ru', 'ru.id', 'l.requested_by')
    .leftJoin('users as rv', 'rv.id', 'l.reviewed_by')
    .select((eb) => [
      'l.id',
      'l.student_id',
      's.name as student_name',
      'cc.id as class_id',
      'cc.name as class_name',
      'l.requested_by',
      'ru.name as requested_by_name',
      'l.start_day',
      'l.end_day',
      sql<number>`(${eb.ref('l.end_day')} - ${eb.ref('l.start_day')} + 1)::int`.as('days'),
      'l.reason',
      'l.status',
      'l.reviewed_by',
      'rv.name as reviewed_by_name',
      'l.review_note',
      'l.reviewed_at',
      'l.version',
      'l.created_at',
    ]);

/** A request as `requests` selects it: the answer LeaveRequestRow (its times still Dates; the controller checks it). */
export type LeaveRow = InferResult<ReturnType<typeof requests>>[number];

/** The filter's conditions over `l` (the request) and `s` (its student). */
const matching = (f: LeaveFilter) => (eb: ExpressionBuilder<DB & { l: DB['leave_requests']; s: DB['students'] }, 'l' | 's'>) =>
  eb.and([
    eb('l.school_id', '=', f.schoolId),
    ...(f.status === undefined || f.status === null ? [] : [eb('l.status', '=', f.status)]),
    ...(f.studentId ? [eb('l.student_id', '=', f.studentId)] : []),
    ...(f.responsible ? [responsibleFor(eb, eb.ref('s.id'), f.responsible)] : []),
    ...(f.guardian ? [guardianOf(eb, eb.ref('l.student_id'), f.guardian)] : []),
  ]);

/** The SQL of the leave module (issue 38): every statement typed by the schema. */
@Injectable()
export class LeaveRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of the requests `f` selects, in `order`, with the total (one statement). */
  page(f: LeaveFilter, q: PageQuery, order: LeaveOrder): Promise<Page<LeaveRow>> {
    const total = kdb(this.db)
      .selectFrom('leave_requests as l')
      .innerJoin('students as s', 's.id', 'l.student_id')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where(matching(f));
    let list = requests(this.db).where(matching(f));
    if (order === 'pending_first') list = list.orderBy(sql`l.status = ${LeaveStatus.Pending}`, 'desc');
    return pageRows(this.db, total, list.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc'), q);
  }

  /** One request of the school (`responsible`: only of a student the teacher is responsible for). */
  row(on: Queryable, schoolId: number, id: number, responsible?: number): Promise<LeaveRow | undefined> {
    return requests(on)
      .where('l.id', '=', id)
      .where('l.school_id', '=', schoolId)
      .$if(responsible !== undefined, (b) => b.where((eb) => responsibleFor(eb, eb.ref('s.id'), responsible!)))
      .executeTakeFirst();
  }

  /** The request to decide, locked, with the head teacher of its student's class. */
  forDecision(em: Queryable, schoolId: number, id: number) {
    return kdb(em)
      .selectFrom('leave_requests as l')
      .leftJoin('care_class_students as ccs', 'ccs.student_id', 'l.student_id')
      .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
      .select(['l.status', 'l.version', 'cc.head_teacher_id'])
      .where('l.id', '=', id)
      .where('l.school_id', '=', schoolId)
      .forUpdate('l')
      .executeTakeFirst();
  }

  /** Records the decision and moves the version on. */
  async decide(em: Queryable, schoolId: number, id: number, status: LeaveStatus, note: string | null, reviewer: number): Promise<void> {
    await kdb(em)
      .updateTable('leave_requests')
      .set((eb) => ({ status, review_note: note, reviewed_by: reviewer, reviewed_at: sql`now()`, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .execute();
  }

  /** The request's status now (outside any transaction). */
  async statusOf(id: number): Promise<LeaveStatus | undefined> {
    const r = await kdb(this.db).selectFrom('leave_requests').select('status').where('id', '=', id).executeTakeFirst();
    return r?.status;
  }

  /** One request at a time per student: the overlap check and the insert of a submission do not race. */
  async lockStudent(em: Queryable, studentId: number): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`leave:${studentId}`}, 0))`.execute(kdb(em));
  }

  /** The school's today when the student is an active child of the school and of the guardian; else undefined. */
  async guardiansActiveChild(em: Queryable, schoolId: number, studentId: number, guardian: number): Promise<string | undefined> {
    const child = await kdb(em)
      .selectFrom('students as s')
      .select('s.id')
      .where('s.school_id', '=', schoolId)
      .where('s.id', '=', studentId)
      .where('s.status', '=', 1)
      .where((eb) => guardianOf(eb, eb.ref('s.id'), guardian))
      .executeTakeFirst();
    return child ? schoolToday(em, schoolId) : undefined;
  }

  /** Whether a pending or approved request of the student covers a day of [start, end]. */
  async overlaps(em: Queryable, studentId: number, start: string, end: string): Promise<boolean> {
    const r = await kdb(em)
      .selectFrom('leave_requests')
      .select(sql.lit(1).as('one'))
      .where('student_id', '=', studentId)
      .where('status', 'in', [LeaveStatus.Pending, LeaveStatus.Approved])
      .where('start_day', '<=', end)
      .where('end_day', '>=', start)
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  async insert(
    em: Queryable,
    v: { schoolId: number; studentId: number; requestedBy: number; start: string; end: string; reason: string },
  ): Promise<number> {
    const r = await kdb(em)
      .insertInto('leave_requests')
      .values({ school_id: v.schoolId, student_id: v.studentId, requested_by: v.requestedBy, start_day: v.start, end_day: v.end, reason: v.reason })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** The guardian's own request, locked. */
  forCancel(em: Queryable, schoolId: number, id: number, requester: number) {
    return kdb(em)
      .selectFrom('leave_requests')
      .select(['status', 'version'])
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .where('requested_by', '=', requester)
      .forUpdate()
      .executeTakeFirst();
  }

  async cancel(em: Queryable, schoolId: number, id: number): Promise<void> {
    await kdb(em)
      .updateTable('leave_requests')
      .set((eb) => ({ status: LeaveStatus.Cancelled, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('school_id', '=', schoolId)
      .execute();
  }

  /** Who hears the decision: the requester while a live guardian account, else the child's primary guardian. */
  async recipient(requestedBy: number, studentId: number): Promise<number | null> {
    const k = kdb(this.db);
    const r = await k
      .selectNoFrom((eb) =>
        eb.fn
          .coalesce(
            eb.selectFrom('users').select('id').where('id', '=', requestedBy).where('role', '=', Role.Parent).where('deleted_at', 'is', null),
            eb
              .selectFrom('student_guardians as g')
              .innerJoin('users as u', 'u.id', 'g.user_id')
              .select('u.id')
              .where('g.student_id', '=', studentId)
              .where('u.deleted_at', 'is', null)
              .orderBy('g.is_primary', 'desc')
              .orderBy('g.user_id')
              .limit(1),
          )
          .as('user_id'),
      )
      .executeTakeFirst();
    return r?.user_id ?? null;
  }
}
