import { defineStrings, type KeyOf } from '../../i18n/strings';

/**
 * Family conversations (issue 40): the phone's pages (the guardian's chat, the staff's list and chat, office hours in
 * 设置) and the consoles' /principal_chats, /teacher_chats, /A_chats. The API's refusals come with their own text
 * (packages/shared/src/messages/conversations.ts).
 */
export const conversationsStrings = defineStrings({
  // entries
  'entry.parent': { zh: '和老师聊天', en: 'Chat with the teachers' },
  'entry.parent_hint': { zh: '孩子的班主任和当班老师都能看到', en: "Seen by the child's head teacher and teachers on duty" },
  'entry.staff': { zh: '家长消息', en: 'Family messages' },
  'entry.unread': { zh: '{n} 条未读', en: '{n} unread' },
  'entry.all_read': { zh: '没有未读', en: 'All read' },
  // the conversation
  'chat.title': { zh: '和老师聊天', en: 'Chat with the teachers' },
  'chat.with_family': { zh: '{name}的家长', en: "{name}'s family" },
  'chat.members': { zh: '会话成员：{names}', en: 'In this conversation: {names}' },
  'chat.empty': { zh: '还没有消息，说点什么吧', en: 'No messages yet' },
  'chat.empty_school': { zh: '家长还没有发来消息', en: 'The family has not written yet' },
  'chat.older': { zh: '查看更早的消息', en: 'Earlier messages' },
  'chat.no_older': { zh: '没有更早的消息了', en: 'No earlier messages' },
  'chat.retracted': { zh: '{name} 撤回了一条消息', en: '{name} retracted a message' },
  'chat.retracted_me': { zh: '你撤回了一条消息', en: 'You retracted a message' },
  'chat.retracted_admin': { zh: '已撤回', en: 'Retracted' },
  'chat.read': { zh: '已读', en: 'Read' },
  'chat.unread': { zh: '未读', en: 'Unread' },
  'chat.urgent': { zh: '紧急', en: 'Urgent' },
  'chat.quick': { zh: '快捷回复', en: 'Quick reply' },
  'chat.photo': { zh: '照片', en: 'Photo' },
  'chat.photo_add': { zh: '发送照片', en: 'Send a photo' },
  'chat.photo_only_images': { zh: '请选择图片', en: 'Choose an image' },
  'chat.photo_no_consent': {
    zh: '该学生的监护人未同意使用照片',
    en: "The child's guardians have not consented to photos",
  },
  'chat.placeholder': { zh: '输入消息…', en: 'Write a message…' },
  'chat.send': { zh: '发送', en: 'Send' },
  'chat.urgent_toggle': { zh: '紧急', en: 'Urgent' },
  'chat.urgent_hint': { zh: '紧急消息会立即通知当班的班主任', en: 'An urgent message goes to the head teacher on duty at once' },
  'chat.retract': { zh: '撤回', en: 'Retract' },
  'chat.retract_hint': { zh: '发出 2 分钟内可以撤回，撤回后会留下记录', en: 'Within 2 minutes of sending; a mark stays' },
  'chat.retracted_ok': { zh: '已撤回', en: 'Retracted' },
  'chat.cancel': { zh: '取消', en: 'Cancel' },
  'chat.me': { zh: '我', en: 'Me' },
  'chat.admin_note': {
    zh: '管理员查看会话会被记录（安全保护需要）',
    en: 'An admin reading a conversation is logged (safeguarding)',
  },
  'chat.office_closed': {
    zh: '老师不在办公时间，学校将于 {at} 回复；紧急情况请勾选“紧急”或直接致电学校',
    en: 'The teachers are off duty: the school answers {at}; for an emergency tick “Urgent” or call the school',
  },
  'chat.office_closed_unknown': {
    zh: '老师不在办公时间，学校会尽快回复；紧急情况请勾选“紧急”或直接致电学校',
    en: 'The teachers are off duty: the school answers as soon as it can; for an emergency tick “Urgent” or call the school',
  },
  'chat.no_children': { zh: '还没有绑定孩子', en: 'No child linked yet' },
  'chat.choose': { zh: '选择左侧的会话', en: 'Choose a conversation on the left' },
  // relative days of "answers at"
  'day.today': { zh: '今天', en: 'today' },
  'day.tomorrow': { zh: '明天', en: 'tomorrow' },
  'day.weekday': { zh: '周{d}', en: '{d}' },
  // the list
  'list.title': { zh: '家长消息', en: 'Family messages' },
  'list.search': { zh: '搜索学生姓名', en: 'Search a child' },
  'list.all': { zh: '全部', en: 'All' },
  'list.unread_only': { zh: '只看未读', en: 'Unread only' },
  'list.empty': { zh: '还没有家长消息', en: 'No family messages yet' },
  'list.empty_unread': { zh: '没有未读消息', en: 'Nothing unread' },
  'list.no_message': { zh: '暂无消息', en: 'No messages yet' },
  'list.urgent': { zh: '紧急', en: 'Urgent' },
  'list.photo': { zh: '[照片]', en: '[Photo]' },
  // office hours
  'office.title': { zh: '办公时间', en: 'Office hours' },
  'office.hint': {
    zh: '办公时间外不会收到家长消息的提醒，家长会看到学校何时回复',
    en: 'Outside these hours you are not told of family messages; families see when the school answers',
  },
  'office.days': { zh: '工作日', en: 'Days' },
  'office.start': { zh: '开始', en: 'From' },
  'office.end': { zh: '结束', en: 'To' },
  'office.open_now': { zh: '现在在办公时间内', en: 'Within your office hours now' },
  'office.closed_now': { zh: '现在在办公时间外', en: 'Outside your office hours now' },
  'office.default': { zh: '默认时间（尚未设置）', en: 'Default hours (not set yet)' },
  'office.save': { zh: '保存办公时间', en: 'Save office hours' },
  'office.saved': { zh: '办公时间已保存', en: 'Office hours saved' },
  'office.need_days': { zh: '请至少选择一天', en: 'Choose at least one day' },
  'office.bad_range': { zh: '开始时间须早于结束时间', en: 'The start must be before the end' },
});

export type ConversationsKey = KeyOf<typeof conversationsStrings>;

/** ISO weekdays 1–7 as the pickers show them: 一 … 日 / Mon … Sun. */
export const WEEKDAY_LABELS: Record<number, { zh: string; en: string }> = {
  1: { zh: '一', en: 'Mon' },
  2: { zh: '二', en: 'Tue' },
  3: { zh: '三', en: 'Wed' },
  4: { zh: '四', en: 'Thu' },
  5: { zh: '五', en: 'Fri' },
  6: { zh: '六', en: 'Sat' },
  7: { zh: '日', en: 'Sun' },
};
