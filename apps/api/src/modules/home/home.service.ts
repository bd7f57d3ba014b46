import { Injectable } from '@nestjs/common';
import { serviceState, type PrincipalHome } from '@wantuo/shared';
import type { SchoolCaller } from '../../core/auth/current-user.decorator';
import { HomeRepository } from './home.repository';

/**
 * Today at a glance for the admin's landing page: one query over the school's own tables, whatever their size (the
 * students of running classes that meet today, today's projection rows, open alerts, pending leave, the account).
 * A read model: it reads what the flow, alerts, leave and money modules wrote and calls none of them.
 */
@Injectable()
export class HomeService {
  constructor(private readonly repo: HomeRepository) {}

  async principal(user: SchoolCaller): Promise<PrincipalHome> {
    const row = await this.repo.principal(user.schoolId);
    return {
      day: row.day,
      students: row.students,
      flow: { expected: row.expected, picked_up: row.picked_up, in_centre: row.in_centre, left: row.left, on_leave: row.on_leave },
      open_alerts: row.open_alerts,
      alerts_by_kind: row.alerts_by_kind ?? {},
      pending_leave: row.pending_leave,
      contracts: { expiring: row.expiring_contracts, unpaid: row.unpaid_contracts, soonest: row.soonest_contracts },
      school: {
        name: row.name,
        balance_fen: row.balance_fen,
        service_expires_at: row.service_expires_at ? new Date(row.service_expires_at).toISOString() : null,
        service_state: serviceState(row.service_expires_at),
      },
    };
  }
}
