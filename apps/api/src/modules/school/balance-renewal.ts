import { DEFAULT_PRICE_FEN, PERIOD_MONTHS, type RenewalPeriod } from '@wantuo/shared';
import type { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../core/database/sql-kit';
import { renewFromBalanceStatement } from './school.repository';

export type BalanceRenewal =
  | { outcome: 'charged'; balance_fen: number; service_expires_at: Date }
  | { outcome: 'retry' }
  | { outcome: 'insufficient'; balance_fen: number; amount_fen: number }
  | { outcome: 'no_school' };

export interface BalanceRenewalInput {
  schoolId: number;
  period: RenewalPeriod;
  /** the ledger's idempotency key of this payment */
  key: string;
  outTradeNo: string;
  kind: string;
  description: string;
  actorId: number;
}

/** Pays a renewal from the balance in one statement (renewFromBalanceStatement, school.repository.ts); a retry of a key already charged answers 'retry'. */
export async function renewFromBalance(db: DataSource, i: BalanceRenewalInput): Promise<BalanceRenewal> {
  let row: Awaited<ReturnType<typeof renewFromBalanceStatement>>;
  try {
    row = await renewFromBalanceStatement(db, {
      schoolId: i.schoolId,
      period: i.period,
      listFen: DEFAULT_PRICE_FEN[i.period],
      months: PERIOD_MONTHS[i.period],
      key: i.key,
      outTradeNo: i.outTradeNo,
      kind: i.kind,
      description: i.description,
      actorId: i.actorId,
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { outcome: 'retry' };
    throw err;
  }
  if (!row.found) return { outcome: 'no_school' };
  if (row.prior > 0) return { outcome: 'retry' };
  if (row.charged === 0) return { outcome: 'insufficient', balance_fen: row.balance_before!, amount_fen: row.amount! };
  return { outcome: 'charged', balance_fen: row.balance_after!, service_expires_at: new Date(row.until!) };
}
