import { defineStrings } from '../../i18n/strings';

/** The strings of 导入法定节假日 on the school calendar (issue 27, item 3). */
export const holidayStrings = defineStrings({
  open: { zh: '导入法定节假日', en: 'Import public holidays' },
  title: { zh: '导入法定节假日', en: 'Import the public holidays' },
  year: { zh: '年份', en: 'Year' },
  source: { zh: '依据：{notice}（{issued} 发布）', en: 'Source: {notice} (issued {issued})' },
  today_hint: {
    zh: '今天（{today}）之前的日期只写入校历，不会取消课次或订餐。',
    en: 'Days before today ({today}) are only written to the calendar: no session or booking changes.',
  },
  'sec.set': { zh: '将写入校历的日期（{n}）', en: 'Days to set ({n})' },
  'sec.skipped': { zh: '本校已自行设置、保持不变的日期（{n}）', en: 'Your own days, kept ({n})' },
  'sec.same': { zh: '已与通知一致的日期：{n} 天', en: 'Already as the notice says: {n} days' },
  'sec.sessions': { zh: '将取消的课次（{n}）', en: 'Sessions to cancel ({n})' },
  'sec.bookings': { zh: '将取消的订餐（{n}）', en: 'Dinner bookings to cancel ({n})' },
  'sec.bookings_hint': { zh: '微信支付的订餐将全额退款。', en: 'WeChat-paid dinners are refunded in full.' },
  'sec.makeup': { zh: '调休上课日（{n}）', en: 'Make-up days ({n})' },
  'sec.makeup_hint': {
    zh: '调休日按所列星期的课表上课；如需在当天排课，请在排课中生成。',
    en: 'A make-up day runs the timetable of the weekday listed; generate its sessions in scheduling.',
  },
  'sec.contracts': { zh: '涉及的按天合同（{n}）', en: 'Day contracts concerned ({n})' },
  'sec.contracts_hint': { zh: '放假日无人入园，不扣天数。', en: 'Nobody enters on a closed day: no day is used.' },
  holiday: { zh: '放假', en: 'Holiday' },
  makeup: { zh: '调休上课（按{wd}）', en: 'Make-up (runs as {wd})' },
  own: { zh: '本校：{what}', en: 'Yours: {what}' },
  none: { zh: '无', en: 'None' },
  classes: { zh: '当天按课表上课的班级：{names}', en: 'Classes on that timetable: {names}' },
  care_students: { zh: '托管应到 {n} 人', en: '{n} care students expected' },
  closed_days: { zh: '{start} 至 {end}，含放假日 {n} 天', en: '{start} to {end}: {n} closed days' },
  booked: { zh: '已订', en: 'Booked' },
  unpaid: { zh: '待支付', en: 'Unpaid' },
  nothing: { zh: '该年的安排已全部在校历中，无需导入', en: 'This year is already in your calendar: nothing to import' },
  confirm: { zh: '确认导入', en: 'Import' },
  close: { zh: '取消', en: 'Cancel' },
  done: {
    zh: '已导入：写入 {set} 天，取消课次 {sessions} 个、订餐 {bookings} 份',
    en: 'Imported: {set} days set, {sessions} sessions and {bookings} bookings cancelled',
  },
  no_years: { zh: '暂无可导入的年份', en: 'No year to import' },
  year_file: { zh: '{year}（配置文件）', en: '{year} (from the file)' },
});
