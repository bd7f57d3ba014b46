import type { Bilingual } from './bilingual';

/** Notices module (notices.*). */
export const noticesMessages = {
  'notices.not_found': { zh: '未找到该通知', en: 'No such notice' },
  'notices.class_not_found': { zh: '以下班级不存在或不是你负责的班级：{ids}', en: 'These classes do not exist or are not yours: {ids}' },
  'notices.school_admin_only': { zh: '只有校长（管理员）可以向全校发布通知', en: 'Only the principal (admin) publishes to the whole school' },
  'notices.no_recipients': { zh: '所选范围内没有可接收通知的人', en: 'Nobody in that scope can receive the notice' },
  'notices.attachment_not_found': { zh: '附件不存在，请重新上传', en: 'An attachment does not exist: upload it again' },
  'notices.content_empty': { zh: '通知内容不能为空', en: 'The notice has no content' },
  'notices.request_reused': { zh: '该请求编号已用于另一次操作', en: 'This request id was used for another operation' },
  'notices.nothing_to_remind': { zh: '所有接收人都已读，无需提醒', en: 'Every recipient has read it: nobody to remind' },
  'notices.remind_too_soon': {
    zh: '每条通知每小时最多提醒一次，请在 {time} 之后再试',
    en: 'A notice is reminded at most once an hour: try again after {time}',
  },
  'notices.v.title_required': { zh: '请输入通知标题（最多 60 个字符）', en: 'Enter a title (at most 60 characters)' },
  'notices.v.content_required': { zh: '请输入通知内容', en: 'Enter the content' },
  'notices.v.content_too_long': { zh: '通知内容过长（最多 20000 个字符）', en: 'The content is too long (at most 20000 characters)' },
  'notices.v.scope_invalid': { zh: '发布范围应为 classes（班级）或 school（全校）', en: 'The scope is classes or school' },
  'notices.v.classes_invalid': { zh: '请选择 1 到 50 个不重复的班级', en: 'Choose 1 to 50 classes, each once' },
  'notices.v.class_invalid': { zh: '班级编号无效', en: 'Invalid class id' },
  'notices.v.classes_for_scope': { zh: '按班级发布须选择班级；全校发布不选班级', en: 'A class notice needs classes; a school notice takes none' },
  'notices.v.audience_invalid': {
    zh: '接收对象应为 guardians（家长）、staff（教职工）或 all（全部）',
    en: 'The audience is guardians, staff or all',
  },
  'notices.v.important_invalid': { zh: 'important 应为 true 或 false', en: 'important is true or false' },
  'notices.v.attachment_invalid': { zh: '附件编号无效，请通过上传获取', en: 'Invalid attachment id: upload the file' },
  'notices.v.attachments_invalid': { zh: '附件最多 10 个，且不能重复', en: 'At most 10 attachments, each once' },
  'notices.v.request_id_invalid': { zh: '请求编号无效（8-64 位字母、数字、_ 或 -）', en: 'Invalid request id (8-64 letters, digits, _ or -)' },
  'notices.v.box_invalid': { zh: 'box 应为 sent（已发送）、received（已收到）或 class（本班通知）', en: 'box is sent, received or class' },
  'notices.v.notice_invalid': { zh: '通知编号无效', en: 'Invalid notice id' },
} satisfies Record<string, Bilingual>;
