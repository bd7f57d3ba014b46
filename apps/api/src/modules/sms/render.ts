import type { SmsKind } from '@wantuo/shared';

/**
 * The full text of each kind, as the outbox stores it and as the approved templates read at the providers (their
 * templates hold the same words with \${var} / {n} in place of the variables). The sign 【晚托平台】 is the provider's.
 */
const TEMPLATES: Record<SmsKind, (p: Record<string, string>) => string> = {
  'code.login': (p) => `【晚托平台】您的登录验证码为 ${p.code}，${p.minutes} 分钟内有效。如非本人操作，请忽略本短信。`,
  'code.resetpwd': (p) => `【晚托平台】您正在重置密码，验证码为 ${p.code}，${p.minutes} 分钟内有效。请勿告诉他人。`,
  'code.dealpwd': (p) => `【晚托平台】您正在设置机构支付密码，验证码为 ${p.code}，${p.minutes} 分钟内有效。请勿告诉他人。`,
  'school.welcome': (p) =>
    `【晚托平台】您申请的机构“${p.school}”已开通，试用 ${p.days} 天。请在登录页选择“短信登录”，用本手机号获取验证码登录；设置登录密码请点击“忘记密码”。`,
  'school.expiring': (p) =>
    `【晚托平台】您的机构“${p.school}”平台服务将于 ${p.date} 到期（还有 ${p.days} 天）。请机构管理员登录后进入“个人中心”（/principal_user）续费，可用账户余额或微信扫码支付；到期后有 ${p.grace} 天宽限期，之后只能查看、不能修改。`,
  'leave.reviewed': (p) => `【晚托平台】${p.student} ${p.start_day} 至 ${p.end_day} 的请假申请${p.result}。${p.note ? `备注：${p.note}` : ''}`,
  'alert.raised': (p) => `【晚托平台】${p.school}提醒：${p.student}（${p.class}）${p.what}。请及时处理。`,
  'contract.expiring': (p) =>
    `【晚托平台】${p.school}提醒：${p.student}的托管合同将于 ${p.date} 到期${p.units ? `，剩余 ${p.units} 次` : ''}。如需续约，请联系机构，或登录家长端在“合同”中续费支付。`,
  'contract.renewed': (p) =>
    `【晚托平台】${p.school}已为${p.student}自动续约“${p.package}”（${p.start} 至 ${p.end}，${p.price} 元），合同待支付。请登录家长端在“合同”中扫码支付。`,
  'notice.important': (p) => `【晚托平台】${p.school}重要通知：“${p.title}”。请登录家长端“通知”查看全文。`,
  'notice.remind': (p) => `【晚托平台】${p.school}提醒：您有一条未读通知“${p.title}”，请登录查看。`,
  'exam.published': (p) =>
    `【晚托平台】${p.school}：${p.student}的“${p.exam}”（${p.subject}）成绩已发布。请登录家长端在“成绩”中查看分数、班级排名和班级平均分。`,
  'flow.arrived': (p) => `【晚托平台】${p.school}：${p.student}已于 ${p.time} 到校入园。`,
  'flow.left': (p) => `【晚托平台】${p.school}：${p.student}已于 ${p.time} 离园，接送人：${p.by}。`,
  'report.daily': (p) =>
    `【晚托平台】${p.school}：${p.student} ${p.day} 的每日反馈已送达（入离园、晚餐、辅导、作业、积分和老师评语），请登录家长端在“每日反馈”中查看。`,
  'pickup.link': (p) =>
    `【晚托平台】${p.school}：${p.person}，${p.student}的家长授权您接孩子。离园时请打开 ${p.url} 出示接送码给老师扫码核验，请勿转发他人。`,
  'family.message': (p) => `【晚托平台】${p.school}的${p.from}于 ${p.time} 给您发来一条新消息，请登录家长端在“消息”中查看。`,
  'homework.set': (p) => `【晚托平台】${p.school}：${p.student}有新作业“${p.title}”，${p.due} 前完成。请登录家长端在“作业”中查看。`,
};

export function renderSms(kind: SmsKind, params: Record<string, string>): string {
  return TEMPLATES[kind](params);
}
