/**
 * Text messages: the product's message kinds, their template variables, the providers' limits and the rules that
 * decide what happens to a message a gateway refused. Pure; used by the API's SMS module and the consoles.
 *
 * Mainland carriers only accept approved templates: each kind is one template per provider (its code comes from the
 * configuration, SMS_ALIYUN_TEMPLATES / SMS_TENCENT_TEMPLATES), sent with its variables rather than rendered text.
 * Aliyun names the variables (TemplateParam JSON); Tencent numbers them ({1}, {2}, … in `vars` order).
 */

export const SMS_PROVIDERS = ['aliyun', 'tencent', 'outbox'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];
/** the gateways with templates and receipts (the outbox is the development provider: it renders the full text) */
export const SMS_GATEWAYS = ['aliyun', 'tencent'] as const;
export type SmsGatewayName = (typeof SMS_GATEWAYS)[number];

export interface SmsKindSpec {
  /** the template variables in Tencent's order ({1}, {2}, …); Aliyun receives them by these names */
  vars: readonly string[];
  /** a verification-code template (the providers' own category, with stricter rules and priority routes) */
  code?: boolean;
  /** variables that are free text (names, titles): cut to the provider's limit with … instead of being refused */
  text: readonly string[];
}

/** Every kind of text the product sends. Adding one: here, in the outbox's rendering and in both providers' template lists. */
export const SMS_KINDS = {
  'code.login': { vars: ['code', 'minutes'], code: true, text: [] },
  'code.resetpwd': { vars: ['code', 'minutes'], code: true, text: [] },
  'code.dealpwd': { vars: ['code', 'minutes'], code: true, text: [] },
  'school.welcome': { vars: ['school', 'days'], text: ['school'] },
  'school.expiring': { vars: ['school', 'date', 'days', 'grace'], text: ['school'] },
  'leave.reviewed': { vars: ['student', 'start_day', 'end_day', 'result', 'note'], text: ['student', 'note'] },
  'alert.raised': { vars: ['school', 'student', 'class', 'what'], text: ['school', 'student', 'class', 'what'] },
  'contract.expiring': { vars: ['school', 'student', 'date', 'units'], text: ['school', 'student'] },
  'contract.renewed': { vars: ['school', 'student', 'package', 'start', 'end', 'price'], text: ['school', 'student', 'package'] },
  'exam.published': { vars: ['school', 'student', 'exam', 'subject'], text: ['school', 'student', 'exam', 'subject'] },
  'notice.important': { vars: ['school', 'title'], text: ['school', 'title'] },
  'notice.remind': { vars: ['school', 'title'], text: ['school', 'title'] },
  // issue 24 (guardians' messages: the SMS when WeChat cannot); appended, so the fakes' template codes of the kinds
  // before stay as they were
  'flow.arrived': { vars: ['school', 'student', 'time'], text: ['school', 'student'] },
  'flow.left': { vars: ['school', 'student', 'time', 'by'], text: ['school', 'student', 'by'] },
  'homework.set': { vars: ['school', 'student', 'title', 'due'], text: ['school', 'student', 'title'] },
  // issue 27 (the child's daily report, sent at departure with the report's link)
  'report.daily': { vars: ['school', 'student', 'day'], text: ['school', 'student'] },
  // issue 27 (a pick-up person's link to their pick-up code, sent when a guardian makes it)
  'pickup.link': { vars: ['school', 'student', 'person', 'url'], text: ['school', 'student', 'person'] },
  // issue 40 (a family conversation's notice: who wrote and when, never the message nor the child)
  'family.message': { vars: ['school', 'from', 'time'], text: ['school', 'from'] },
} as const satisfies Record<string, SmsKindSpec>;

export type SmsKind = keyof typeof SMS_KINDS;
export const SMS_KIND_NAMES = Object.keys(SMS_KINDS) as SmsKind[];

export const isSmsKind = (v: string): v is SmsKind => Object.hasOwn(SMS_KINDS, v);

/**
 * The longest value a template variable may take at each provider (characters). Aliyun: 35 for a notification's
 * variables; Tencent: 12 for personal and enterprise accounts' notification variables. Codes are digits and short.
 * A value past it is refused by the provider, so free text is cut first (cutSmsParams).
 */
export const SMS_PARAM_MAX: Record<SmsGatewayName, number> = { aliyun: 35, tencent: 12 };

/** Cuts a value to `max` characters (code points, as the providers count), ending with … when cut. */
export function cutText(value: string, max: number): string {
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * A kind's variables for a provider: every variable present (missing ones empty), free-text ones cut to the limit.
 * Other values (codes, dates, numbers) are left whole: a provider refusing one is a bug to see, not to hide.
 */
export function cutSmsParams(kind: SmsKind, params: Record<string, string>, max: number): Record<string, string> {
  const spec: SmsKindSpec = SMS_KINDS[kind];
  const out: Record<string, string> = {};
  for (const v of spec.vars) {
    const value = params[v] ?? '';
    out[v] = spec.text.includes(v) ? cutText(value, max) : value;
  }
  return out;
}

/** What a code text keeps of its code once the provider has it (the code itself is only at the phone; sms_codes keeps its hash). */
export const SMS_CODE_MASK = '******';

/** A kind's variables with its code masked (a code kind's `code`); other kinds' variables as they are. */
export function maskSmsParams(kind: SmsKind, params: Record<string, string>): Record<string, string> {
  const spec: SmsKindSpec = SMS_KINDS[kind];
  return spec.code && 'code' in params ? { ...params, code: SMS_CODE_MASK } : params;
}

/**
 * Our reference for a request's messages, given to the provider with the send (Aliyun OutId, Tencent SessionContext)
 * and answered by its queries: the ids as ranges ("101-300,305"), or "<first>+<more>" when that is longer than `max`.
 */
export function smsRef(ids: readonly number[], max: number): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  const ref = parts.join(',');
  return ref.length <= max || !sorted.length ? ref : `${sorted[0]}+${sorted.length - 1}`;
}

/**
 * Whether a provider's record with reference `ref` may be our message `id`: true when it names the id, false when it
 * names others; an empty or foreign reference (an account without SessionContext, a send without OutId) says nothing:
 * null.
 */
export function smsRefNames(ref: string | null | undefined, id: number): boolean | null {
  const r = ref?.trim() ?? '';
  const more = /^(\d+)\+(\d+)$/.exec(r);
  if (more) return id >= Number(more[1]);
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(r)) return null;
  return r.split(',').some((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return id >= a && id <= b;
  });
}

/** Tencent's TemplateParamSet: the variables in the kind's order. */
export const orderedSmsParams = (kind: SmsKind, params: Record<string, string>): string[] => SMS_KINDS[kind].vars.map((v) => params[v] ?? '');

/**
 * Billing units of a text as the mainland carriers count them: up to 70 characters (sign included) is one; a longer
 * text is sent in parts of 67. The providers bill by these units.
 */
export function smsUnits(content: string): number {
  const n = Array.from(content).length;
  return n <= 70 ? 1 : Math.ceil(n / 67);
}

/**
 * What a refusal means for a message:
 * - `transient`: try again later with the same provider (network, the provider's own errors, throttling);
 * - `account`: this provider cannot send it (balance, suspended account, credentials, its sign, no template of
 *   ours configured for it): the fallback provider takes it, once;
 * - `final`: the provider's business refusal (the mobile's daily limit, a bad number, a blacklisted mobile, a template
 *   it has not approved): shown, never retried, never handed over.
 */
export type SmsFailureClass = 'transient' | 'account' | 'final';

/** The states of a message. `sending` is a claim by one worker; a claim older than SMS_CLAIM_SECONDS may be taken again. */
export const SMS_STATES = ['queued', 'sending', 'sent', 'delivered', 'failed'] as const;
export type SmsState = (typeof SMS_STATES)[number];
export const SMS_CLAIM_SECONDS = 120;
/** transient refusals a provider gets for one message before the fallback takes it (or it fails) */
export const SMS_TRANSIENT_TRIES = 3;

export type SmsNext = { do: 'retry' } | { do: 'fallback'; provider: SmsProviderName } | { do: 'fail' };

/**
 * After a refusal: retry (transient, tries left), hand to the fallback provider (account, or transient with no tries
 * left; only when there is one, it differs and the message has not been handed over already), or fail.
 */
export function smsNextStep(
  failure: SmsFailureClass,
  tries: number,
  route: { provider: SmsProviderName; fallback: SmsProviderName | null; handedOver: boolean },
): SmsNext {
  if (failure === 'final') return { do: 'fail' };
  if (failure === 'transient' && tries < SMS_TRANSIENT_TRIES) return { do: 'retry' };
  if (route.fallback && route.fallback !== route.provider && !route.handedOver) return { do: 'fallback', provider: route.fallback };
  return { do: 'fail' };
}

/** A mainland mobile as stored (11 digits) from the forms providers report (+8613…, 8613…, 13…). */
export function nationalMobile(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  return digits.length === 13 && digits.startsWith('86') ? digits.slice(2) : digits;
}
