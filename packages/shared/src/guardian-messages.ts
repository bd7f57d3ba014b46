/**
 * Telling guardians things (issue 24): the kinds of message a guardian gets, the channel each goes by (WeChat first,
 * SMS as the fallback), and what a WeChat refusal means. Pure; used by the API's messages module and the settings.
 *
 * Every kind is also an SMS kind (SMS_KINDS) with the same variables: a message's params hold them, so the SMS path
 * (SmsTexts) sends it unchanged when WeChat cannot. The quiet hours (21:00–07:00 school time, notices.ts smsSendAt)
 * hold both channels, except for the urgent kinds (messageSendAt): where the child is and what went wrong cannot wait
 * for the morning (a child picked up at 21:10 is news at 21:10).
 */
import { smsSendAt } from './notices';
import { cutText, type SmsKind } from './sms';

export interface GuardianMessageKindSpec {
  zh: string;
  en: string;
  /** the params shown as the WeChat template's keyword1, keyword2, … (in order) */
  keywords: readonly string[];
  /** a guardian cannot turn it off (no 'none'): the exception alerts */
  required?: boolean;
  /** sent at once, in the quiet hours too: the child's arrival and departure, the exception alerts */
  urgent?: boolean;
}

/** Every kind of message a guardian gets; each is the SMS kind of the same name. */
export const GUARDIAN_MESSAGE_KINDS = {
  'flow.arrived': { zh: '到校/入园提醒', en: 'Arrived', keywords: ['student', 'time', 'school'], urgent: true },
  'flow.left': { zh: '离园提醒（接送人）', en: 'Left, and who picked up', keywords: ['student', 'time', 'by', 'school'], urgent: true },
  'alert.raised': { zh: '异常提醒', en: 'Alert', keywords: ['student', 'class', 'what', 'school'], required: true, urgent: true },
  'leave.reviewed': { zh: '请假审核结果', en: 'Leave reviewed', keywords: ['student', 'start_day', 'end_day', 'result', 'note'] },
  'notice.important': { zh: '重要通知', en: 'Important notice', keywords: ['title', 'school'] },
  'notice.remind': { zh: '未读通知提醒', en: 'Unread notice reminder', keywords: ['title', 'school'] },
  'homework.set': { zh: '作业布置', en: 'Homework set', keywords: ['student', 'title', 'due', 'school'] },
  'contract.expiring': { zh: '合同到期提醒', en: 'Contract expiring', keywords: ['student', 'date', 'units', 'school'] },
  'contract.renewed': { zh: '合同续约待支付', en: 'Contract renewed', keywords: ['student', 'package', 'start', 'end', 'price'] },
  'exam.published': { zh: '成绩发布', en: 'Scores published', keywords: ['student', 'exam', 'subject', 'school'] },
  'report.daily': { zh: '每日反馈', en: 'Daily report', keywords: ['student', 'day', 'school'] },
  'family.message': { zh: '老师的消息', en: 'Message from the school', keywords: ['school', 'from', 'time'] },
} as const satisfies { [K in SmsKind]?: GuardianMessageKindSpec };

export type GuardianMessageKind = keyof typeof GUARDIAN_MESSAGE_KINDS;
export const GUARDIAN_MESSAGE_KIND_NAMES = Object.keys(GUARDIAN_MESSAGE_KINDS) as GuardianMessageKind[];
export const isGuardianMessageKind = (v: string): v is GuardianMessageKind => Object.hasOwn(GUARDIAN_MESSAGE_KINDS, v);

/** How a guardian wants a kind: WeChat (SMS when not bound), SMS, both, or none. */
export const MESSAGE_CHANNELS = ['wechat', 'sms', 'both', 'none'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const isMessageChannel = (v: string): v is MessageChannel => (MESSAGE_CHANNELS as readonly string[]).includes(v);

/** A kind's channel when the guardian chose none: WeChat, every kind. */
export const DEFAULT_MESSAGE_CHANNEL: MessageChannel = 'wechat';
export const defaultMessageChannel = (_kind: GuardianMessageKind): MessageChannel => DEFAULT_MESSAGE_CHANNEL;

/** The channels a guardian may choose for a kind (an alert cannot be turned off: no 'none'). */
export function messageChannelsOf(kind: GuardianMessageKind): readonly MessageChannel[] {
  const spec: GuardianMessageKindSpec = GUARDIAN_MESSAGE_KINDS[kind];
  return spec.required ? MESSAGE_CHANNELS.filter((c) => c !== 'none') : MESSAGE_CHANNELS;
}

export interface MessageRoute {
  wechat: boolean;
  sms: boolean;
}

/**
 * Where a message goes, from the guardian's channel for its kind (null: the default) and whether they are bound to
 * the official account: 'wechat' → WeChat when bound, else SMS; 'both' → WeChat when bound and SMS; 'sms' → SMS;
 * 'none' → nothing, except a kind that cannot be turned off (alerts), which follows the 'wechat' rule.
 */
export function messageRoute(kind: GuardianMessageKind, channel: MessageChannel | null | undefined, bound: boolean): MessageRoute {
  let c: MessageChannel = channel && isMessageChannel(channel) ? channel : defaultMessageChannel(kind);
  if (c === 'none' && (GUARDIAN_MESSAGE_KINDS[kind] as GuardianMessageKindSpec).required) c = 'wechat';
  switch (c) {
    case 'wechat':
      return { wechat: bound, sms: !bound };
    case 'both':
      return { wechat: bound, sms: true };
    case 'sms':
      return { wechat: false, sms: true };
    case 'none':
      return { wechat: false, sms: false };
  }
}

/**
 * WeChat's refusals of a template message that mean it cannot reach this guardian by WeChat, so the SMS goes instead:
 * not following the account (43004) or refusing its messages (43101), a bad or foreign openid (40003), a template
 * not ours or removed (40037, 40036), bad data (47003), the day's quota spent (45009), the user blocked (43019).
 */
export const WECHAT_SMS_FALLBACK_CODES: readonly number[] = [43004, 43101, 40003, 40037, 40036, 47003, 45009, 43019];

/**
 * WeChat's refusals worth trying again with the same message: busy (-1), a token just expired or replaced (40001,
 * 42001, 40014: the client takes a fresh one), a minute's rate limit (45011), and HTTP 5xx (as negative or 5xx codes).
 */
export const WECHAT_TRANSIENT_CODES: readonly number[] = [-1, 40001, 40014, 42001, 45011];

/** What a refusal means: 'sms' (send the SMS instead, once), 'retry' (later, with backoff). */
export function wechatFailure(errcode: number): 'sms' | 'retry' {
  if (WECHAT_TRANSIENT_CODES.includes(errcode) || (errcode >= 500 && errcode < 600)) return 'retry';
  return 'sms';
}

/** Whether WeChat's refusal `errcode` hands the message to SMS (anything not transient: the guardian must hear). */
export const smsFallbackOn = (errcode: number): boolean => wechatFailure(errcode) === 'sms';

/** The longest value of a template message's keyword WeChat accepts (characters). */
export const WECHAT_KEYWORD_MAX = 20;

/** A template message's data: { keyword1: { value }, … } from the kind's params, each value cut to WECHAT_KEYWORD_MAX. */
export function wechatTemplateData(kind: GuardianMessageKind, params: Record<string, string>): Record<string, { value: string }> {
  const spec: GuardianMessageKindSpec = GUARDIAN_MESSAGE_KINDS[kind];
  const data: Record<string, { value: string }> = {};
  spec.keywords.forEach((k, i) => {
    data[`keyword${i + 1}`] = { value: cutText(params[k] ?? '', WECHAT_KEYWORD_MAX) };
  });
  return data;
}

/**
 * When a message of `kind` due at `now` goes out, on either channel: at once for the urgent kinds, otherwise as a text
 * would (smsSendAt: held to 07:00 school time in the quiet hours).
 */
export function messageSendAt(kind: GuardianMessageKind, now: Date, timezone: string): Date {
  return (GUARDIAN_MESSAGE_KINDS[kind] as GuardianMessageKindSpec).urgent ? now : smsSendAt(now, timezone);
}
