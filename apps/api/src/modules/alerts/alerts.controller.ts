import { Controller } from '@nestjs/common';
import { FlowAlertsQuery } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { AlertsService } from './alerts.service';

@Controller('api/index')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Action('GET', 'flowAlerts')
  list(@Input() q: FlowAlertsQuery, @SchoolUser() user: SchoolCaller) {
    return this.alerts.list(user, q);
  }
}
