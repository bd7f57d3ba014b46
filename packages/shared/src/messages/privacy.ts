import type { Bilingual } from './bilingual';

/** Children's personal information: policies, consent, access log, requests, erasure (privacy.*). */
export const privacyMessages = {
  'privacy.consent_required': {
    zh: '请先阅读并同意《隐私政策》和《儿童个人信息保护规则》',
    en: "Please read and accept the privacy policy and the children's personal-information rules first",
  },
  'privacy.policy_changed': {
    zh: '隐私政策或儿童个人信息保护规则刚刚更新，请阅读新版本后再同意',
    en: 'The privacy policy or the children’s rules have just changed: read the new version and accept again',
  },
  'privacy.policy_conflict': {
    zh: '该文档已被他人发布了新版本，请刷新后再编辑',
    en: 'Someone else has just published a new version of this document: reload and edit again',
  },
  'privacy.policy_unchanged': { zh: '内容与当前版本相同，无需发布', en: 'Nothing differs from the current version' },
  'privacy.no_children': { zh: '您的账号下没有在读的孩子', en: 'Your account has no enrolled child' },
  'privacy.not_found': { zh: '未找到该学生', en: 'No such student' },
  'privacy.accept_first': {
    zh: '请先同意《隐私政策》和《儿童个人信息保护规则》',
    en: "Accept the privacy policy and the children's rules first",
  },
  'privacy.photo_consent_required': {
    zh: '监护人未同意使用{name}的照片，不能上传',
    en: "{name}'s guardians have not consented to photos: it cannot be attached",
  },
  'privacy.health_consent_required': {
    zh: '监护人未同意保存{name}的健康备注，不能保存',
    en: "{name}'s guardians have not consented to health notes: it cannot be stored",
  },
  'privacy.call_not_found': { zh: '未找到该联系人', en: 'No such contact' },
  'privacy.request_open': {
    zh: '已有一条同类申请正在处理中',
    en: 'A request of this kind is already being handled',
  },
  'privacy.request_not_found': { zh: '未找到该申请', en: 'No such request' },
  'privacy.request_handled': { zh: '该申请已处理', en: 'This request has been handled' },
  'privacy.request_conflict': {
    zh: '该申请刚被他人处理或修改，请刷新后再试',
    en: 'Someone else has just changed this request: reload and try again',
  },
  'privacy.v.date_invalid': { zh: '日期格式应为 YYYY-MM-DD', en: 'Dates are YYYY-MM-DD' },
  'privacy.v.id_invalid': { zh: '编号无效', en: 'Invalid id' },
  'privacy.v.version_invalid': { zh: '版本号无效', en: 'Invalid version' },
  'privacy.v.kind_invalid': { zh: '文档类型无效', en: 'Invalid document' },
  'privacy.v.title_required': { zh: '请填写标题', en: 'Enter a title' },
  'privacy.v.body_required': { zh: '正文至少 20 个字', en: 'The text needs at least 20 characters' },
  'privacy.v.summary_required': { zh: '请说明本次修改了什么', en: 'Say what this version changes' },
  'privacy.v.consent_kind_invalid': { zh: '同意事项无效', en: 'Invalid consent' },
  'privacy.v.granted_invalid': { zh: '请选择同意或撤回', en: 'Grant or withdraw' },
  'privacy.v.what_invalid': { zh: '信息类别无效', en: 'Invalid kind of data' },
  'privacy.v.call_target': { zh: '请选择一位监护人或接送人', en: 'Choose one guardian or pick-up person' },
  'privacy.v.request_kind_invalid': { zh: '申请类型无效', en: 'Invalid request' },
  'privacy.v.status_invalid': { zh: '状态无效', en: 'Invalid status' },
  'privacy.v.outcome_invalid': { zh: '处理结果无效', en: 'Invalid outcome' },
  'privacy.v.unmasked_invalid': { zh: '是否显示完整手机号只能是 1 或 0', en: 'unmasked is 1 or 0' },
} satisfies Record<string, Bilingual>;
