import { Controller } from '@nestjs/common';
import { FlowAlertsQuery } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { AlertsService } from './alerts.service';

@Controller('api/index')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Action('GET', 'flowAlerts')
  list(@Input() q: FlowAlertsQuery, @CurrentUser() user: SessionUser) {
    return this.alerts.list(user, q);
  }
}
