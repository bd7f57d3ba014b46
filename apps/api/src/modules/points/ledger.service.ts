import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  applyPoints,
  kindOfChange,
  type AwardPointsInput,
  type AwardPointsResult,
  type Page,
  type PointsLedgerEntry,
  type PointsStudent,
  type PointsStudentsQuery,
  type StudentPoints,
  type StudentPointsQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { containsPattern, offsetOf, pageOf, totalOf } from '../../core/database/sql-kit';
import { AppError } from '../../core/http/app-error';
import type { SessionUser } from '../../core/http/request-context';
import { lockAccounts, studentScope } from './points-sql';

/** Balances and the append-only ledger: the teacher's award/deduct screen, a student's history. */
@Injectable()
export class LedgerService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The students the caller may award (active, in scope) with their balances, by class then name, paged. */
  async students(user: SessionUser, q: PointsStudentsQuery): Promise<Page<PointsStudent>> {
    const rows: Array<PointsStudent & { total: number }> = await this.db.query(
      `with f as (
         select s.id, s.name, s.photo_url, cc.id as class_id, cc.name as class_name
           from students s left join care_class_students ccs on ccs.student_id = s.id
           left join care_classes cc on cc.id = ccs.class_id
          where s.school_id = $1 and s.status = 1 and ${studentScope(user.role, '$2')}
            and ($3::text is null or s.name like $3) and ($4::int is null or ccs.class_id = $4))
       select t.total, r.* from (select count(*)::int as total from f) t
       left join lateral (
         select f.*, coalesce(a.balance, 0) as balance from f left join points_accounts a on a.student_id = f.id
          order by f.class_name nulls last, f.name, f.id limit $5 offset $6
       ) r on true`,
      [user.schoolId, user.id, containsPattern(q.keyword), q.class_id ?? null, q.limit, offsetOf(q)],
    );
    const list = rows.filter((r) => r.id !== null).map(({ total: _, ...r }) => r as PointsStudent);
    return pageOf(list, totalOf(rows), q);
  }

  /**
   * Awards (points > 0) or deducts (points < 0) the same points to several students with a reason, all or none: the
   * students' rows are locked in id order, a deduction past a balance is refused with that student's numbers, then one
   * statement changes the balances and appends one ledger entry each. A repeated request_id answers the first result.
   */
  async award(user: SessionUser, input: AwardPointsInput): Promise<AwardPointsResult> {
    const schoolId = user.schoolId!;
    const ids = input.student_ids;
    const keys = ids.map((id) => `pts:${input.request_id}:${id}`);
    const results = await this.db.transaction(async (em) => {
      const found: Array<{ id: number; name: string }> = await em.query(
        `select s.id, s.name from students s where s.school_id = $1 and s.id = any($2::int[]) and s.status = 1 and ${studentScope(user.role, '$3')}`,
        [schoolId, ids, user.id],
      );
      if (found.length !== ids.length) {
        const ok = new Set(found.map((s) => s.id));
        throw new AppError('points.students_not_found', { ids: ids.filter((id) => !ok.has(id)).join(', ') });
      }
      const balances = await lockAccounts(em, schoolId, ids);
      const prior: Array<{ student_id: number; entry_id: number; delta: number }> = await em.query(
        `select student_id, id::int as entry_id, delta from points_ledger where school_id = $1 and request_key = any($2::text[])`,
        [schoolId, keys],
      );
      if (prior.length) {
        if (prior.length !== ids.length || prior.some((p) => p.delta !== input.points)) throw new AppError('points.request_reused');
        return prior.map((p) => ({ student_id: p.student_id, entry_id: p.entry_id, balance: balances.get(p.student_id)! }));
      }
      for (const st of found) {
        const d = applyPoints(balances.get(st.id) ?? 0, input.points);
        if (!d.ok) throw new AppError('points.insufficient_of', { student: st.name, balance: balances.get(st.id) ?? 0, asked: -input.points });
      }
      return em.query(
        `with u as (
           update points_accounts a set balance = a.balance + $3, updated_at = now()
            where a.student_id = any($2::int[]) and a.balance + $3 >= 0 returning a.student_id, a.balance)
         insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason, actor_id, request_key)
         select $1, u.student_id, $4, $3, u.balance, $5, $6, 'pts:' || $7 || ':' || u.student_id from u
         returning student_id, id::int as entry_id, balance_after as balance`,
        [schoolId, ids, input.points, kindOfChange(input.points), input.reason, user.id, input.request_id],
      ) as Promise<AwardPointsResult['results']>;
    });
    results.sort((a, b) => ids.indexOf(a.student_id) - ids.indexOf(b.student_id));
    return { points: input.points, results };
  }

  /** A student's balance and ledger page, newest first (two statements: the student with balance and count, the page). */
  async history(user: SessionUser, q: StudentPointsQuery): Promise<StudentPoints> {
    const [st]: Array<{ id: number; name: string; balance: number; total: number }> = await this.db.query(
      `select s.id, s.name, coalesce(a.balance, 0) as balance, (select count(*)::int from points_ledger l where l.student_id = s.id) as total
         from students s left join points_accounts a on a.student_id = s.id
        where s.school_id = $1 and s.id = $2 and ${studentScope(user.role, '$3')}`,
      [user.schoolId, q.student_id, user.id],
    );
    if (!st) throw new AppError('points.student_not_found');
    const offset = offsetOf(q);
    const list: PointsLedgerEntry[] =
      offset < st.total
        ? await this.db.query(
            `select l.id::int as id, l.kind, l.delta, l.balance_after, l.reason, l.order_id, u.name as actor_name, l.created_at
               from points_ledger l left join users u on u.id = l.actor_id
              where l.student_id = $1 order by l.id desc limit $2 offset $3`,
            [st.id, q.limit, offset],
          )
        : [];
    return { student_id: st.id, student_name: st.name, balance: st.balance, ...pageOf(list, st.total, q) };
  }
}
