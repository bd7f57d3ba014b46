import { defineStrings } from '../../i18n/strings';

export const meStrings = defineStrings({
  'me.pickup': { zh: '接送码', en: 'Pick-up code' },
  'me.report': { zh: '每日反馈', en: 'Daily report' },
  'me.points': { zh: '积分', en: 'Points' },
  'me.scores': { zh: '考试成绩', en: 'Exam scores' },
  'me.notices': { zh: '通知', en: 'Notices' },
  'me.comments': { zh: '每日评语', en: 'Daily comments' },
  'me.pickup_scan': { zh: '扫码放学', en: 'Scan a pick-up code' },
});
