import type { Bilingual } from './bilingual';

/** Homework module (homework.*). */
export const homeworkMessages = {
  'homework.class_not_found': { zh: '未找到该班级，或不是你负责的班级', en: 'Class not found, or not one of your classes' },
  'homework.session_not_found': { zh: '未找到该课次，或不属于这个兴趣班', en: 'Session not found, or not a session of this class' },
  'homework.not_found': { zh: '未找到该作业，或不是你负责的班级的作业', en: 'Homework not found, or not of one of your classes' },
  'homework.student_not_found': { zh: '未找到该学生，或不是你负责的学生', en: 'Student not found, or not one of your students' },
  'homework.students_not_found': { zh: '以下学生不在这次作业的名单里：{ids}', en: 'These students are not on this homework: {ids}' },
  'homework.no_students': { zh: '这个班级还没有在读学生，不能布置作业', en: 'The class has no enrolled students yet: no homework can be set' },
  'homework.due_invalid': { zh: '截止日期不能早于今天，最多 {max} 天后', en: 'The due date cannot be before today, and at most {max} days ahead' },
  'homework.already_checked': {
    zh: '作业已由老师检查，不能再标记为已完成',
    en: 'The teacher has checked this homework: it cannot be marked done again',
  },
  'homework.guardian_only_done': { zh: '家长只能把作业标记为已完成', en: 'A guardian can only mark homework done' },
  'homework.request_reused': {
    zh: '这个请求编号已用于另一次操作，请刷新后重试',
    en: 'This request id was used for another action: refresh and try again',
  },
  'homework.v.date_invalid': { zh: '日期格式应为 YYYY-MM-DD', en: 'A date is YYYY-MM-DD' },
  'homework.v.request_id_invalid': { zh: '请求编号无效', en: 'Invalid request id' },
  'homework.v.file_invalid': { zh: '附件无效：请使用上传后得到的文件地址', en: 'Invalid attachment: use the address the upload gave' },
  'homework.v.files_invalid': { zh: '附件列表格式无效', en: 'Invalid attachment list' },
  'homework.v.files_too_many': { zh: '附件最多 {max} 个', en: 'At most {max} attachments' },
  'homework.v.kind_invalid': { zh: '班级类型只能是 care（晚托班）或 teaching（兴趣班）', en: 'The class kind is care or teaching' },
  'homework.v.class_invalid': { zh: '请选择班级', en: 'Choose a class' },
  'homework.v.session_invalid': { zh: '课次编号无效', en: 'Invalid session id' },
  'homework.v.session_care': { zh: '晚托班作业不能指定课次', en: 'Homework of a care class has no session' },
  'homework.v.title_required': { zh: '请填写作业标题（最多 50 个字符）', en: 'Give the homework a title (at most 50 characters)' },
  'homework.v.content_required': { zh: '请填写作业内容（最多 2000 个字符）', en: 'Describe the homework (at most 2000 characters)' },
  'homework.v.homework_invalid': { zh: '作业编号无效', en: 'Invalid homework id' },
  'homework.v.student_invalid': { zh: '学生编号无效', en: 'Invalid student id' },
  'homework.v.students_invalid': { zh: '请选择 1 到 200 名不重复的学生', en: 'Choose 1 to 200 different students' },
  'homework.v.state_invalid': { zh: '状态只能是 todo（未完成）、done（已完成）或 checked（已检查）', en: 'The state is todo, done or checked' },
} satisfies Record<string, Bilingual>;
