import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ActivityAction, ActivityRow, Page } from '@wantuo/shared';
import { DataSource, type EntityManager } from 'typeorm';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import { offsetOf, pageOf, type PageQuery } from '../../core/database/sql-kit';

/** A user's own trail: sign-ins, failed tries, password and profile changes (shown in user settings). */
@Injectable()
export class ActivityService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(
    em: EntityManager,
    user: { id: number; schoolId: number | null },
    action: ActivityAction,
    caller: CallerInfo,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await em.query(`insert into user_activity (user_id, school_id, action, detail, ip, user_agent) values ($1, $2, $3, $4, $5, $6)`, [
      user.id,
      user.schoolId,
      action,
      JSON.stringify(detail),
      caller.ip,
      caller.userAgent.slice(0, 300),
    ]);
  }

  async list(userId: number, q: PageQuery): Promise<Page<ActivityRow>> {
    const rows: Array<ActivityRow & { total: number }> = await this.db.query(
      `select id::int, action, detail, ip, user_agent, at, count(*) over ()::int as total
         from user_activity where user_id = $1 order by at desc, id desc limit $2 offset $3`,
      [userId, q.limit, offsetOf(q)],
    );
    const total = rows[0]?.total ?? (q.page === 1 ? 0 : await this.count(userId));
    return pageOf(
      rows.map(({ total: _, ...r }) => r),
      total,
      q,
    );
  }

  private async count(userId: number): Promise<number> {
    const [r]: Array<{ n: number }> = await this.db.query(`select count(*)::int as n from user_activity where user_id = $1`, [userId]);
    return r.n;
  }
}
