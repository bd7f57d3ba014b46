import type { SmsKind, SmsProviderName, SmsState } from '@wantuo/shared';
import { defineStrings } from '../../i18n/strings';

/** The SMS consoles (issue "SMS that reaches phones"): the operator's 短信通道 and the school's 短信记录. */
export const smsStrings = defineStrings({
  // message kinds (packages/shared/src/sms.ts SMS_KINDS)
  'kind.code.login': { zh: '登录验证码', en: 'Sign-in code' },
  'kind.code.resetpwd': { zh: '重置密码验证码', en: 'Password-reset code' },
  'kind.code.dealpwd': { zh: '支付密码验证码', en: 'Payment-password code' },
  'kind.school.welcome': { zh: '开通欢迎', en: 'Welcome' },
  'kind.school.expiring': { zh: '服务到期提醒', en: 'Service expiring' },
  'kind.leave.reviewed': { zh: '请假审核结果', en: 'Leave reviewed' },
  'kind.alert.raised': { zh: '异常提醒', en: 'Alert' },
  'kind.contract.expiring': { zh: '合同到期提醒', en: 'Contract expiring' },
  'kind.contract.renewed': { zh: '合同续约', en: 'Contract renewed' },
  'kind.exam.published': { zh: '成绩发布', en: 'Scores published' },
  'kind.notice.important': { zh: '重要通知', en: 'Important notice' },
  'kind.notice.remind': { zh: '通知提醒', en: 'Notice reminder' },
  'kind.flow.arrived': { zh: '到校提醒', en: 'Arrived' },
  'kind.flow.left': { zh: '离园提醒', en: 'Left' },
  'kind.homework.set': { zh: '作业布置', en: 'Homework set' },
  'kind.report.daily': { zh: '每日反馈', en: 'Daily report' },
  'kind.pickup.link': { zh: '接送码链接', en: 'Pick-up link' },
  'kind.family.message': { zh: '家长消息提醒', en: 'Family message notice' },
  // states
  'state.queued': { zh: '排队中', en: 'Queued' },
  'state.sending': { zh: '发送中', en: 'Sending' },
  'state.sent': { zh: '已提交', en: 'Submitted' },
  'state.delivered': { zh: '已送达', en: 'Delivered' },
  'state.failed': { zh: '失败', en: 'Failed' },
  // providers
  'provider.aliyun': { zh: '阿里云', en: 'Aliyun' },
  'provider.tencent': { zh: '腾讯云', en: 'Tencent Cloud' },
  'provider.outbox': { zh: '开发发件箱', en: 'Development outbox' },
  // counts
  'count.total': { zh: '总数', en: 'Total' },
  'count.sent': { zh: '发送', en: 'Sent' },
  'count.delivered': { zh: '送达', en: 'Delivered' },
  'count.failed': { zh: '失败', en: 'Failed' },
  'count.waiting': { zh: '等待', en: 'Waiting' },
  'count.units': { zh: '计费条数', en: 'Billed units' },
  'count.sent_hint': { zh: '已交给短信服务商的条数（含已送达和等待回执的）', en: 'Handed to the provider (delivered and awaiting a receipt)' },
  'count.units_hint': {
    zh: '服务商接收的计费条数：70 字以内为 1 条，更长的按 67 字一条计',
    en: 'Units the provider accepted: up to 70 characters is one, longer texts 67 a unit',
  },
  // tables
  'col.day': { zh: '日期', en: 'Day' },
  'col.school': { zh: '机构', en: 'School' },
  'col.time': { zh: '时间', en: 'Time' },
  'col.mobile': { zh: '手机号', en: 'Mobile' },
  'col.kind': { zh: '类型', en: 'Kind' },
  'col.provider': { zh: '通道', en: 'Provider' },
  'col.state': { zh: '状态', en: 'State' },
  'col.units': { zh: '条数', en: 'Units' },
  'col.error': { zh: '失败原因', en: 'Failure' },
  platform: { zh: '平台（验证码等）', en: 'Platform (codes etc.)' },
  school_n: { zh: '机构 #{id}', en: 'School #{id}' },
  handed_over: { zh: '转备用', en: 'Fallback' },
  handed_over_hint: { zh: '主通道无法发送，已转由备用通道发送', en: 'The main provider could not send it; the fallback provider sent it' },
  totals: { zh: '范围合计', en: 'Range total' },
  totals_line: {
    zh: '{from} 至 {to}：共 {total} 条，发送 {sent}，送达 {delivered}，失败 {failed}，等待 {waiting}，计费 {units} 条',
    en: '{from} to {to}: {total} texts, {sent} sent, {delivered} delivered, {failed} failed, {waiting} waiting, {units} units billed',
  },
  usage_empty: { zh: '这段时间没有短信', en: 'No texts in this period' },
  messages_empty: { zh: '没有符合条件的短信', en: 'No texts match' },
  messages_total: { zh: '共 {n} 条', en: '{n} texts' },
  range: { zh: '日期范围', en: 'Date range' },
  range_max: { zh: '最多 {n} 天', en: 'At most {n} days' },
  all_states: { zh: '全部状态', en: 'All states' },
  all_kinds: { zh: '全部类型', en: 'All kinds' },
  all_providers: { zh: '全部通道', en: 'All providers' },
  all_schools: { zh: '全部机构', en: 'All schools' },
  mobile_search: { zh: '搜索手机号', en: 'Search a mobile' },
  mobile_invalid: { zh: '手机号筛选需为 3-11 位数字', en: 'The mobile filter is 3 to 11 digits' },
  last_error: { zh: '上次失败：{e}', en: 'Last refusal: {e}' },
  // the expanded row
  content: { zh: '短信内容', en: 'Text' },
  template: { zh: '模板', en: 'Template' },
  provider_id: { zh: '服务商流水号', en: 'Provider message ID' },
  tries: { zh: '尝试次数', en: 'Tries' },
  created_at: { zh: '创建时间', en: 'Created' },
  sent_at: { zh: '提交时间', en: 'Submitted' },
  done_at: { zh: '完成时间', en: 'Finished' },
  none: { zh: '—', en: '—' },
  // the operator's page
  'op.gateways': { zh: '短信通道', en: 'SMS gateways' },
  'op.provider': { zh: '主通道', en: 'Main provider' },
  'op.fallback': { zh: '备用通道', en: 'Fallback provider' },
  'op.no_fallback': { zh: '未配置', en: 'None' },
  'op.no_gateways': {
    zh: '未配置短信网关：短信只写入开发发件箱（SMS_PROVIDER=outbox），不会发到手机。',
    en: 'No gateway is configured: texts go to the development outbox only (SMS_PROVIDER=outbox), never to phones.',
  },
  'op.sandbox': { zh: '沙箱', en: 'Sandbox' },
  'op.sandbox_hint': { zh: '使用本地模拟服务和沙箱账号，不会真正发出短信', en: 'The local fake with its sandbox account: nothing reaches a phone' },
  'op.template_code': { zh: '模板编号', en: 'Template' },
  'op.no_template': { zh: '未配置模板', en: 'No template' },
  'op.missing': { zh: '{n} 个类型未配置模板', en: '{n} kinds without a template' },
  'op.complete': { zh: '模板齐全', en: 'Every kind has a template' },
  'op.missing_hint': {
    zh: '没有模板的类型会转备用通道发送，无备用通道时发送失败。',
    en: 'A kind without a template goes to the fallback provider, or fails when there is none.',
  },
  'op.reports': { zh: '回执回调地址', en: 'Delivery-report callbacks' },
  'op.reports_hint': {
    zh: '在服务商控制台填写这些地址时，需在末尾加上 ?token= 和环境变量 SMS_REPORT_TOKEN 的值。',
    en: 'When entering these in the provider console, append ?token= and the value of SMS_REPORT_TOKEN.',
  },
  'op.today': { zh: '今日短信（全平台）', en: "Today's texts (whole platform)" },
  'op.usage': { zh: '用量', en: 'Usage' },
  'op.messages': { zh: '短信明细', en: 'Messages' },
  // the school's page
  'school.title': { zh: '短信记录', en: 'Text messages' },
  'school.hint': {
    zh: '本机构发出的短信（通知、提醒等）。失败的短信会显示服务商的原因，例如同一手机号当日发送已达上限。',
    en: "Your school's texts (notices, reminders…). A failed text shows the provider's reason, e.g. the mobile's daily limit.",
  },
  'school.usage': { zh: '每日用量', en: 'Daily usage' },
  'school.messages': { zh: '短信明细', en: 'Messages' },
});

export type SmsStringKey = Parameters<ReturnType<typeof smsStrings.use>>[0];

export const kindKey = (kind: SmsKind | string) => `kind.${kind}` as `kind.${SmsKind}`;
export const stateKey = (state: SmsState) => `state.${state}` as const;
export const providerKey = (provider: SmsProviderName) => `provider.${provider}` as const;
