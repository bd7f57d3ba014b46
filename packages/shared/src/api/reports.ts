import { GET, POST } from './define';
import { ClassReportStatus, DailyReport, DailyReportDays, SavedDailyComment } from '../answers/reports';
import { ClassReportStatusQuery, DailyReportDaysQuery, DailyReportQuery, SaveDailyCommentInput } from '../schemas/reports';

/** The actions of module `reports` (issue 27 item 2): the child's daily report, its history, the teacher's comment, the head teacher's status. */
export const reportsActions = [
  GET('dailyReport', DailyReportQuery, DailyReport),
  GET('dailyReportDays', DailyReportDaysQuery, DailyReportDays),
  GET('classReportStatus', ClassReportStatusQuery, ClassReportStatus),
  POST('saveDailyComment', SaveDailyCommentInput, SavedDailyComment),
] as const;
