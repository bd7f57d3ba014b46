import { Injectable } from '@nestjs/common';
import type { ActivityAction, Page } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import type { CallerInfo } from '../../core/auth/current-user.decorator';
import type { PageQuery } from '../../core/database/sql-kit';
import { AuthRepository, type ActivityEntry } from './auth.repository';

/** A user's own trail: sign-ins, failed tries, password and profile changes (shown in user settings). */
@Injectable()
export class ActivityService {
  constructor(private readonly repo: AuthRepository) {}

  async record(
    em: EntityManager,
    user: { id: number; schoolId: number | null },
    action: ActivityAction,
    caller: CallerInfo,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await this.repo.recordActivity(em, {
      user_id: user.id,
      school_id: user.schoolId,
      action,
      detail: JSON.stringify(detail),
      ip: caller.ip,
      user_agent: caller.userAgent.slice(0, 300),
    });
  }

  /** A page of the account's trail, newest first (the answer LoginLogAnswer; its times still Dates). */
  list(userId: number, q: PageQuery): Promise<Page<ActivityEntry>> {
    return this.repo.activityPage(userId, q);
  }
}
