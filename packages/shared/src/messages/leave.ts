import type { Bilingual } from './bilingual';

/** Leave requests (leave.*) and clock-in (clock.*). */
export const leaveMessages = {
  'leave.id_invalid': { zh: 'ID 需为正整数', en: 'The ID is a positive whole number' },
  'leave.version_invalid': { zh: '版本号需为正整数', en: 'The version is a positive whole number' },
  'leave.day_invalid': { zh: '日期格式需为 YYYY-MM-DD', en: 'A date looks like YYYY-MM-DD' },
  'leave.status_invalid': {
    zh: '状态只能是 0（待审核）、1（已批准）、2（已驳回）或 3（已撤销）',
    en: 'The status is 0 (pending), 1 (approved), 2 (rejected) or 3 (cancelled)',
  },
  'leave.approve_invalid': { zh: '请选择批准或驳回', en: 'Choose approve or reject' },
  'leave.reason_required': { zh: '请填写请假原因', en: 'Please give a reason for the leave' },
  'leave.range_invalid': { zh: '结束日期不能早于开始日期', en: 'The end date cannot be before the start date' },
  'leave.range_too_long': { zh: '日期范围最多 {max} 天', en: 'The date range is at most {max} days' },
  'leave.start_past': { zh: '请假开始日期不能早于今天', en: 'A leave cannot start before today' },
  'leave.not_found': { zh: '该请假申请不存在', en: 'No such leave request' },
  'leave.student_not_found': { zh: '该学生不存在', en: 'No such student' },
  'leave.overlap': { zh: '该时间段已有待审核或已批准的请假申请', en: 'A pending or approved leave request already covers some of these days' },
  'leave.not_pending': { zh: '该请假申请已处理，不能再审核', en: 'This leave request was already decided' },
  'leave.not_cancellable': { zh: '该请假申请已驳回或已撤销，不能撤销', en: 'A rejected or cancelled leave request cannot be cancelled' },
  'leave.not_own_class': { zh: '只能审核自己班级学生的请假申请', en: "Only leave requests of your own class's students can be reviewed" },
  'clock.already_in': { zh: '今天已签到', en: 'Already clocked in today' },
  'clock.already_out': { zh: '今天已签退', en: 'Already clocked out today' },
  'clock.not_in': { zh: '今天还没有签到，不能签退', en: 'Clock in before clocking out' },
} satisfies Record<string, Bilingual>;
