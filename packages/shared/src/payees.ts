import { addDays } from './contracts';
import { instantOf, localDay } from './school-time';

/**
 * Who receives the money of each payment kind (design.md §5b2, issue 36). Two kinds of WeChat Pay merchant:
 * - `platform`: the platform's own merchant, for what the platform sells to schools (service renewal, the school
 *   wallet's top-ups, the mall, courseware);
 * - `school`: the school's own sub-merchant under the platform as service provider (服务商), for everything a parent
 *   pays a school. The platform never holds a school's fees (二清).
 * Declared once, here; a kind not listed cannot be paid online (payeeOf throws), and a parent's payment is the
 * school's whatever its kind.
 */
export const PAYMENT_PAYEES = {
  top_up: 'platform',
  school_renewal: 'platform',
  goods_order: 'platform',
  courseware: 'platform',
  contract: 'school',
  meal: 'school',
} as const satisfies Record<string, Payee>;

export type Payee = 'platform' | 'school';
export type PaymentKindName = keyof typeof PAYMENT_PAYEES;
export const PAYMENT_KIND_NAMES = Object.keys(PAYMENT_PAYEES) as PaymentKindName[];

/** Who pays: a parent (guardian) or the school's staff (the admin paying the platform). */
export type Payer = 'parent' | 'staff';

/** The one rule: who receives a payment of `kind` made by `payer`. */
export function payeeOf(kind: string, payer: Payer): Payee {
  if (!Object.prototype.hasOwnProperty.call(PAYMENT_PAYEES, kind)) throw new Error(`payment kind ${kind} declares no payee`);
  if (payer === 'parent') return 'school';
  return PAYMENT_PAYEES[kind as PaymentKindName];
}

/** WeChat Pay keeps its bills by the day in China Standard Time, whatever the school's own zone. */
export const WECHAT_BILL_ZONE = 'Asia/Shanghai';

/** The trade bill a moment falls on (its bill_date, YYYY-MM-DD). */
export function billDateOf(at: Date): string {
  return localDay(at, WECHAT_BILL_ZONE);
}

/** A bill day's span: from its midnight to the next, China time (the instants payments and refunds are counted in). */
export function billDaySpan(billDate: string): { from: Date; to: Date } {
  return { from: instantOf(billDate, '00:00', WECHAT_BILL_ZONE), to: instantOf(addDays(billDate, 1), '00:00', WECHAT_BILL_ZONE) };
}

/** The bill day before the one `at` falls on (the statement fetched the morning after). */
export function previousBillDate(at: Date): string {
  return addDays(billDateOf(at), -1);
}

/** A sub-merchant number as WeChat gives it (特约商户号): 8 to 12 digits. */
export const SUB_MCHID_RE = /^[0-9]{8,12}$/;
/** An official account's (公众号) app id. */
export const APPID_RE = /^wx[0-9a-zA-Z]{16}$/;
