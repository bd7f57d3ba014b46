import type { Bilingual } from './bilingual';

/** Flow module (flow.*). */
export const flowMessages = {
  'flow.student_not_found': { zh: '该学生不存在', en: 'Student not found' },
  'flow.event_id_reused': { zh: '该记录编号已用于其他学生', en: 'This record id was already used for another student' },
  'flow.date_invalid': { zh: '日期格式应为 YYYY-MM-DD', en: 'Dates are written YYYY-MM-DD' },
  'flow.id_invalid': { zh: '编号必须是正整数', en: 'Ids are positive whole numbers' },
  'flow.event_id_invalid': { zh: '记录编号必须是 UUID', en: 'The record id must be a UUID' },
  'flow.student_ids_invalid': { zh: '请选择 1-100 名学生', en: 'Choose 1 to 100 students' },
  'flow.override_reason_required': { zh: '请填写越过规则的原因', en: 'Give the reason for going past the rule' },
  'flow.void_reason_required': { zh: '请填写撤销原因', en: 'Give the reason for voiding' },
  'flow.state_invalid': {
    zh: '状态只能是 expected、picked_up、in_centre、left 或 on_leave',
    en: 'The state is one of expected, picked_up, in_centre, left or on_leave',
  },
  'flow.range_invalid': {
    zh: '结束日期不能早于开始日期，且最多查询 {max} 天',
    en: 'The end date may not be before the start date, and at most {max} days at once',
  },
  'flow.data_range_invalid': {
    zh: '结束日期不能早于开始日期；按日最多查询 62 天，按周最多 27 周，按月最多 13 个月',
    en: 'The end date may not be before the start date; at most 62 days by day, 27 weeks by week or 13 months by month',
  },
  'flow.group_invalid': { zh: '统计方式只能是按日、按周或按月', en: 'Group by day, week or month' },
  'flow.event_not_found': { zh: '该记录不存在', en: 'Record not found' },
  'flow.already_left': { zh: '已离园，当天不能再记录', en: 'Already left: nothing more can be recorded today' },
  'flow.on_leave': { zh: '该学生今天已请假，如需记录请由班主任填写原因', en: 'On leave today: a head teacher may record it with a reason' },
  'flow.no_shuttle': { zh: '该学生不需要接送', en: 'This student does not use the shuttle' },
  'flow.already_picked_up': { zh: '已接到该学生', en: 'Already picked up' },
  'flow.already_entered': { zh: '该学生已入园', en: 'Already in the centre' },
  'flow.not_entered': { zh: '该学生尚未入园', en: 'Not in the centre yet' },
  'flow.already_dinner': { zh: '已确认晚餐', en: 'Dinner already confirmed' },
  'flow.already_tutoring': { zh: '辅导已开始', en: 'Tutoring already started' },
  'flow.tutor_not_started': { zh: '辅导尚未开始', en: 'Tutoring has not started' },
  'flow.already_tutor_ended': { zh: '辅导已结束', en: 'Tutoring already ended' },
  'flow.pickup_not_authorised': {
    zh: '接走的人不是授权接送人，如确需放行请由班主任填写原因',
    en: 'Not an authorised pick-up person: a head teacher may let the child go with a reason',
  },
  'flow.override_head_only': { zh: '只有班主任可以越过规则并填写原因', en: 'Only a head teacher may go past a rule, with a reason' },
  'flow.void_head_only': { zh: '只有班主任可以撤销记录', en: 'Only a head teacher may void a record' },
  'flow.void_not_last': { zh: '只能撤销该学生当天最近的一条记录', en: "Only the student's latest record of the day can be voided" },
  'flow.already_on_leave': { zh: '当天已是请假状态', en: 'Already on leave that day' },
  'flow.not_on_leave': { zh: '当天不是请假状态', en: 'Not on leave that day' },
  'flow.stale': { zh: '该学生的状态已变化，请刷新后重试', en: "This student's state changed: refresh and try again" },
  'flow.handover_duty_invalid': { zh: '转交的任务只能是接送（shuttle）或辅导（tutor）', en: 'A hand-over is of the shuttle or the tutoring task' },
  'flow.handover_not_yours': { zh: '该学生不在您今天的接送或辅导名单中', en: 'This student is not on your shuttle or tutoring list today' },
  'flow.handover_teacher_invalid': { zh: '请选择一位在职、负责该项任务的其他老师', en: 'Choose another on-job teacher who has that duty' },
  'flow.handover_too_late': {
    zh: '该学生今天的这项任务已完成或已不能转交',
    en: "This student's task is done for today or can no longer be handed over",
  },
} satisfies Record<string, Bilingual>;
