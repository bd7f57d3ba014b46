// The answer schemas of module `contracts` (what `data` carries, as JSON), declared in api/contracts.ts.
import { z } from 'zod';
import { pageOf } from '../api/define';
import { CONTRACT_STATES, CONTRACT_STATUSES, PACKAGE_INCLUDES, PACKAGE_KINDS } from '../contracts';

/** A contract package (contractPackage, addContractPackage, editContractPackage, setContractPackageActive). */
export const ContractPackage = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(PACKAGE_KINDS),
  length: z.number().int(),
  valid_months: z.number().int().nullable(),
  price_fen: z.number().int(),
  includes: z.array(z.enum(PACKAGE_INCLUDES)),
  description: z.string().nullable(),
  active: z.boolean(),
  /** contracts signed with it (a package in use is disabled, never deleted) */
  contracts: z.number().int(),
  version: z.number().int(),
});
export type ContractPackage = z.infer<typeof ContractPackage>;

export const ContractPackageListAnswer = pageOf(ContractPackage);
export type ContractPackageListAnswer = z.infer<typeof ContractPackageListAnswer>;

/** A contract as lists show it. */
export const ContractRow = z.object({
  id: z.number().int(),
  no: z.string(),
  student_id: z.number().int(),
  student_name: z.string(),
  class_name: z.string().nullable(),
  package_id: z.number().int(),
  package_name: z.string(),
  kind: z.enum(PACKAGE_KINDS),
  start_day: z.string(),
  end_day: z.string(),
  units_total: z.number().int().nullable(),
  units_used: z.number().int(),
  units_left: z.number().int().nullable(),
  price_fen: z.number().int(),
  list_price_fen: z.number().int(),
  paid_fen: z.number().int(),
  refunded_fen: z.number().int(),
  status: z.enum(CONTRACT_STATUSES),
  /** status with `expiring` and `expired` derived for today (contractState) */
  state: z.enum(CONTRACT_STATES),
  auto_renew: z.boolean(),
  guardian_name: z.string().nullable(),
  renewed_from: z.number().int().nullable(),
  created_at: z.string(),
  version: z.number().int(),
});
export type ContractRow = z.infer<typeof ContractRow>;

export const CONTRACT_EVENT_TYPES = ['signed', 'paid', 'edited', 'renewed', 'cancelled', 'refunded', 'expired', 'reminded'] as const;

/** One entry of a contract's history. */
export const ContractEvent = z.object({
  id: z.number().int(),
  type: z.enum(CONTRACT_EVENT_TYPES),
  /** before/after of an edit, the payment, the refund figure … */
  data: z.record(z.string(), z.unknown()),
  reason: z.string().nullable(),
  actor_name: z.string().nullable(),
  at: z.string(),
});
export type ContractEvent = z.infer<typeof ContractEvent>;

/** One contract with its history, oldest first (contractInfo and every contract write). */
export const ContractDetail = ContractRow.extend({
  discount_reason: z.string().nullable(),
  remark: z.string().nullable(),
  pay_method: z.string().nullable(),
  receipt_no: z.string().nullable(),
  history: z.array(ContractEvent),
});
export type ContractDetail = z.infer<typeof ContractDetail>;

/** The refund a cancellation would give today, and how it would go back. */
export const RefundPreview = z.object({
  contract_id: z.number().int(),
  /** unused days (calendar kinds) or units (counted kinds) */
  unused: z.number().int(),
  /** days in the period or units bought */
  total: z.number().int(),
  /** list price per day or unit, in fen: not rounded (a fraction) */
  unit_price_fen: z.number(),
  unused_value_fen: z.number().int(),
  discount_fen: z.number().int(),
  refund_fen: z.number().int(),
  /** how it goes back: the provider for WeChat payments, else recorded at the desk */
  via: z.enum(['wechat', 'offline', 'none']),
});
export type RefundPreview = z.infer<typeof RefundPreview>;

/** The number of contracts in each state. */
export const ContractCounts = z.record(z.enum(CONTRACT_STATES), z.number().int());
export type ContractCounts = z.infer<typeof ContractCounts>;

/** contractList: the page plus the number of contracts in each state for the same filters without the state filter. */
export const ContractListAnswer = pageOf(ContractRow).extend({ counts: ContractCounts });
export type ContractListAnswer = z.infer<typeof ContractListAnswer>;

export const StudentContractListAnswer = pageOf(ContractRow);
export type StudentContractListAnswer = z.infer<typeof StudentContractListAnswer>;
