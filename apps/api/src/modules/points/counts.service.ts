import { Injectable } from '@nestjs/common';
import { DATA_GROUP_LABELS, periodsBetween, Role, type ScoreCountAnswer, type ScoreCountRow, type ScoreOrderCountQuery } from '@wantuo/shared';
import { AppError } from '../../core/http/app-error';
import type { FileAnswer } from '../../core/http/send-file';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { sheet, xlsxFile } from '../../core/http/xlsx-file';
import { PointsRepository } from './points.repository';

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
  constructor(private readonly repo: PointsRepository) {}

  async count(user: SchoolCaller, q: ScoreOrderCountQuery): Promise<ScoreCountAnswer> {
    const schoolId = user.schoolId;
    if (q.class_id && !(await this.repo.classExists(schoolId, q.class_id))) throw new AppError('points.class_not_found');
    // whose numbers: the head teacher's own students; else the school's, or one class
    const rows: ScoreCountRow[] = await this.repo.counts({
      schoolId,
      from: q.date_from,
      to: q.date_to,
      group: q.group,
      periods: periodsBetween(q.date_from, q.date_to, q.group),
      classId: q.class_id ?? null,
      responsible: user.role === Role.Admin ? null : user.id,
    });
    const totals = Object.fromEntries(NUMBERS.map((k) => [k, rows.reduce((n, r) => n + r[k], 0)])) as ScoreCountAnswer['totals'];
    return { date_from: q.date_from, date_to: q.date_to, group: q.group, rows, totals };
  }

  /** The same numbers as an .xlsx: Chinese headers, one row per period and a total row. */
  async export(user: SchoolCaller, q: ScoreOrderCountQuery): Promise<FileAnswer> {
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
