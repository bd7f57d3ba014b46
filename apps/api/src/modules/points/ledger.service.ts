import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  applyPoints,
  kindOfChange,
  type AwardPointsInput,
  type AwardPointsResult,
  type Page,
  type PointsStudent,
  type PointsStudentsQuery,
  type StudentPoints,
  type StudentPointsQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { Sendable } from '../../core/http/sendable';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { lockAccounts, PointsRepository } from './points.repository';

/** Balances and the append-only ledger: the teacher's award/deduct screen, a student's history. */
@Injectable()
export class LedgerService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: PointsRepository,
  ) {}

  /** The students the caller may award (active, in scope) with their balances, by class then name, paged. */
  async students(user: SchoolCaller, q: PointsStudentsQuery): Promise<Page<PointsStudent>> {
    return this.repo.students(user, { pattern: containsPattern(q.keyword), classId: q.class_id ?? null }, q);
  }

  /**
   * Awards (points > 0) or deducts (points < 0) the same points to several students with a reason, all or none: the
   * students' rows are locked in id order, a deduction past a balance is refused with that student's numbers, then one
   * statement changes the balances and appends one ledger entry each. A repeated request_id answers the first result.
   */
  async award(user: SchoolCaller, input: AwardPointsInput): Promise<AwardPointsResult> {
    const schoolId = user.schoolId;
    const ids = input.student_ids;
    const keys = ids.map((id) => `pts:${input.request_id}:${id}`);
    const results = await this.db.transaction(async (em) => {
      const found = await this.repo.awardable(em, user, ids);
      if (found.length !== ids.length) {
        const ok = new Set(found.map((s) => s.id));
        throw new AppError('points.students_not_found', { ids: ids.filter((id) => !ok.has(id)).join(', ') });
      }
      const balances = await lockAccounts(em, schoolId, ids);
      const prior = await this.repo.priorEntries(em, schoolId, keys);
      if (prior.length) {
        if (prior.length !== ids.length || prior.some((p) => p.delta !== input.points)) throw new AppError('points.request_reused');
        return prior.map((p) => ({ student_id: p.student_id, entry_id: p.entry_id, balance: balances.get(p.student_id)! }));
      }
      for (const st of found) {
        const d = applyPoints(balances.get(st.id) ?? 0, input.points);
        if (!d.ok) throw new AppError('points.insufficient_of', { student: st.name, balance: balances.get(st.id) ?? 0, asked: -input.points });
      }
      return this.repo.award(em, {
        schoolId,
        ids,
        points: input.points,
        kind: kindOfChange(input.points),
        reason: input.reason,
        actorId: user.id,
        requestId: input.request_id,
      });
    });
    results.sort((a, b) => ids.indexOf(a.student_id) - ids.indexOf(b.student_id));
    return { points: input.points, results };
  }

  /** A student's balance and ledger page, newest first (two statements: the student with balance and count, the page). */
  async history(user: SchoolCaller, q: StudentPointsQuery): Promise<Sendable<StudentPoints>> {
    const st = await this.repo.studentBalance(user, q.student_id);
    if (!st) throw new AppError('points.student_not_found');
    const offset = offsetOf(q);
    const list = offset < st.total ? await this.repo.ledger(st.id, q.limit, offset) : [];
    return { student_id: st.id, student_name: st.name, balance: st.balance, ...pageOf(list, st.total, q) };
  }
}
