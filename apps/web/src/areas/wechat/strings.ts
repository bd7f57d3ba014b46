import { GUARDIAN_MESSAGE_KINDS, isGuardianMessageKind, type MessageChannel, type WechatDeliveryCounts } from '@wantuo/shared';
import { useCallback } from 'react';
import { pick } from '../../i18n/messages';
import { defineStrings, type KeyOf } from '../../i18n/strings';
import { currentLang, usePreferences } from '../../stores/preferences';

/** Parents in WeChat (issue 24): the parent's 消息通知, the school's 微信消息 and the operator's 公众号. */
export const wechatStrings = defineStrings({
  // channels (packages/shared/src/guardian-messages.ts MESSAGE_CHANNELS)
  'channel.wechat': { zh: '微信', en: 'WeChat' },
  'channel.sms': { zh: '短信', en: 'SMS' },
  'channel.both': { zh: '都要', en: 'Both' },
  'channel.none': { zh: '不接收', en: 'None' },
  // the parent's page
  'prefs.title': { zh: '消息通知', en: 'Notifications' },
  'prefs.hint': {
    zh: '选择每类消息的接收方式。选“微信”时，未绑定微信或微信发送失败会改发短信；到校、离园和异常提醒随时发送，其他消息在 21:00 至次日 07:00 之间暂缓，07:00 后发送。',
    en: 'Choose how each kind of message reaches you. With WeChat, an SMS goes instead when you are not bound or WeChat fails; arrivals, departures and alerts go at once, other messages between 21:00 and 07:00 wait until 07:00.',
  },
  'prefs.required_hint': { zh: '异常提醒关系孩子安全，不能关闭', en: "Alerts concern your child's safety and cannot be turned off" },
  'prefs.default': { zh: '默认', en: 'Default' },
  'prefs.save': { zh: '保存设置', en: 'Save' },
  'prefs.saved': { zh: '消息通知设置已保存', en: 'Notification settings saved' },
  'prefs.unchanged': { zh: '没有修改', en: 'Nothing changed' },
  'prefs.empty': { zh: '暂无可设置的消息', en: 'No messages to set' },
  'prefs.wechat_unbound_hint': {
    zh: '当前未绑定微信：选择“微信”的消息会以短信发送。在微信中打开家长页面即可绑定。',
    en: 'Not bound to WeChat: messages set to WeChat go by SMS. Open the parent page inside WeChat to bind.',
  },
  'bind.title': { zh: '微信绑定', en: 'WeChat binding' },
  'bind.bound': { zh: '已绑定', en: 'Bound' },
  'bind.unbound': { zh: '未绑定', en: 'Not bound' },
  'bind.bound_at': { zh: '绑定时间', en: 'Bound on' },
  'bind.openid': { zh: '微信标识', en: 'WeChat ID' },
  'bind.how': {
    zh: '在微信中打开学校公众号的家长页面，用手机验证码登录一次即可绑定，之后无需验证码。',
    en: "Open the school's parent page from its official account inside WeChat and sign in once with an SMS code: you are then bound and signed in without one.",
  },
  'bind.unbind': { zh: '解除绑定', en: 'Unbind' },
  'bind.unbind_confirm': { zh: '确定解除微信绑定？', en: 'Unbind WeChat?' },
  'bind.unbind_detail': {
    zh: '解除后，在微信中打开家长页面需重新用验证码登录，消息将以短信发送。',
    en: 'You will need an SMS code to sign in from WeChat again, and messages will go by SMS.',
  },
  'bind.unbound_done': { zh: '已解除微信绑定', en: 'WeChat unbound' },
  // counts
  'count.wechat_sent': { zh: '微信发送', en: 'WeChat sent' },
  'count.wechat_delivered': { zh: '微信送达', en: 'WeChat delivered' },
  'count.wechat_failed': { zh: '微信失败', en: 'WeChat failed' },
  'count.wechat_waiting': { zh: '等待发送', en: 'Waiting' },
  'count.sms_fallback': { zh: '转短信', en: 'SMS fallback' },
  'count.sms_direct': { zh: '直接短信', en: 'SMS direct' },
  'count.wechat_sent_hint': { zh: '微信已接收的模板消息（含已送达）', en: 'Template messages WeChat accepted (delivered included)' },
  'count.wechat_waiting_hint': {
    zh: '排队或发送中（夜间免打扰时段的消息 07:00 后发送）',
    en: 'Queued or sending (the quiet hours hold messages until 07:00)',
  },
  'count.sms_fallback_hint': {
    zh: '微信无法送达（如家长未关注公众号）而改发的短信',
    en: 'Texts sent because WeChat could not reach the guardian (e.g. not following the account)',
  },
  'count.sms_direct_hint': {
    zh: '家长选择短信或未绑定微信而直接发送的短信',
    en: 'Texts sent directly: the guardian chose SMS or is not bound',
  },
  // the school's page
  'school.bound': { zh: '已绑定微信的家长', en: 'Guardians bound to WeChat' },
  'school.bound_of': { zh: '共 {total} 位家长', en: 'of {total} guardians' },
  'school.rate': { zh: '绑定率', en: 'Bound' },
  'school.delivery': { zh: '消息送达', en: 'Message delivery' },
  'school.hint': {
    zh: '家长在微信中打开家长页面并登录一次即完成绑定。未绑定的家长收到短信。',
    en: 'A guardian binds by opening the parent page inside WeChat and signing in once. Guardians not bound get texts.',
  },
  'school.empty': { zh: '这段时间没有发给家长的消息', en: 'No messages to guardians in this period' },
  'school.totals': { zh: '范围合计', en: 'Range total' },
  'school.range': { zh: '日期范围', en: 'Date range' },
  'school.range_max': { zh: '最多 {n} 天；默认最近 {d} 个上课日', en: 'At most {n} days; by default the last {d} school days' },
  'col.day': { zh: '日期', en: 'Day' },
  'col.kind': { zh: '消息类型', en: 'Kind' },
  // the operator's page
  'op.account': { zh: '公众号', en: 'Official account' },
  'op.appid': { zh: 'AppID', en: 'AppID' },
  'op.mode': { zh: '模式', en: 'Mode' },
  'op.sandbox': { zh: '沙箱', en: 'Sandbox' },
  'op.real': { zh: '正式公众号', en: 'Real account' },
  'op.sandbox_hint': {
    zh: '本地模拟的公众号：消息不会发到微信，开发者可在 /api/dev/wechat/messages 查看。配置 WECHAT_OA_APPID、WECHAT_OA_SECRET、WECHAT_OA_TOKEN 后使用正式公众号。',
    en: 'The local stand-in: nothing reaches WeChat, developers read the messages at /api/dev/wechat/messages. Set WECHAT_OA_APPID, WECHAT_OA_SECRET and WECHAT_OA_TOKEN for the real account.',
  },
  'op.token': { zh: 'access_token', en: 'Access token' },
  'op.token_ok': { zh: '正常', en: 'Fresh' },
  'op.token_bad': { zh: '无法获取', en: 'Unavailable' },
  'op.bound': { zh: '已绑定家长（全平台）', en: 'Guardians bound (all schools)' },
  'op.templates': { zh: '模板消息', en: 'Template messages' },
  'op.templates_hint': {
    zh: '在公众号后台“模板消息”中添加模板，把模板 ID 填在对应的消息类型上。未设置模板的消息改发短信。',
    en: "Add the templates in the account's 模板消息 console and enter each template ID on its message kind. A kind without a template goes by SMS.",
  },
  'op.template_id': { zh: '模板 ID', en: 'Template ID' },
  'op.template_default': { zh: '沙箱默认', en: 'Sandbox default' },
  'op.template_missing': { zh: '未设置', en: 'Not set' },
  'op.template_invalid': { zh: '1-64 位字母、数字、下划线或短横线', en: '1 to 64 letters, digits, underscores or hyphens' },
  'op.updated': { zh: '{name} 于 {at} 修改', en: 'Changed by {name} at {at}' },
  'op.edit': { zh: '编辑', en: 'Edit' },
  'op.save': { zh: '保存', en: 'Save' },
  'op.cancel': { zh: '取消', en: 'Cancel' },
  'op.saved': { zh: '模板 ID 已保存', en: 'Template ID saved' },
});

export type WechatKey = KeyOf<typeof wechatStrings>;

export const channelKey = (c: MessageChannel) => `channel.${c}` as const;
export const countKey = (c: keyof WechatDeliveryCounts) => `count.${c}` as const;

/** The label of a guardian message kind in a language (the shared table's); the raw name for a kind this web does not know. */
export const kindLabelIn = (lang: 'zh-CN' | 'en', kind: string): string =>
  isGuardianMessageKind(kind) ? pick(lang, GUARDIAN_MESSAGE_KINDS[kind]) : kind;
export const kindLabel = (kind: string): string => kindLabelIn(currentLang(), kind);

/** The kind's label in the current language, as a hook. */
export function useKindLabel() {
  const lang = usePreferences((s) => s.lang);
  return useCallback((kind: string) => kindLabelIn(lang, kind), [lang]);
}
