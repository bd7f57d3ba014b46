import { Controller } from '@nestjs/common';
import { ClassReportStatusQuery, DailyReportDaysQuery, DailyReportQuery, SaveDailyCommentInput } from '@wantuo/shared';
import { SchoolUser, type SchoolCaller } from '../../core/auth/current-user.decorator';
import { Action } from '../../core/http/action.decorator';
import { Input } from '../../core/http/input.decorator';
import { ReportsService } from './reports.service';

@Controller('api/index')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Action('GET', 'dailyReport')
  report(@Input() q: DailyReportQuery, @SchoolUser() user: SchoolCaller) {
    return this.reports.report(user, q);
  }

  @Action('GET', 'dailyReportDays')
  days(@Input() q: DailyReportDaysQuery, @SchoolUser() user: SchoolCaller) {
    return this.reports.days(user, q);
  }

  @Action('GET', 'classReportStatus')
  classStatus(@Input() q: ClassReportStatusQuery, @SchoolUser() user: SchoolCaller) {
    return this.reports.classStatus(user, q);
  }

  @Action('POST', 'saveDailyComment')
  saveComment(@Input() input: SaveDailyCommentInput, @SchoolUser() user: SchoolCaller) {
    return this.reports.saveComment(user, input);
  }
}
