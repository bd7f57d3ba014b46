import { defineStrings, type KeyOf } from '../../i18n/strings';

/**
 * Children's personal information (issue 37), the guardian's and the public side: the consent screen, the documents'
 * pages, 我的 → 隐私与数据. The phone app and the consoles share these (no UI library here).
 */
export const privacyStrings = defineStrings({
  // the documents
  'doc.privacy': { zh: '隐私政策', en: 'Privacy policy' },
  'doc.children': { zh: '儿童个人信息保护规则', en: "Children's personal-information rules" },
  'doc.version': { zh: '第 {n} 版 · {day} 发布', en: 'Version {n} · published {day}' },
  'doc.read_other': { zh: '另见', en: 'See also' },
  'doc.empty': { zh: '该文件暂无内容', en: 'This document has no text yet' },
  // the consent screen
  'consent.intro': {
    zh: '为保护孩子的个人信息，请先阅读以下两份文件。您同意之前，应用不会向您展示孩子的任何信息。',
    en: 'To protect your child’s personal information, read these two documents first. Until you accept, the app shows nothing about your child.',
  },
  'consent.changed': {
    zh: '文件刚刚更新，已为您显示新版本，请阅读后再同意',
    en: 'The documents have just changed: the new versions are shown, read them and accept again',
  },
  'consent.already': { zh: '您已同意当前版本', en: 'You have accepted the current versions' },
  'consent.children': { zh: '适用于以下孩子', en: 'For these children' },
  'consent.optional': {
    zh: '以下两项为可选的单独同意，不影响使用；可随时在“我的 → 隐私与数据”中修改',
    en: 'These two are separate and optional; change them any time under Me → Privacy and data',
  },
  'consent.photos': { zh: '照片', en: 'Photos' },
  'consent.photos_hint': {
    zh: '允许老师在日报、作业和评语中使用孩子的照片',
    en: 'Teachers may use photos of the child in daily reports, homework and comments',
  },
  'consent.health': { zh: '健康备注', en: 'Health notes' },
  'consent.health_hint': {
    zh: '允许学校保存孩子的过敏等健康备注，用于用餐与照护',
    en: 'The school may keep health notes (such as allergies) for dinner and care',
  },
  'consent.accept': { zh: '同意并继续', en: 'Accept and continue' },
  'consent.continue': { zh: '继续', en: 'Continue' },
  'consent.decline': { zh: '不同意', en: 'Decline' },
  'consent.decline_title': { zh: '不同意将无法查看孩子的信息', en: 'Without it the app cannot show your child' },
  'consent.decline_body': {
    zh: '依据《个人信息保护法》，在您同意《隐私政策》和《儿童个人信息保护规则》之前，应用无法向您展示孩子的任何信息。您可以稍后再来阅读并同意，或先退出登录。',
    en: 'Under the Personal Information Protection Law the app cannot show anything about your child until you accept the privacy policy and the children’s rules. Come back and accept later, or sign out.',
  },
  'consent.back_to_read': { zh: '返回阅读', en: 'Back to the documents' },
  'consent.sign_out': { zh: '退出登录', en: 'Sign out' },
  'consent.choices_failed': {
    zh: '文件已同意，但照片或健康备注的选择未能保存，可在“我的 → 隐私与数据”中再设置',
    en: 'Accepted, but the photo or health choice did not save: set it again under Me → Privacy and data',
  },
  'consent.no_children': { zh: '您的账号下没有在读的孩子', en: 'Your account has no enrolled child' },
  // 我的 → 隐私与数据
  'me.privacy': { zh: '隐私与数据', en: 'Privacy and data' },
  'me.policies': { zh: '隐私政策与儿童个人信息保护规则', en: "Privacy policy and children's rules" },
  'pd.consents': { zh: '单独同意', en: 'Separate consents' },
  'pd.undecided': { zh: '尚未选择', en: 'Not chosen yet' },
  'pd.withdraw_photos': {
    zh: '撤回后立即生效：老师不能再上传{name}的照片，孩子的头像将被移除。确定撤回吗？',
    en: "Takes effect at once: teachers can no longer attach {name}'s photos and the child's picture is removed. Withdraw?",
  },
  'pd.withdraw_health': {
    zh: '撤回后立即生效，已保存的{name}的健康备注（如过敏）将被删除，无法恢复。确定撤回吗？',
    en: "Takes effect at once and {name}'s stored health note (such as allergies) is erased for good. Withdraw?",
  },
  'pd.withdraw': { zh: '撤回', en: 'Withdraw' },
  'pd.saved': { zh: '已保存', en: 'Saved' },
  'pd.documents': { zh: '隐私政策与儿童规则', en: 'Policy and children’s rules' },
  'pd.accepted_at': { zh: '已于 {at} 同意当前版本', en: 'Current versions accepted on {at}' },
  'pd.not_accepted': { zh: '尚未同意当前版本', en: 'Current versions not accepted' },
  'pd.withdraw_documents': { zh: '撤回同意', en: 'Withdraw acceptance' },
  'pd.withdraw_documents_confirm': {
    zh: '撤回后，应用将不再向您展示{name}的信息，并会再次请您阅读并同意。确定撤回吗？',
    en: 'The app will stop showing {name} and ask you to read and accept again. Withdraw?',
  },
  'pd.log': { zh: '访问记录', en: 'Access log' },
  'pd.log_hint': {
    zh: '学校工作人员每次查看或导出{name}的信息都会记录在这里',
    en: "Every time school staff read or export {name}'s data it is recorded here",
  },
  'pd.log_empty': { zh: '还没有人查看过孩子的信息', en: 'Nobody has read the child’s data yet' },
  'pd.data': { zh: '孩子的数据', en: 'The child’s data' },
  'pd.export': { zh: '下载孩子的全部信息', en: 'Download everything about the child' },
  'pd.export_hint': { zh: '一个 zip 文件，包含学校保存的孩子的全部信息', en: 'A zip of everything the school holds about the child' },
  'pd.export_wechat': {
    zh: '微信内可能无法保存文件：请点右上角“…”，选择“在浏览器打开”后再下载',
    en: 'WeChat may not save files: tap “…” at the top right, open in the browser, then download',
  },
  'pd.export_name': { zh: '{name}-个人信息.zip', en: '{name}-personal-data.zip' },
  'pd.correction': { zh: '申请更正', en: 'Ask for a correction' },
  'pd.correction_hint': { zh: '告诉学校哪些信息有误', en: 'Tell the school what is wrong' },
  'pd.correction_placeholder': {
    zh: '请说明哪项信息有误、正确的内容是什么',
    en: 'Say which information is wrong and what is right',
  },
  'pd.correction_required': { zh: '请填写需要更正的内容', en: 'Say what to correct' },
  'pd.submit': { zh: '提交', en: 'Send' },
  'pd.cancel': { zh: '取消', en: 'Cancel' },
  'pd.deletion': { zh: '申请删除', en: 'Ask for deletion' },
  'pd.deletion_hint': { zh: '删除学校保存的孩子的个人信息', en: "Erase the child's personal data the school holds" },
  'pd.deletion_confirm': {
    zh: '删除后无法恢复：{name}的姓名、照片、健康备注等个人信息将从所有位置清除，法律要求保存的缴费记录保留但不再能识别孩子。学校将在 {days} 天内完成。确定申请删除吗？',
    en: "This cannot be undone: {name}'s name, photos, health notes and other personal data are erased everywhere; payment records the law requires stay, with the child no longer named. The school completes it within {days} days. Ask for deletion?",
  },
  'pd.deletion_ok': { zh: '确定删除', en: 'Ask for deletion' },
  'pd.requested': { zh: '申请已提交，学校将在 {day} 前处理', en: 'Sent: the school handles it by {day}' },
  'pd.requests': { zh: '我的申请', en: 'My requests' },
  'pd.requests_empty': { zh: '还没有提交过申请', en: 'No requests yet' },
  'pd.kind.correction': { zh: '更正', en: 'Correction' },
  'pd.kind.deletion': { zh: '删除', en: 'Deletion' },
  'pd.status.open': { zh: '处理中', en: 'Open' },
  'pd.status.done': { zh: '已完成', en: 'Done' },
  'pd.status.refused': { zh: '未通过', en: 'Refused' },
  'pd.due': { zh: '{day} 前处理', en: 'Due {day}' },
  'pd.overdue': { zh: '已超期', en: 'Overdue' },
  'pd.sent_at': { zh: '{at} 提交', en: 'Sent {at}' },
  'pd.result': { zh: '学校答复：{note}', en: 'The school says: {note}' },
  'pd.no_children': { zh: '您的账号下没有在读的孩子', en: 'Your account has no enrolled child' },
  // who read what (the access log)
  'role.1': { zh: '机构管理员', en: 'Admin' },
  'role.2': { zh: '老师', en: 'Teacher' },
  'role.5': { zh: '班主任', en: 'Head teacher' },
  'role.6': { zh: '家长', en: 'Guardian' },
  'role.9': { zh: '平台运营', en: 'Operator' },
  'what.profile': { zh: '档案', en: 'Profile' },
  'what.guardians': { zh: '监护人', en: 'Guardians' },
  'what.pickup': { zh: '接送人', en: 'Pick-up people' },
  'what.health': { zh: '健康备注', en: 'Health notes' },
  'what.photos': { zh: '照片', en: 'Photos' },
  'what.export': { zh: '导出', en: 'Export' },
  'what.call': { zh: '拨打电话', en: 'Call' },
  'what.messages': { zh: '家校消息', en: 'Family messages' },
  'log.many': { zh: '等 {n} 名学生', en: 'and {n} children in all' },
});

export type PrivacyKey = KeyOf<typeof privacyStrings>;

const ROLE_KEYS: Record<number, PrivacyKey> = { 1: 'role.1', 2: 'role.2', 5: 'role.5', 6: 'role.6', 9: 'role.9' };

/** Who read a child's data, as the access log names their role (an unknown role as its number). */
export const roleLabel = (s: (k: PrivacyKey) => string, role: number): string => (ROLE_KEYS[role] ? s(ROLE_KEYS[role]) : String(role));
