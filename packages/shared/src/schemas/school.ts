import { z } from 'zod';
import { RENEWAL_PERIODS } from '../renewal';
import { lineText, mobile, pageQuery, smsCode, enteredPassword } from './common';
import type { BilingualLabel } from '../labels';

/**
 * The school account and its money (issue 10, design.md §2 and §5a): payment password, top-up, renewal, ledger.
 * Amounts are integer fen.
 */

/** Ledger entry types (ledger_entries.type). */
export const LEDGER_TYPES = ['top_up', 'payment', 'refund', 'adjustment'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
/** The one wording of a ledger entry's type: the admin's ledger and its export. */
export const LEDGER_TYPE_LABELS: Record<LedgerType, BilingualLabel> = {
  top_up: { zh: '充值', en: 'Top-up' },
  payment: { zh: '支付', en: 'Payment' },
  refund: { zh: '退款', en: 'Refund' },
  adjustment: { zh: '调整', en: 'Adjustment' },
};

/** A single top-up: 1 yuan to 500,000 yuan. */
export const TOP_UP_LIMITS = { minFen: 100, maxFen: 50_000_000 } as const;
/** A manual adjustment by the operator, either way. */
export const ADJUSTMENT_MAX_FEN = 100_000_000;
/**
 * Provider payments: the first check at the provider a minute after the order, then every few minutes; an unpaid order
 * is closed after two hours (its QR then stops working).
 */
export const PAYMENT_TIMING = { firstCheckSeconds: 60, recheckSeconds: 300, closeAfterMinutes: 120 } as const;

/**
 * How a WeChat Pay payment is made (design.md §5b): Native QR (a desktop scans it with a phone), JSAPI (inside WeChat,
 * by the payer's openid), H5 (another phone browser, through WeChat's cashier page).
 */
export const PAY_CHANNELS = ['native', 'jsapi', 'h5'] as const;
export type PayChannel = (typeof PAY_CHANNELS)[number];
/** The channel a guardian's WeChat payment asks for (dinners, contracts): Native unless told. */
export const payChannel = z.enum(PAY_CHANNELS, { error: 'payments.v.channel_invalid' }).default('native');

/** Wrong payment passwords before balance payments are locked, and for how long. */
export const DEAL_PWD_LOCK = { maxFailures: 5, minutes: 15 } as const;

const dealPwd = z.string({ error: 'school.v.deal_pwd_invalid' }).regex(/^\d{6}$/, { error: 'school.v.deal_pwd_invalid' });
const blank = (v: unknown) => (v === '' ? undefined : v);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const date = z.string({ error: 'school.v.date_invalid' }).regex(DATE_RE, { error: 'school.v.date_invalid' });
const queryId = z.coerce
  .number({ error: 'school.v.id_invalid' })
  .int({ error: 'school.v.id_invalid' })
  .min(1, { error: 'school.v.id_invalid' })
  .max(2_147_483_647, { error: 'school.v.id_invalid' });
const bodyId = z
  .number({ error: 'school.v.id_invalid' })
  .int({ error: 'school.v.id_invalid' })
  .min(1, { error: 'school.v.id_invalid' })
  .max(2_147_483_647, { error: 'school.v.id_invalid' });
const fen = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

/** Set or change the payment password: proven by the account password or an SMS code of event `dealpwd`. */
export const SetDealPwdInput = z
  .strictObject({
    deal_pwd: dealPwd,
    password: enteredPassword.optional(),
    code: smsCode.optional(),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, { error: 'school.v.proof_required', path: ['password'] });
export type SetDealPwdInput = z.infer<typeof SetDealPwdInput>;

export const RechargeInput = z.strictObject({
  amount_fen: fen(TOP_UP_LIMITS.minFen, TOP_UP_LIMITS.maxFen, 'school.v.top_up_amount_invalid'),
});
export type RechargeInput = z.infer<typeof RechargeInput>;

export const BalancePaySchoolInput = z.strictObject({
  period: z.enum(RENEWAL_PERIODS, { error: 'school.v.period_invalid' }),
  deal_pwd: dealPwd,
  /** the client's key for this payment: a retry with the same key is answered, never charged twice */
  request_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'school.v.request_id_invalid' })
    .optional(),
});
export type BalancePaySchoolInput = z.infer<typeof BalancePaySchoolInput>;

export const WechatPaySchoolInput = z.strictObject({
  period: z.enum(RENEWAL_PERIODS, { error: 'school.v.period_invalid' }),
});
export type WechatPaySchoolInput = z.infer<typeof WechatPaySchoolInput>;

export const ConsumeLogQuery = z
  .strictObject({
    ...pageQuery,
    type: z.preprocess(blank, z.enum(LEDGER_TYPES, { error: 'school.v.ledger_type_invalid' }).optional()),
    from: z.preprocess(blank, date.optional()),
    to: z.preprocess(blank, date.optional()),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'school.v.date_range_invalid', path: ['to'] });
export type ConsumeLogQuery = z.infer<typeof ConsumeLogQuery>;

export const ConsumeLogExportQuery = z
  .strictObject({
    type: z.preprocess(blank, z.enum(LEDGER_TYPES, { error: 'school.v.ledger_type_invalid' }).optional()),
    from: z.preprocess(blank, date.optional()),
    to: z.preprocess(blank, date.optional()),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'school.v.date_range_invalid', path: ['to'] });
export type ConsumeLogExportQuery = z.infer<typeof ConsumeLogExportQuery>;

/** The admin edits the school's contact details. */
export const EditSchoolInfoInput = z.strictObject({
  version: bodyId,
  contact_name: lineText(64).nullable(),
  contact_phone: mobile.nullable(),
  city: lineText(64).nullable(),
  address: lineText(200).nullable(),
});
export type EditSchoolInfoInput = z.infer<typeof EditSchoolInfoInput>;

export const PaymentStateQuery = z.strictObject({
  out_trade_no: z.string({ error: 'school.v.out_trade_no_invalid' }).regex(/^[A-Za-z0-9_-]{6,32}$/, { error: 'school.v.out_trade_no_invalid' }),
});
export type PaymentStateQuery = z.infer<typeof PaymentStateQuery>;

// ---------------------------------------------------------------- the operator's side

export const SchoolListQuery = z.strictObject({
  ...pageQuery,
  keyword: z.preprocess(blank, lineText(50).optional()),
});
export type SchoolListQuery = z.infer<typeof SchoolListQuery>;

export const SetSchoolPriceInput = z.strictObject({
  school_id: bodyId,
  term_fen: fen(1, ADJUSTMENT_MAX_FEN, 'school.v.price_invalid'),
  year_fen: fen(1, ADJUSTMENT_MAX_FEN, 'school.v.price_invalid'),
});
export type SetSchoolPriceInput = z.infer<typeof SetSchoolPriceInput>;

export const AdjustBalanceInput = z.strictObject({
  school_id: bodyId,
  /** positive credits the school, negative debits it (never below zero) */
  amount_fen: fen(-ADJUSTMENT_MAX_FEN, ADJUSTMENT_MAX_FEN, 'school.v.adjust_amount_invalid').refine((v) => v !== 0, {
    error: 'school.v.adjust_amount_invalid',
  }),
  reason: lineText(200).min(2, { error: 'school.v.reason_required' }),
  request_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'school.v.request_id_invalid' }),
});
export type AdjustBalanceInput = z.infer<typeof AdjustBalanceInput>;

export const SchoolLedgerQuery = z.strictObject({ ...pageQuery, school_id: queryId });
export type SchoolLedgerQuery = z.infer<typeof SchoolLedgerQuery>;

/** Payment states (payments.state). */
export const PAYMENT_STATES = ['pending', 'paid', 'closed', 'refunded'] as const;

export const SchoolPaymentsQuery = z.strictObject({
  ...pageQuery,
  school_id: queryId,
  state: z.preprocess(blank, z.enum(PAYMENT_STATES, { error: 'school.v.payment_state_invalid' }).optional()),
});
export type SchoolPaymentsQuery = z.infer<typeof SchoolPaymentsQuery>;

/** The operator refunds (part of) one of a school's paid payments: through WeChat Pay, or back to the balance. */
export const RefundSchoolPaymentInput = z.strictObject({
  school_id: bodyId,
  out_trade_no: z.string({ error: 'school.v.out_trade_no_invalid' }).regex(/^[A-Za-z0-9_-]{6,32}$/, { error: 'school.v.out_trade_no_invalid' }),
  /** omitted: all that is left to refund */
  amount_fen: fen(1, ADJUSTMENT_MAX_FEN, 'school.v.refund_amount_invalid').optional(),
  /** shown to the payer by WeChat Pay, which takes at most 80 characters */
  reason: lineText(80).min(2, { error: 'school.v.refund_reason_required' }),
  /** the same request_id refunds once: a retry is answered from the refund it made */
  request_id: z.string({ error: 'school.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'school.v.request_id_invalid' }),
});
export type RefundSchoolPaymentInput = z.infer<typeof RefundSchoolPaymentInput>;

/** The school's WeChat Pay sub-merchant (issue 36): the operator reads any school's, the admin their own. */
export const SchoolSubMerchantQuery = z.strictObject({ school_id: z.preprocess(blank, queryId.optional()) });
export type SchoolSubMerchantQuery = z.infer<typeof SchoolSubMerchantQuery>;

/**
 * The operator records the sub_mchid WeChat gave the school after its onboarding (进件), changes it, or withdraws it
 * (`sub_mchid: null`: parents' online payments stop). `expected_id` is the current record the operator saw (null: none),
 * so two operators never overwrite each other. `sub_appid`: the school's own official account, when its parents are
 * bound to it.
 */
export const SetSchoolSubMerchantInput = z.strictObject({
  school_id: bodyId,
  sub_mchid: z
    .string({ error: 'school.v.sub_mchid_invalid' })
    .trim()
    .regex(/^[0-9]{8,12}$/, { error: 'school.v.sub_mchid_invalid' })
    .nullable(),
  sub_appid: z.preprocess(
    blank,
    z
      .string({ error: 'school.v.sub_appid_invalid' })
      .trim()
      .regex(/^wx[0-9a-zA-Z]{16}$/, { error: 'school.v.sub_appid_invalid' })
      .nullable()
      .optional(),
  ),
  note: lineText(200).default(''),
  expected_id: bodyId.nullable(),
});
export type SetSchoolSubMerchantInput = z.infer<typeof SetSchoolSubMerchantInput>;

/** The daily reconciliations (payment_bill_checks), newest first. */
export const BillChecksQuery = z.strictObject({
  ...pageQuery,
  school_id: z.preprocess(blank, queryId.optional()),
  state: z.preprocess(blank, z.enum(['matched', 'differences', 'failed'], { error: 'school.v.bill_state_invalid' }).optional()),
});
export type BillChecksQuery = z.infer<typeof BillChecksQuery>;

/** The differences the reconciliations found, open ones first unless told. */
export const BillDifferencesQuery = z.strictObject({
  ...pageQuery,
  school_id: z.preprocess(blank, queryId.optional()),
  check_id: z.preprocess(blank, queryId.optional()),
  state: z.preprocess(blank, z.enum(['open', 'resolved'], { error: 'school.v.bill_state_invalid' }).optional()),
});
export type BillDifferencesQuery = z.infer<typeof BillDifferencesQuery>;

/** The operator closes a difference with what was done about it (kept with who and when). */
export const ResolveBillDifferenceInput = z.strictObject({
  id: bodyId,
  resolution: lineText(200).min(2, { error: 'school.v.resolution_required' }),
});
export type ResolveBillDifferenceInput = z.infer<typeof ResolveBillDifferenceInput>;

/** Reconcile one merchant's bill of one day now (again): a school's sub-merchant, or the platform's own (no school_id). */
export const CheckBillInput = z.strictObject({
  school_id: bodyId.optional(),
  bill_date: date,
});
export type CheckBillInput = z.infer<typeof CheckBillInput>;
