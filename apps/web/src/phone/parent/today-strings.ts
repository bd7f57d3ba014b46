import { defineStrings, type KeyOf } from '../../i18n/strings';

/** The phone's parent pages of 今日 and 缴费 (home, report, pick-up code, contracts, dinners): what the desktop's strings do not say. */
export const todayStrings = defineStrings({
  'pt.entries': { zh: '常用', en: 'Shortcuts' },
  'pt.report': { zh: '每日反馈', en: 'Daily report' },
  'pt.pickup': { zh: '接送码', en: 'Pick-up code' },
  'pt.meals': { zh: '晚餐', en: 'Dinner' },
  'pt.homework': { zh: '作业', en: 'Homework' },
  'pt.notices': { zh: '通知', en: 'Notices' },
  'pt.scores': { zh: '成绩', en: 'Scores' },
  'pt.points': { zh: '积分', en: 'Points' },
  'pt.live': { zh: '实时更新', en: 'Live' },
  'pt.share_title': { zh: '{name}的今日反馈', en: "{name}'s day" },
  'pt.share_desc': { zh: '来看看今天在晚托的一天', en: 'A look at today at after-school care' },
  'pt.choose_day': { zh: '选择日期', en: 'Choose a day' },
  'pt.link_made': { zh: '链接已生成，仅显示这一次', en: 'Link made: it is shown this once' },
  'pt.copy_failed': { zh: '无法自动复制，请长按链接复制', en: 'Could not copy: press and hold the link to copy it' },
  'pt.owed': { zh: '待缴', en: 'To pay' },
  'pt.owed_total': { zh: '共 {n} 笔待缴，合计 ¥{amount}', en: '{n} to pay, ¥{amount} in all' },
  'pt.nothing_owed': { zh: '没有待缴的费用', en: 'Nothing to pay' },
  'pt.choose_meal': { zh: '选择餐品', en: 'Choose a meal' },
});
export type TodayKey = KeyOf<typeof todayStrings>;
