// The answer schemas of module `school` (what `data` carries, as JSON), declared in api/school.ts.
import { z } from 'zod';
import { LEDGER_TYPES, PAYMENT_STATES } from '../schemas/school';
import type { ServiceState } from '../renewal';
import { pageOf, wire } from '../api/define';

const { fen } = wire;

/** Where a school's service stands (renewal.ts serviceState). */
export const ServiceStateSchema = z.enum(['active', 'expiring', 'grace', 'read_only'] as const satisfies readonly ServiceState[]);

/** The platform's price for a school: what the operator set, else the list price (getSchoolPrice, setSchoolPrice). */
export const SchoolPrice = z.object({ term_fen: fen, year_fen: fen });
export type SchoolPrice = z.infer<typeof SchoolPrice>;

/** One entry of a school's ledger (consumeLog, schoolLedger), with the balance after it. */
export const LedgerEntry = z.object({
  id: z.number().int(),
  type: z.enum(LEDGER_TYPES),
  /** signed: positive credits the school */
  amount_fen: fen,
  balance_after_fen: fen,
  ref_kind: z.string().nullable(),
  ref_id: z.string().nullable(),
  note: z.string().nullable(),
  actor_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

/** `data` of consumeLog and schoolLedger. */
export const LedgerPage = pageOf(LedgerEntry);
export type LedgerPage = z.infer<typeof LedgerPage>;

/** The school as its admin sees it (schoolInfo, editSchoolInfo). */
export const SchoolInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  contact_name: z.string().nullable(),
  contact_phone: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  balance_fen: fen,
  service_expires_at: z.string().nullable(),
  service_state: ServiceStateSchema,
  price: SchoolPrice,
  has_deal_pwd: z.boolean(),
  /** while wrong payment passwords have locked it */
  deal_pwd_locked_until: z.string().nullable(),
  version: z.number().int(),
});
export type SchoolInfo = z.infer<typeof SchoolInfo>;

/**
 * The parameters a page inside WeChat hands to `WeixinJSBridge.invoke('getBrandWCPayRequest', …)` for a JSAPI payment:
 * paySign is RSA-SHA256 (the merchant's key) over `appId\ntimeStamp\nnonceStr\npackage\n`, base64.
 */
export const JsapiPayParams = z.object({
  appId: z.string(),
  timeStamp: z.string(),
  nonceStr: z.string(),
  /** `prepay_id=…` */
  package: z.string(),
  signType: z.literal('RSA'),
  paySign: z.string(),
});
export type JsapiPayParams = z.infer<typeof JsapiPayParams>;

const pendingBase = { out_trade_no: z.string(), amount_fen: fen, expires_at: z.string() };

/**
 * A WeChat Pay payment started (recharge, wechatPaySchool and the other modules' wechatPay actions), until it expires:
 * a Native order's QR (code_url), a JSAPI order's bridge parameters (jsapi) or an H5 order's cashier page (h5_url).
 */
export const PendingPayment = z.discriminatedUnion('channel', [
  z.object({ ...pendingBase, channel: z.literal('native'), code_url: z.string() }),
  z.object({ ...pendingBase, channel: z.literal('jsapi'), jsapi: JsapiPayParams }),
  z.object({ ...pendingBase, channel: z.literal('h5'), h5_url: z.string() }),
]);
export type PendingPayment = z.infer<typeof PendingPayment>;

/** `data` of paymentState: the payer's polling. */
export const PaymentState = z.object({
  out_trade_no: z.string(),
  kind: z.string(),
  amount_fen: fen,
  state: z.enum(PAYMENT_STATES),
  paid_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type PaymentState = z.infer<typeof PaymentState>;

/** `data` of balancePaySchool: the new expiry and the balance after the debit. */
export const BalancePayResult = z.object({ service_expires_at: z.string(), balance_fen: fen });
export type BalancePayResult = z.infer<typeof BalancePayResult>;

/** A school in the operator's list (schoolList). */
export const OperatorSchoolRow = z.object({
  id: z.number().int(),
  name: z.string(),
  city: z.string().nullable(),
  contact_name: z.string().nullable(),
  contact_phone: z.string().nullable(),
  balance_fen: fen,
  service_expires_at: z.string().nullable(),
  service_state: ServiceStateSchema,
  price: SchoolPrice,
  students: z.number().int(),
  staff: z.number().int(),
  /** its current WeChat Pay sub-merchant (null: parents cannot pay it online) */
  sub_mchid: z.string().nullable(),
  created_at: z.string(),
});
export type OperatorSchoolRow = z.infer<typeof OperatorSchoolRow>;

/** `data` of schoolList. */
export const SchoolListAnswer = pageOf(OperatorSchoolRow);
export type SchoolListAnswer = z.infer<typeof SchoolListAnswer>;

/** `data` of adjustSchoolBalance: the balance after it and its ledger entry. */
export const AdjustBalanceResult = z.object({ balance_fen: fen, entry_id: z.number().int() });
export type AdjustBalanceResult = z.infer<typeof AdjustBalanceResult>;

/** One payment in the operator's list of a school's payments. */
export const SchoolPayment = z.object({
  out_trade_no: z.string(),
  kind: z.string(),
  description: z.string(),
  amount_fen: fen,
  refunded_fen: fen,
  method: z.enum(['wechat', 'balance']),
  state: z.enum(PAYMENT_STATES),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});
export type SchoolPayment = z.infer<typeof SchoolPayment>;

/** `data` of schoolPayments. */
export const SchoolPaymentsAnswer = pageOf(SchoolPayment);
export type SchoolPaymentsAnswer = z.infer<typeof SchoolPaymentsAnswer>;

/** A refund's answer: the refund, the payment after it and the school's balance after it. */
export const RefundResult = z.object({
  out_trade_no: z.string(),
  out_refund_no: z.string(),
  amount_fen: fen,
  /** succeeded; processing while the provider has not finished it; pending while its answer is unknown (asked again) */
  state: z.enum(['succeeded', 'processing', 'pending']),
  payment_state: z.enum(PAYMENT_STATES),
  refunded_fen: fen,
  remaining_fen: fen,
  balance_fen: fen,
});
export type RefundResult = z.infer<typeof RefundResult>;

/** One record of a school's sub-merchant (school_sub_merchants). */
export const SubMerchantRecord = z.object({
  id: z.number().int(),
  sub_mchid: z.string(),
  sub_appid: z.string().nullable(),
  note: z.string(),
  recorded_at: z.string(),
  recorded_by_name: z.string().nullable(),
  ended_at: z.string().nullable(),
});
export type SubMerchantRecord = z.infer<typeof SubMerchantRecord>;

/** `data` of schoolSubMerchant and setSchoolSubMerchant: whether parents can pay the school online, and the records. */
export const SchoolSubMerchant = z.object({
  school_id: z.number().int(),
  state: z.enum(['none', 'active']),
  current: SubMerchantRecord.nullable(),
  /** newest first, the current one included, at most 50 */
  history: z.array(SubMerchantRecord),
});
export type SchoolSubMerchant = z.infer<typeof SchoolSubMerchant>;

/** `data` of parentPayOptions: whether the guardian's school takes online payments, and how to pay it otherwise. */
export const ParentPayOptions = z.object({
  online: z.boolean(),
  school_name: z.string(),
  contact_phone: z.string().nullable(),
});
export type ParentPayOptions = z.infer<typeof ParentPayOptions>;

/** One merchant's reconciliation of one day (billChecks, checkBill). */
export const BillCheckRow = z.object({
  id: z.number().int(),
  bill_date: z.string(),
  sub_mchid: z.string(),
  /** null: the platform's own merchant */
  school_id: z.number().int().nullable(),
  school_name: z.string().nullable(),
  state: z.enum(['matched', 'differences', 'failed']),
  bill_lines: z.number().int(),
  payments_fen: fen,
  refunds_fen: fen,
  differences: z.number().int(),
  error: z.string().nullable(),
  checked_at: z.string(),
});
export type BillCheckRow = z.infer<typeof BillCheckRow>;
export const BillChecksAnswer = pageOf(BillCheckRow);

/** One line where WeChat's bill and the recorded payments and refunds disagree. */
export const BillDifferenceRow = z.object({
  id: z.number().int(),
  check_id: z.number().int(),
  bill_date: z.string(),
  sub_mchid: z.string(),
  school_id: z.number().int().nullable(),
  school_name: z.string().nullable(),
  /** missing_here: WeChat has it and we do not; missing_there: we have it and WeChat does not; amount_differs */
  kind: z.enum(['missing_here', 'missing_there', 'amount_differs']),
  line: z.enum(['payment', 'refund']),
  out_trade_no: z.string(),
  out_refund_no: z.string().nullable(),
  ours_fen: fen.nullable(),
  theirs_fen: fen.nullable(),
  state: z.enum(['open', 'resolved']),
  resolution: z.string().nullable(),
  resolved_at: z.string().nullable(),
  resolved_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type BillDifferenceRow = z.infer<typeof BillDifferenceRow>;
export const BillDifferencesAnswer = pageOf(BillDifferenceRow);
