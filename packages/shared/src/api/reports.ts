import { GET, POST, extraOf } from './define';
import { ClassReportStatus, DailyReport, DailyReportDays, SavedDailyComment } from '../answers/reports';
import { ClassReportStatusQuery, DailyReportDaysQuery, DailyReportQuery, SaveDailyCommentInput } from '../schemas/reports';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('reports');

/** The actions of module `reports` (issue 27 item 2): the child's daily report, its history, the teacher's comment, the head teacher's status. */
export const reportsActions = [
  GET(
    'dailyReport',
    DailyReportQuery,
    DailyReport,
    extra(
      ['P', 'T', 'H', 'A'],
      "a child's daily report (每日反馈) of a day: arrival and departure with who (verified code or manual), dinner, tutoring start/end, the homework of the day (done, checked, the teacher's note, photos), points earned, the teacher's comment, whether it went out; a guardian their own child, a teacher a student they are responsible for or teach, the admin any",
    ),
  ),
  GET(
    'dailyReportDays',
    DailyReportDaysQuery,
    DailyReportDays,
    extra(
      ['P', 'T', 'H', 'A'],
      "a child's report history, paged, newest day first (the days with a report: times, homework count, points, comment or not, sent or not)",
    ),
  ),
  GET(
    'classReportStatus',
    ClassReportStatusQuery,
    ClassReportStatus,
    extra(
      ['T', 'H', 'A'],
      "a care class's children on a day: whose daily report went out and who still lacks the teacher's comment (a head teacher their classes, a teacher the classes they have a duty in, the admin any)",
    ),
  ),
  POST(
    'saveDailyComment',
    SaveDailyCommentInput,
    SavedDailyComment,
    extra(
      ['T', 'H'],
      "the teacher's comment of a child's day (quick-comment presets by 表现/作业/情绪, free text of at most 200 characters, photos taken during tutoring) for a student of a class they teach or head; optimistic concurrency on version, every version kept",
    ),
  ),
] as const;
