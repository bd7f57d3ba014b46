import { z } from 'zod';
import { CONTRACT_STATES, PACKAGE_INCLUDES, PACKAGE_KINDS, PAY_METHODS } from '../contracts';
import { flag, lineText, pageQuery, plainText } from './common';
import { payChannel } from './school';

/** Contracts and their packages (issue 11, module `contracts`). Amounts are integer fen, days school-local YYYY-MM-DD. */

const blank = (v: unknown) => (v === '' ? undefined : v);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const day = z.string({ error: 'contracts.v.date_invalid' }).regex(DATE_RE, { error: 'contracts.v.date_invalid' });
const idOf = (error: string) => z.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const queryIdOf = (error: string) => z.coerce.number({ error }).int({ error }).min(1, { error }).max(2_147_483_647, { error });
const version = idOf('contracts.v.version_invalid');
/** a price: 0.01 to 100,000 yuan */
const priceFen = z
  .number({ error: 'contracts.v.price_invalid' })
  .int({ error: 'contracts.v.price_invalid' })
  .min(1, { error: 'contracts.v.price_invalid' })
  .max(10_000_000, { error: 'contracts.v.price_invalid' });
const requestId = z.string({ error: 'contracts.v.request_id_invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'contracts.v.request_id_invalid' });
const reason = lineText(200).min(2, { error: 'contracts.v.reason_required' });

// ---------------------------------------------------------------- packages

const packageFields = {
  name: lineText(50).min(1, { error: 'contracts.v.name_required' }),
  kind: z.enum(PACKAGE_KINDS, { error: 'contracts.v.kind_invalid' }),
  /** terms, months, days or sessions */
  length: z
    .number({ error: 'contracts.v.length_invalid' })
    .int({ error: 'contracts.v.length_invalid' })
    .min(1, { error: 'contracts.v.length_invalid' })
    .max(400, { error: 'contracts.v.length_invalid' }),
  /** days and sessions: how many months they may be used; null: the default */
  valid_months: z
    .number({ error: 'contracts.v.valid_months_invalid' })
    .int({ error: 'contracts.v.valid_months_invalid' })
    .min(1, { error: 'contracts.v.valid_months_invalid' })
    .max(36, { error: 'contracts.v.valid_months_invalid' })
    .nullable()
    .optional(),
  price_fen: priceFen,
  includes: z
    .array(z.enum(PACKAGE_INCLUDES, { error: 'contracts.v.includes_invalid' }))
    .max(3)
    .refine((v) => new Set(v).size === v.length, { error: 'contracts.v.includes_invalid' }),
  description: plainText(500).optional(),
};

export const ContractPackageQuery = z.strictObject({ ...pageQuery, active: z.preprocess(blank, flag.optional()) });
export type ContractPackageQuery = z.infer<typeof ContractPackageQuery>;

export const AddContractPackageInput = z.strictObject(packageFields);
export type AddContractPackageInput = z.infer<typeof AddContractPackageInput>;

/** Edits a package: later contracts use it; contracts already signed keep their own copy of the terms. */
export const EditContractPackageInput = z.strictObject({ id: idOf('contracts.v.package_invalid'), version, ...packageFields });
export type EditContractPackageInput = z.infer<typeof EditContractPackageInput>;

/** Disables or enables a package (a package is never deleted: contracts point at it). */
export const SetContractPackageActiveInput = z.strictObject({
  id: idOf('contracts.v.package_invalid'),
  version,
  active: z.boolean({ error: 'contracts.v.active_invalid' }),
});
export type SetContractPackageActiveInput = z.infer<typeof SetContractPackageActiveInput>;

// ---------------------------------------------------------------- contracts

/** How the money was received, when it was received outside the product. */
export const OfflinePayment = z.strictObject({
  method: z.enum(PAY_METHODS.filter((m) => m !== 'wechat') as ['cash', 'bank', 'external'], { error: 'contracts.v.pay_method_invalid' }),
  /** bank or external payments: the receipt or transaction number */
  receipt_no: lineText(64).optional(),
});
export type OfflinePayment = z.infer<typeof OfflinePayment>;

export const AddContractInput = z
  .strictObject({
    student_id: idOf('contracts.v.student_invalid'),
    package_id: idOf('contracts.v.package_invalid'),
    start_day: day,
    /** the agreed price; below the package's price needs a discount reason */
    price_fen: priceFen.optional(),
    discount_reason: lineText(200).optional(),
    /** the guardian (a parent account of the student) who signs */
    guardian_id: idOf('contracts.v.guardian_invalid'),
    auto_renew: z.boolean().optional(),
    /** paid at the desk now; absent: unpaid, the guardian pays it by WeChat Pay in the parent area */
    payment: OfflinePayment.optional(),
    remark: plainText(500).optional(),
    request_id: requestId,
  })
  .refine((v) => v.payment?.method === 'cash' || !v.payment || (v.payment.receipt_no?.length ?? 0) > 0, {
    error: 'contracts.v.receipt_required',
    path: ['payment', 'receipt_no'],
  });
export type AddContractInput = z.infer<typeof AddContractInput>;

/** Changes an active (or unpaid) contract: each field given is changed, with a reason; the history keeps before and after. */
export const EditContractInput = z.strictObject({
  id: idOf('contracts.v.contract_invalid'),
  version,
  end_day: day.optional(),
  units_total: z
    .number({ error: 'contracts.v.units_invalid' })
    .int({ error: 'contracts.v.units_invalid' })
    .min(1, { error: 'contracts.v.units_invalid' })
    .max(400, { error: 'contracts.v.units_invalid' })
    .optional(),
  auto_renew: z.boolean().optional(),
  remark: plainText(500).optional(),
  reason,
});
export type EditContractInput = z.infer<typeof EditContractInput>;

/** Records the payment of an unpaid contract received at the desk. */
export const PayContractOfflineInput = z.strictObject({ id: idOf('contracts.v.contract_invalid'), version, payment: OfflinePayment });
export type PayContractOfflineInput = z.infer<typeof PayContractOfflineInput>;

export const RenewContractInput = z.strictObject({
  id: idOf('contracts.v.contract_invalid'),
  version,
  payment: OfflinePayment.optional(),
  request_id: requestId,
});
export type RenewContractInput = z.infer<typeof RenewContractInput>;

export const CancelContractInput = z.strictObject({
  id: idOf('contracts.v.contract_invalid'),
  version,
  reason,
  /** the refund shown before confirming (contractRefundPreview): refused when it changed meanwhile */
  refund_fen: z
    .number({ error: 'contracts.v.refund_invalid' })
    .int({ error: 'contracts.v.refund_invalid' })
    .min(0, { error: 'contracts.v.refund_invalid' })
    .max(10_000_000, { error: 'contracts.v.refund_invalid' }),
  /** how the refund goes back when it was paid at the desk (provider payments go back through the provider) */
  refund_method: z.enum(['cash', 'bank', 'external'], { error: 'contracts.v.pay_method_invalid' }).optional(),
  request_id: requestId,
});
export type CancelContractInput = z.infer<typeof CancelContractInput>;

export const ContractIdQuery = z.strictObject({ id: queryIdOf('contracts.v.contract_invalid') });
export type ContractIdQuery = z.infer<typeof ContractIdQuery>;

const listFilters = {
  state: z.preprocess(blank, z.enum(CONTRACT_STATES, { error: 'contracts.v.state_invalid' }).optional()),
  student_id: z.preprocess(blank, queryIdOf('contracts.v.student_invalid').optional()),
  class_id: z.preprocess(blank, queryIdOf('contracts.v.class_invalid').optional()),
  package_id: z.preprocess(blank, queryIdOf('contracts.v.package_invalid').optional()),
  /** contracts ending within [end_from, end_to] */
  end_from: z.preprocess(blank, day.optional()),
  end_to: z.preprocess(blank, day.optional()),
  keyword: z.preprocess(blank, lineText(32).optional()),
};
const rangeOk = (v: { end_from?: string; end_to?: string }) => !v.end_from || !v.end_to || v.end_from <= v.end_to;

export const ContractListQuery = z
  .strictObject({ ...pageQuery, ...listFilters })
  .refine(rangeOk, { error: 'contracts.v.date_range_invalid', path: ['end_to'] });
export type ContractListQuery = z.infer<typeof ContractListQuery>;

export const ContractExportQuery = z.strictObject(listFilters).refine(rangeOk, { error: 'contracts.v.date_range_invalid', path: ['end_to'] });
export type ContractExportQuery = z.infer<typeof ContractExportQuery>;

export const StudentContractListQuery = z.strictObject({ ...pageQuery, student_id: queryIdOf('contracts.v.student_invalid') });
export type StudentContractListQuery = z.infer<typeof StudentContractListQuery>;

/** A guardian pays an own child's unpaid contract by WeChat Pay: Native QR, JSAPI (inside WeChat) or H5 (a phone browser). */
export const WechatPayContractInput = z.strictObject({ id: idOf('contracts.v.contract_invalid'), channel: payChannel });
export type WechatPayContractInput = z.infer<typeof WechatPayContractInput>;
