import type { Bilingual } from './bilingual';

/** Care module (care.*). */
export const careMessages = {
  'care.v.id_invalid': { zh: '编号需为正整数', en: 'An id is a positive whole number' },
  'care.v.version_invalid': { zh: '版本号需为正整数（请刷新后重试）', en: 'The version is a positive whole number (refresh and try again)' },
  'care.v.student_ids_invalid': { zh: '请选择 1-100 名学生', en: 'Choose 1 to 100 students' },
  'care.v.duplicate_ids': { zh: '列表中有重复的编号', en: 'The list has an id twice' },
  'care.v.class_name_invalid': { zh: '请输入班级名称（最多 50 个字符）', en: 'Please input a class name (at most 50 characters)' },
  'care.v.capacity_invalid': { zh: '容量需为 1-500 的整数', en: 'The capacity is a whole number from 1 to 500' },
  'care.v.fee_invalid': { zh: '费用需为 0-1000000 元（以分为单位的整数）', en: 'The fee is 0 to 1000000 yuan (a whole number of fen)' },
  'care.v.class_status_invalid': { zh: '状态只能是 1（开班）或 0（停班）', en: 'The status is 1 (running) or 0 (stopped)' },
  'care.v.duty_invalid': { zh: '职责只能是 shuttle（接送）、tutor（辅导）或 head（班主任）', en: 'The duty is shuttle, tutor or head' },
  'care.v.remove_invalid': { zh: 'remove 只能是 true 或 false', en: 'remove is true or false' },
  'care.v.allot_teacher_or_remove': {
    zh: '请选择老师，或指定 remove: true 取消分配（二者选一）',
    en: 'Choose a teacher, or send remove: true to remove the assignment (one of the two)',
  },
  'care.v.head_duty_class_only': {
    zh: '班主任只能分配给整个班级，不能分配给单个学生',
    en: 'A head teacher is assigned to the whole class, not to one student',
  },
  'care.v.time_invalid': { zh: '时间格式需为 HH:mm（00:00-23:59）', en: 'A time is HH:mm (00:00-23:59)' },
  'care.v.slot_name_invalid': { zh: '请输入时间段名称（最多 30 个字符）', en: 'Please input a slot name (at most 30 characters)' },
  'care.v.weekdays_invalid': { zh: '请选择星期（1-7，至少一天，不能重复）', en: 'Choose weekdays 1-7: at least one, none twice' },
  'care.v.start_before_end': { zh: '开始时间需早于结束时间', en: 'The start must be before the end' },
  'care.v.class_time_ids_invalid': { zh: '时间段最多 20 个', en: 'At most 20 time slots' },
  'care.class_not_found': { zh: '该晚托班不存在', en: 'No such after-school-care class' },
  'care.teacher_invalid': {
    zh: '所选老师不存在、已离职，或不是本机构的老师/班主任',
    en: 'The teacher does not exist, has left, or is not a teacher or head teacher of this school',
  },
  'care.class_time_not_found': { zh: '所选时间段不存在', en: 'No such time slot' },
  'care.students_not_found': { zh: '以下学生不存在或不是在读学生：{ids}', en: 'These students do not exist or are not active: {ids}' },
  'care.student_in_class': {
    zh: '学生「{student}」已在晚托班「{class}」中，一名学生只能加入一个晚托班',
    en: '{student} is already in the class {class}: a student is in one after-school-care class only',
  },
  'care.capacity_exceeded': {
    zh: '班级容量 {capacity} 人，现有 {headcount} 人，还能添加 {room} 人，本次选择了 {count} 人，未添加任何学生',
    en: 'The class holds {capacity} and has {headcount}: room for {room}, but {count} were chosen; nobody was added',
  },
  'care.capacity_below_headcount': {
    zh: '班级现有 {headcount} 名学生，容量不能小于 {headcount}',
    en: 'The class has {headcount} students: the capacity cannot be below {headcount}',
  },
  'care.student_not_in_class': { zh: '该学生不在此晚托班中', en: 'This student is not in this class' },
  'care.class_has_students': {
    zh: '该班级还有 {count} 名学生，请先移出全部学生再删除',
    en: 'The class still has {count} students: remove them all before deleting it',
  },
} satisfies Record<string, Bilingual>;
