import type { Bilingual } from './bilingual';

/** Timetable module (timetable.*). */
export const timetableMessages = {
  'timetable.slot_not_found': { zh: '该时间段不存在', en: 'No such time slot' },
  'timetable.slot_in_use': {
    zh: '该时间段正在使用中，不能删除：{classes} 个晚托班（{names}），{students} 名学生',
    en: 'The time slot is in use and cannot be deleted: {classes} classes ({names}), {students} students',
  },
  'timetable.slots_overlap': {
    zh: '时间段「{a}」与「{b}」重叠（同一天内时间有交叉）',
    en: 'The time slots {a} and {b} overlap (same weekday, intersecting times)',
  },
  'timetable.edit_overlap': {
    zh: '修改后会与学生「{student}」的时间段「{other}」重叠',
    en: 'The change would overlap the slot {other} of the student {student}',
  },
  'timetable.student_not_found': { zh: '该学生不存在', en: 'No such student' },
  'timetable.class_not_found': { zh: '未找到该班级', en: 'No such class' },
  'timetable.not_own_class': { zh: '只能查看自己所带班级的课表', en: 'You can only see the timetables of your own classes' },
  'timetable.v.week_invalid': { zh: '周的日期格式应为 YYYY-MM-DD', en: 'The week is given by a day YYYY-MM-DD' },
  'timetable.v.kind_invalid': { zh: '班级类型应为 care（晚托班）或 teaching（教学班）', en: 'The class kind is care or teaching' },
  'timetable.v.class_invalid': { zh: '请选择有效的班级', en: 'Choose a valid class' },
  'timetable.v.weekday_invalid': { zh: '星期应为 1（周一）到 7（周日）', en: 'Weekdays run from 1 (Monday) to 7 (Sunday)' },
  'timetable.v.time_invalid': { zh: '时间格式应为 HH:MM（00:00-23:59）', en: 'Times are HH:MM (00:00-23:59)' },
  'timetable.v.time_order': { zh: '可用时间的开始时间需早于结束时间', en: 'An available window starts before it ends' },
  'timetable.v.windows_invalid': { zh: '可用时间应为时间段列表', en: 'The availability is a list of windows' },
  'timetable.v.windows_too_many': { zh: '每周最多 {max} 个可用时间段', en: 'At most {max} available windows a week' },
  'timetable.v.window_overlap': { zh: '可用时间 {max} 与同一天的另一段重叠', en: 'The available window {max} overlaps another one on the same day' },
  'timetable.v.version_invalid': { zh: '版本号无效，请刷新后重试', en: 'Invalid version: refresh and try again' },
} satisfies Record<string, Bilingual>;
