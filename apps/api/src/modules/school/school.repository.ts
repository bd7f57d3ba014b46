import { Role, type LedgerType, type SchoolPayment } from '@wantuo/shared';
import { sql, type Insertable } from 'kysely';
import { kdb, pageRows, type DB } from '../../core/database/kysely';
import type { PageQuery, Queryable } from '../../core/database/sql-kit';

/**
 * The SQL of the school module (issue 38), typed by the schema: the school's own record, its service period, the
 * onboarding of a new school. Plain functions over `on` (the pool, or the caller's transaction), as the settlers and
 * refunders that use them are plain objects.
 */

/** bigint money as a JS number (fen fit well within 2^53). */
const fen = (ref: string) => sql<number>`${sql.ref(ref)}::float8`;

/** The school's record as its admin sees it (answer SchoolInfo, before its derived fields). */
export function schoolRecord(on: Queryable, schoolId: number) {
  return kdb(on)
    .selectFrom('schools as s')
    .select([
      's.id',
      's.name',
      's.timezone',
      's.contact_name',
      's.contact_phone',
      's.city',
      's.address',
      fen('s.balance_fen').as('balance_fen'),
      's.service_expires_at',
      sql<number | null>`${sql.ref('s.term_price_fen')}::float8`.as('term_price_fen'),
      sql<number | null>`${sql.ref('s.year_price_fen')}::float8`.as('year_price_fen'),
      sql<boolean>`s.deal_pwd_hash is not null`.as('has_deal_pwd'),
      sql<Date | null>`case when s.deal_pwd_locked_until > now() then s.deal_pwd_locked_until end`.as('deal_pwd_locked_until'),
      's.version',
    ])
    .where('s.id', '=', schoolId)
    .executeTakeFirst();
}

/** The platform's prices set for the school (null: the list price). */
export function schoolPrices(on: Queryable, schoolId: number) {
  return kdb(on)
    .selectFrom('schools')
    .select([sql<number | null>`term_price_fen::float8`.as('term_price_fen'), sql<number | null>`year_price_fen::float8`.as('year_price_fen')])
    .where('id', '=', schoolId)
    .executeTakeFirst();
}

/** The school's service end and balance now. */
export function serviceAndBalance(on: Queryable, schoolId: number) {
  return kdb(on)
    .selectFrom('schools')
    .select(['service_expires_at', fen('balance_fen').as('balance_fen')])
    .where('id', '=', schoolId)
    .executeTakeFirstOrThrow();
}

/** The contact details, written only on the version read; the id when it landed. */
export function editContact(
  on: Queryable,
  schoolId: number,
  version: number,
  v: { contact_name: string | null; contact_phone: string | null; city: string | null; address: string | null },
) {
  return kdb(on)
    .updateTable('schools')
    .set((eb) => ({ ...v, version: eb('version', '+', 1), updated_at: sql`now()` }))
    .where('id', '=', schoolId)
    .where('version', '=', version)
    .returning('id')
    .executeTakeFirst();
}

/** The account's password hash and mobile (proving who sets the payment password). */
export function credentials(on: Queryable, userId: number) {
  return kdb(on).selectFrom('users').select(['password_hash', 'mobile']).where('id', '=', userId).executeTakeFirst();
}

/** Sets the school's service end. */
export async function setServiceEnd(on: Queryable, schoolId: number, until: Date): Promise<void> {
  await kdb(on)
    .updateTable('schools')
    .set({ service_expires_at: until, updated_at: sql`now()` })
    .where('id', '=', schoolId)
    .execute();
}

/** Moves the school's service end later by `ms` milliseconds (a refund's time taken back, given back). */
export async function extendServiceEnd(on: Queryable, schoolId: number, ms: number): Promise<void> {
  await kdb(on)
    .updateTable('schools')
    .set({ service_expires_at: sql`service_expires_at + make_interval(secs => ${ms}::float8 / 1000)`, updated_at: sql`now()` })
    .where('id', '=', schoolId)
    .execute();
}

/** Adds keys to a payment's meta (what a settled renewal bought). */
export async function mergePaymentMeta(on: Queryable, paymentId: number, meta: Record<string, unknown>): Promise<void> {
  await kdb(on)
    .updateTable('payments')
    .set({ meta: sql`meta || ${JSON.stringify(meta)}::jsonb` })
    .where('id', '=', paymentId)
    .execute();
}

/** A new school with `trialDays` of service from now; its id. */
export function insertSchool(
  on: Queryable,
  s: Required<Pick<Insertable<DB['schools']>, 'name' | 'city' | 'timezone' | 'contact_name' | 'contact_phone'>>,
  trialDays: number,
) {
  return kdb(on)
    .insertInto('schools')
    .values({ ...s, service_expires_at: sql`now() + make_interval(days => ${trialDays})` })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The school's institution admin, without a password (signs in by SMS code); its id. */
export function insertAdmin(on: Queryable, schoolId: number, a: { username: string; name: string; mobile: string }) {
  return kdb(on)
    .insertInto('users')
    .values({ school_id: schoolId, role: Role.Admin, username: a.username, name: a.name, nickname: a.name, mobile: a.mobile })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Which ledger entries a list or export shows: the school's, of a type, from and to a local day (inclusive). */
export interface LedgerFilter {
  schoolId: number;
  type?: LedgerType | null;
  from?: string | null;
  to?: string | null;
}

/** The school's ledger entries `f` selects (`e` the entry, `s` its school, `u` who made it). */
const ledger = (on: Queryable, f: LedgerFilter) => {
  const { type, from, to } = f;
  return kdb(on)
    .selectFrom('ledger_entries as e')
    .innerJoin('schools as s', 's.id', 'e.school_id')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .where('e.school_id', '=', f.schoolId)
    .$if(!!type, (q) => q.where('e.type', '=', type as LedgerType))
    .$if(!!from, (q) => q.where('e.created_at', '>=', sql<Date>`(${from}::date::timestamp at time zone s.timezone)`))
    .$if(!!to, (q) => q.where('e.created_at', '<', sql<Date>`((${to}::date + 1)::timestamp at time zone s.timezone)`));
};

/** A page of the ledger, newest first, with the total (answer LedgerEntry, times still Dates). */
export function ledgerPage(on: Queryable, f: LedgerFilter, q: PageQuery) {
  const list = ledger(on, f)
    .select([
      'e.id',
      sql<LedgerType>`e.type`.as('type'),
      fen('e.amount_fen').as('amount_fen'),
      fen('e.balance_after_fen').as('balance_after_fen'),
      'e.ref_kind',
      'e.ref_id',
      'e.note',
      'e.actor_id',
      'u.name as actor_name',
      'e.created_at',
    ])
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc');
  return pageRows(
    on,
    ledger(on, f).select((eb) => eb.fn.countAll<number>().as('total')),
    list,
    q,
  );
}

/** The ledger for the export, newest first, at most `limit` entries, times as the school's local clock. */
export function ledgerExport(on: Queryable, f: LedgerFilter, limit: number) {
  return ledger(on, f)
    .select([
      sql<string>`to_char(e.created_at at time zone s.timezone, 'YYYY-MM-DD HH24:MI:SS')`.as('at'),
      sql<LedgerType>`e.type`.as('type'),
      fen('e.amount_fen').as('amount_fen'),
      fen('e.balance_after_fen').as('balance_after_fen'),
      'e.ref_id',
      'u.name as actor_name',
      'e.note',
    ])
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .execute();
}

/** The platform's prices for the school (the operator's); the id when the school exists. */
export function setPrices(on: Queryable, schoolId: number, termFen: number, yearFen: number) {
  return kdb(on)
    .updateTable('schools')
    .set({ term_price_fen: termFen, year_price_fen: yearFen, updated_at: sql`now()` })
    .where('id', '=', schoolId)
    .returning('id')
    .executeTakeFirst();
}

/** A page of the school's payments (optionally of one state), newest first, with what was refunded of each. */
export function paymentPage(on: Queryable, schoolId: number, state: string | null, q: PageQuery) {
  const f = kdb(on)
    .selectFrom('payments as f')
    .where('f.school_id', '=', schoolId)
    .$if(state !== null, (x) => x.where('f.state', '=', state as string));
  const list = f
    .leftJoin('users as u', 'u.id', 'f.created_by')
    .select([
      'f.out_trade_no',
      'f.kind',
      'f.description',
      fen('f.amount_fen').as('amount_fen'),
      fen('f.refunded_fen').as('refunded_fen'),
      sql<SchoolPayment['method']>`f.method`.as('method'),
      sql<SchoolPayment['state']>`f.state`.as('state'),
      'u.name as created_by_name',
      'f.created_at',
      'f.paid_at',
    ])
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc');
  return pageRows(
    on,
    f.select((eb) => eb.fn.countAll<number>().as('total')),
    list,
    q,
  );
}
