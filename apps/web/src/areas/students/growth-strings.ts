import { DATA_GROUP_LABELS } from '@wantuo/shared';
import { defineStrings } from '../../i18n/strings';

/** The strings of a student's growth over time (teacherStudentGrowth: scores and attendance charts). */
export const growthStrings = defineStrings({
  title: { zh: '成长曲线', en: 'Growth over time' },
  'group.week': DATA_GROUP_LABELS.week,
  'group.month': DATA_GROUP_LABELS.month,
  'group.label': { zh: '出勤统计方式', en: 'Attendance grouping' },
  'scores.title': { zh: '考试成绩（得分率）', en: 'Exam scores (% of full mark)' },
  'scores.empty': { zh: '暂无已发布的考试成绩', en: 'No published exam scores yet' },
  'scores.mine': { zh: '本人', en: 'Student' },
  'scores.class_average': { zh: '班级平均', en: 'Class average' },
  'scores.absent': { zh: '缺考', en: 'Absent' },
  'scores.score': { zh: '{score} / {full} 分', en: '{score} / {full}' },
  'scores.rank': { zh: '班级第 {rank} 名（共 {count} 人）', en: 'Class rank {rank} of {count}' },
  'scores.average': { zh: '班级平均 {avg} 分', en: 'Class average {avg}' },
  'scores.latest': { zh: '最近一次：{name}（{subject}，{day}）{result}', en: 'Latest: {name} ({subject}, {day}) {result}' },
  'att.title': { zh: '出勤', en: 'Attendance' },
  'att.empty': { zh: '这段时间没有出勤记录', en: 'No attendance in this time' },
  'att.present': { zh: '到园', en: 'Present' },
  'att.on_leave': { zh: '请假', en: 'On leave' },
  'att.absent': { zh: '缺勤', en: 'Absent' },
  'att.summary': {
    zh: '{range}：到园 {present} 天，请假 {leave} 天，缺勤 {absent} 天',
    en: '{range}: present {present} days, on leave {leave}, absent {absent}',
  },
  'att.range.week': { zh: '近 {n} 周', en: 'Last {n} weeks' },
  'att.range.month': { zh: '近 {n} 个月', en: 'Last {n} months' },
  'week.of': { zh: '{day} 周', en: 'Week of {day}' },
});
