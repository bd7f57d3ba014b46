import type { Bilingual } from './bilingual';

/** Staff module (staff.*). */
export const staffMessages = {
  'staff.id_invalid': { zh: '请选择有效的账号', en: 'Please choose a valid account' },
  'staff.version_invalid': { zh: '版本号需为正整数', en: 'The version is a positive whole number' },
  'staff.person_name_invalid': {
    zh: '姓名需 1-32 个字符，只能包含文字、空格和常用标点',
    en: 'A name has 1-32 characters: letters, spaces and common punctuation',
  },
  'staff.teacher_role_invalid': { zh: '角色只能是 2（老师）或 5（班主任）', en: 'The role is 2 (teacher) or 5 (head teacher)' },
  'staff.staff_role_invalid': { zh: '角色只能是 1（管理员）、2（老师）或 5（班主任）', en: 'The role is 1 (admin), 2 (teacher) or 5 (head teacher)' },
  'staff.gender_invalid': { zh: '性别只能是 1（男）或 2（女）', en: 'The gender is 1 (male) or 2 (female)' },
  'staff.email_invalid': { zh: '邮箱格式不正确', en: 'Not a valid e-mail address' },
  'staff.duty_invalid': {
    zh: '职责只能是 shuttle（接送）、tutor（辅导）或 head（班主任），每项最多一次',
    en: 'Duties are shuttle, tutor or head, each at most once',
  },
  'staff.job_status_invalid': { zh: '在职状态只能是 1（在职）或 2（离职）', en: 'The job status is 1 (on job) or 2 (left)' },
  'staff.username_invalid': { zh: '用户名需 3-32 位，只能包含字母、数字和下划线', en: 'A user name has 3-32 letters, digits or underscores' },
  'staff.not_found': { zh: '该老师不存在', en: 'No such teacher' },
  'staff.admin_protected': {
    zh: '机构管理员账号不能在此修改、删除或设为离职',
    en: 'Institution admin accounts cannot be edited, deleted or set as left here',
  },
  'staff.mobile_taken': { zh: '手机号 {mobile} 已被本机构的「{name}」使用', en: 'The mobile {mobile} is already used by {name} in this institution' },
  'staff.username_taken': { zh: '用户名 {username} 已被使用', en: 'The user name {username} is already taken' },
  'staff.email_taken': { zh: '邮箱 {email} 已被其他账号使用', en: 'The e-mail {email} is already used by another account' },
  'staff.still_heads': {
    zh: '{name}仍是「{classes}」的班主任，请先更换',
    en: '{name} is still the head teacher of {classes}: assign another one first',
  },
  'staff.still_duty_shuttle': {
    zh: '{name}仍负责「{classes}」的接送，请先更换',
    en: '{name} still does the pick-up (shuttle) duty of {classes}: assign another teacher first',
  },
  'staff.still_duty_tutor': {
    zh: '{name}仍负责「{classes}」的辅导，请先更换',
    en: '{name} still does the tutoring duty of {classes}: assign another teacher first',
  },
  'staff.still_duty_head': {
    zh: '{name}仍负责「{classes}」的班主任工作，请先更换',
    en: '{name} still does the head-teacher duty of {classes}: assign another teacher first',
  },
  'staff.already_left': { zh: '{name}已是离职状态', en: '{name} has already left' },
  'staff.already_on_job': { zh: '{name}已是在职状态', en: '{name} is already on the job' },
} satisfies Record<string, Bilingual>;
