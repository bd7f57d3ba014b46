import type { Bilingual } from './bilingual';

/** Family conversations between a child's guardians and the school, and staff office hours (conversations.*). */
export const conversationsMessages = {
  'conversations.not_found': { zh: '会话不存在或无权查看', en: 'The conversation does not exist or is not yours to see' },
  'conversations.message_not_found': { zh: '消息不存在', en: 'The message does not exist' },
  'conversations.rate_limited': {
    zh: '发送太频繁，请 1 分钟后再试（每分钟最多 {max} 条）',
    en: 'Too many messages: try again in a minute (at most {max} a minute)',
  },
  'conversations.photo_consent_required': {
    zh: '该学生的监护人未同意使用照片，不能发送照片',
    en: "The child's guardians have not consented to photos: a photo cannot be sent",
  },
  'conversations.photo_not_yours': {
    zh: '照片不存在或不是您上传的，请重新上传',
    en: 'The photo does not exist or was not uploaded by you: upload it again',
  },
  'conversations.retract_too_late': { zh: '消息发出超过 2 分钟，不能撤回', en: 'A message can be retracted only within 2 minutes of sending it' },
  'conversations.retract_not_yours': { zh: '只能撤回自己发送的消息', en: 'Only your own messages can be retracted' },
  'conversations.already_retracted': { zh: '这条消息已撤回', en: 'This message was already retracted' },
  'conversations.urgent_family_only': { zh: '只有家长可以标记紧急', en: 'Only a guardian can mark a message urgent' },
  'conversations.quick_unknown': { zh: '快捷回复不存在', en: 'No such quick reply' },
  'conversations.v.id_invalid': { zh: '编号无效', en: 'Invalid id' },
  'conversations.v.student_invalid': { zh: '请选择学生', en: 'Choose a student' },
  'conversations.v.request_id_invalid': { zh: '请求编号无效', en: 'Invalid request id' },
  'conversations.v.photo_invalid': { zh: '照片地址无效，请重新上传图片', en: 'Invalid photo: upload an image again' },
  'conversations.v.quick_invalid': { zh: '快捷回复无效', en: 'Invalid quick reply' },
  'conversations.v.urgent_invalid': { zh: '紧急标记无效', en: 'Invalid urgent flag' },
  'conversations.v.empty': { zh: '请输入消息内容或选择照片', en: 'Write a message or choose a photo' },
  'conversations.v.quick_alone': { zh: '快捷回复不能与文字或照片同时发送', en: 'A quick reply is sent on its own' },
  'conversations.v.hours_invalid': {
    zh: '办公时间无效：开始时间须早于结束时间（HH:mm）',
    en: 'Invalid office hours: the start must be before the end (HH:mm)',
  },
  'conversations.v.hours_days': { zh: '请至少选择一天', en: 'Choose at least one day' },
} satisfies Record<string, Bilingual>;
