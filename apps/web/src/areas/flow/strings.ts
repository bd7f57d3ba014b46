import { defineStrings } from '../../i18n/strings';

/** The flow screens' own strings (the older ones are in i18n/messages.ts under `flow.`). */
export const flowStrings = defineStrings({
  // teacher's phone: a day/session contract running out (LOW_UNITS_BADGE or fewer units left)
  units_left: { zh: '剩 {n} 次', en: '{n} left' },
  units_left_hint: { zh: '合同剩余次数', en: 'Units left on the contract' },
  // hand-over of a student's task of the day (teacherHandOverStudent)
  'handover.button': { zh: '转交', en: 'Hand over' },
  'handover.title_shuttle': { zh: '把 {name} 今天的接送转交给…', en: "Hand {name}'s pick-up today to…" },
  'handover.title_tutor': { zh: '把 {name} 今天的辅导转交给…', en: "Hand {name}'s tutoring today to…" },
  'handover.search': { zh: '搜索老师姓名或手机号', en: 'Search a teacher by name or mobile' },
  'handover.empty': { zh: '没有可以转交的其他老师', en: 'No other teacher to hand over to' },
  'handover.confirm': { zh: '转交', en: 'Hand over' },
  'handover.pick_first': { zh: '请先选择一位老师', en: 'Choose a teacher first' },
  'handover.done': { zh: '已转交给 {name}', en: 'Handed over to {name}' },
  'handover.hint': {
    zh: '转交后该学生今天从你的名单移到对方名单，由对方记录。',
    en: 'The student moves from your list to theirs for today; they record the steps.',
  },
  'handover.from': { zh: '{name} 转交', en: 'from {name}' },
  // the tutoring drawer: the student's homework of the day (tutorTaskInfo)
  'tutor.homework': { zh: '今日作业', en: "Today's homework" },
  'tutor.homework_empty': { zh: '今天没有要完成的作业', en: 'No homework open today' },
  'tutor.homework_due': { zh: '截止 {day}', en: 'due {day}' },
  'tutor.hw_todo': { zh: '未完成', en: 'Not done' },
  'tutor.hw_done': { zh: '已完成', en: 'Done' },
  'tutor.hw_checked': { zh: '已检查', en: 'Checked' },
  // /AStudentAttendance: attendance records by date range (clockingInList)
  'records.tab_board': { zh: '今日看板', en: 'Today' },
  'records.tab_records': { zh: '考勤记录', en: 'Records' },
  'records.range': { zh: '日期范围', en: 'Dates' },
  'records.state': { zh: '状态', en: 'State' },
  'records.all_states': { zh: '全部状态', en: 'All states' },
  'records.class': { zh: '班级', en: 'Class' },
  'records.all_classes': { zh: '全部班级', en: 'All classes' },
  'records.day': { zh: '日期', en: 'Day' },
  'records.student': { zh: '学生', en: 'Student' },
  'records.times': { zh: '接到 / 入园 / 离园', en: 'Picked up / in / out' },
  'records.empty': { zh: '这段日期没有考勤记录', en: 'No attendance records in these days' },
  'records.total': { zh: '共 {n} 条', en: '{n} records' },
});
