import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DATA_GROUP_LABELS,
  DATA_PERIOD_SQL,
  periodsBetween,
  Role,
  type ScoreCountAnswer,
  type ScoreCountRow,
  type ScoreOrderCountQuery,
} from '@wantuo/shared';
import { DataSource } from 'typeorm';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import type { SessionUser } from '../../core/http/request-context';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { RESPONSIBLE } from '../students/students.service';

const NUMBERS = ['awarded', 'deducted', 'spent', 'refunded', 'orders', 'handed_over', 'cancelled'] as const;
const HEADERS = ['周期', '奖励积分', '扣除积分', '兑换消耗积分', '取消退回积分', '兑换订单', '已交付', '已取消'];

/**
 * The data centre's points numbers per period (day, week from Monday, month; school-local days): points awarded,
 * deducted, spent on exchanges and refunded by cancellations (from the ledger), exchange orders made, handed over and
 * cancelled (by the day each happened). One statement; the time bounds are the school's local midnights so the
 * indexes on (school_id, created_at / handed_over_at / cancelled_at) serve the ranges.
 */
@Injectable()
export class CountsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async count(user: SessionUser, q: ScoreOrderCountQuery): Promise<ScoreCountAnswer> {
    const schoolId = user.schoolId!;
    if (q.class_id) {
      const [c]: Array<{ id: number }> = await this.db.query(`select id from care_classes where school_id = $1 and id = $2 and deleted_at is null`, [
        schoolId,
        q.class_id,
      ]);
      if (!c) throw new AppError('points.class_not_found');
    }
    // whose numbers: the head teacher's own students; else the school's, or one class
    const mine = (col: string) =>
      [
        user.role === Role.Admin ? '' : `and exists (select 1 from students s where s.id = ${col} and ${RESPONSIBLE('$5')})`,
        `and ($4::int is null or exists (select 1 from care_class_students c where c.student_id = ${col} and c.class_id = $4))`,
      ].join(' ');
    const local = (col: string) => DATA_PERIOD_SQL[q.group](`(${col} at time zone b.tz)::date`);
    const periods = periodsBetween(q.date_from, q.date_to, q.group);
    const rows: ScoreCountRow[] = await this.db.query(
      `with b as (
         select sc.timezone as tz, $5::int as me, ($2::date)::timestamp at time zone sc.timezone as lo, ($3::date + 1)::timestamp at time zone sc.timezone as hi
           from schools sc where sc.id = $1),
       led as (
         select ${local('l.created_at')} as period,
                coalesce(sum(l.delta) filter (where l.kind = 'award'), 0)::int as awarded,
                coalesce(-sum(l.delta) filter (where l.kind = 'deduct'), 0)::int as deducted,
                coalesce(-sum(l.delta) filter (where l.kind = 'exchange'), 0)::int as spent,
                coalesce(sum(l.delta) filter (where l.kind = 'refund'), 0)::int as refunded
           from points_ledger l, b where l.school_id = $1 and l.created_at >= b.lo and l.created_at < b.hi ${mine('l.student_id')} group by 1),
       made as (
         select ${local('o.created_at')} as period, count(*)::int as n from points_orders o, b
          where o.school_id = $1 and o.created_at >= b.lo and o.created_at < b.hi ${mine('o.student_id')} group by 1),
       handed as (
         select ${local('o.handed_over_at')} as period, count(*)::int as n from points_orders o, b
          where o.school_id = $1 and o.handed_over_at >= b.lo and o.handed_over_at < b.hi ${mine('o.student_id')} group by 1),
       cancelled as (
         select ${local('o.cancelled_at')} as period, count(*)::int as n from points_orders o, b
          where o.school_id = $1 and o.cancelled_at >= b.lo and o.cancelled_at < b.hi ${mine('o.student_id')} group by 1)
       select to_char(p.period, 'YYYY-MM-DD') as period, coalesce(led.awarded, 0) as awarded, coalesce(led.deducted, 0) as deducted,
              coalesce(led.spent, 0) as spent, coalesce(led.refunded, 0) as refunded, coalesce(made.n, 0) as orders,
              coalesce(handed.n, 0) as handed_over, coalesce(cancelled.n, 0) as cancelled
         from unnest($6::date[]) p(period)
         left join led on led.period = p.period left join made on made.period = p.period
         left join handed on handed.period = p.period left join cancelled on cancelled.period = p.period
        order by p.period`,
      [schoolId, q.date_from, q.date_to, q.class_id ?? null, user.id, periods],
    );
    const totals = Object.fromEntries(NUMBERS.map((k) => [k, rows.reduce((n, r) => n + r[k], 0)])) as ScoreCountAnswer['totals'];
    return { date_from: q.date_from, date_to: q.date_to, group: q.group, rows, totals };
  }

  /** The same numbers as an .xlsx: Chinese headers, one row per period and a total row. */
  async export(user: SessionUser, q: ScoreOrderCountQuery): Promise<FileAnswer> {
    const c = await this.count(user, q);
    return xlsxFile(`积分统计-${DATA_GROUP_LABELS[q.group].zh}-${q.date_from}至${q.date_to}.xlsx`, [
      sheet({
        name: '积分统计',
        rows: c.rows,
        total: true,
        columns: [
          { header: HEADERS[0], value: (r) => r.period, width: 14 },
          ...NUMBERS.map((k, i) => ({ header: HEADERS[i + 1], value: (r: ScoreCountRow) => r[k], width: 14, sum: true })),
        ],
      }),
    ]);
  }
}
