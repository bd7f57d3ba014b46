import { Controller } from '@nestjs/common';
import { ClassReportStatusQuery, DailyReportDaysQuery, DailyReportQuery, SaveDailyCommentInput } from '@wantuo/shared';
import { CurrentUser } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import type { SessionUser } from '../../core/http/request-context';
import { ReportsService } from './reports.service';

@Controller('api/index')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Action('GET', 'dailyReport')
  report(@Input() q: DailyReportQuery, @CurrentUser() user: SessionUser) {
    return this.reports.report(user, q);
  }

  @Action('GET', 'dailyReportDays')
  days(@Input() q: DailyReportDaysQuery, @CurrentUser() user: SessionUser) {
    return this.reports.days(user, q);
  }

  @Action('GET', 'classReportStatus')
  classStatus(@Input() q: ClassReportStatusQuery, @CurrentUser() user: SessionUser) {
    return this.reports.classStatus(user, q);
  }

  @Action('POST', 'saveDailyComment')
  saveComment(@Input() input: SaveDailyCommentInput, @CurrentUser() user: SessionUser) {
    return this.reports.saveComment(user, input);
  }
}
