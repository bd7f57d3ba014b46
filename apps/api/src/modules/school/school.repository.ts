import { Role, type LedgerType, type RenewalPeriod, type SchoolPayment } from '@wantuo/shared';
import { sql, type Expression, type Insertable } from 'kysely';
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

/**
 * The operator's page of schools (newest first, optionally those whose name or contact phone contains `keyword`) with
 * balance, expiry, prices, current sub-merchant and head counts, and the total, in one statement: the counts by one
 * grouped pass each over the page's schools, not per row. A page beyond the last is one row of the total alone (its
 * `id` null).
 */
export function operatorSchoolPage(on: Queryable, keyword: string | null, limit: number, offset: number) {
  return kdb(on)
    .with('f', (w) =>
      w
        .selectFrom('schools as s')
        .selectAll('s')
        .$if(keyword !== null, (q) =>
          q.where((eb) =>
            eb.or([
              sql<boolean>`strpos(lower(${eb.ref('s.name')}), lower(${keyword})) > 0`,
              sql<boolean>`strpos(coalesce(${eb.ref('s.contact_phone')}, ''), ${keyword}) > 0`,
            ]),
          ),
        ),
    )
    .with('p', (w) => w.selectFrom('f').selectAll('f').orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(limit).offset(offset))
    .selectFrom((w) =>
      w
        .selectFrom('f')
        .select(sql<number>`count(*)::int`.as('total'))
        .as('c'),
    )
    .leftJoin('p', (j) => j.onTrue())
    .leftJoin('school_sub_merchants as m', (j) => j.onRef('m.school_id', '=', 'p.id').on('m.ended_at', 'is', null))
    .leftJoin(
      (w) =>
        w
          .selectFrom('students')
          .select((eb) => ['school_id', eb.fn.countAll<number>().as('n')])
          .where('school_id', 'in', (x) => x.selectFrom('p').select('p.id'))
          .where('archived_at', 'is', null)
          .groupBy('school_id')
          .as('st'),
      (j) => j.onRef('st.school_id', '=', 'p.id'),
    )
    .leftJoin(
      (w) =>
        w
          .selectFrom('users')
          .select((eb) => ['school_id', eb.fn.countAll<number>().as('n')])
          .where('school_id', 'in', (x) => x.selectFrom('p').select('p.id'))
          .where('role', 'in', [Role.Admin, Role.Teacher, Role.HeadTeacher])
          .where('deleted_at', 'is', null)
          .groupBy('school_id')
          .as('sf'),
      (j) => j.onRef('sf.school_id', '=', 'p.id'),
    )
    .select((eb) => [
      'c.total',
      'p.id',
      'p.name',
      'p.city',
      'p.contact_name',
      'p.contact_phone',
      fen('p.balance_fen').as('balance_fen'),
      'p.service_expires_at',
      sql<number | null>`${eb.ref('p.term_price_fen')}::float8`.as('term_price_fen'),
      sql<number | null>`${eb.ref('p.year_price_fen')}::float8`.as('year_price_fen'),
      'p.created_at',
      sql<number>`coalesce(${eb.ref('st.n')}, 0)::int`.as('students'),
      sql<number>`coalesce(${eb.ref('sf.n')}, 0)::int`.as('staff'),
      'm.sub_mchid',
    ])
    .orderBy('p.created_at', (o) => o.desc().nullsLast())
    .orderBy('p.id', 'desc')
    .execute();
}

/** An instant as ISO 8601 text in UTC with milliseconds, as JSON.stringify writes a Date (what payments.meta holds). */
const iso = (e: Expression<unknown>) => sql<string>`to_char(${e} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What one renewal paid from the balance is: the school, the period, its list price and months, the payment's facts. */
export interface RenewalStatement {
  schoolId: number;
  period: RenewalPeriod;
  /** the list price of the period, when the operator set none */
  listFen: number;
  months: number;
  /** the ledger's idempotency key of this payment */
  key: string;
  outTradeNo: string;
  kind: string;
  description: string;
  actorId: number;
}

/**
 * A renewal paid from the balance as ONE statement (autocommit: atomic on its own), so the school's row is locked for
 * one statement instead of a transaction of round trips through the API, which is what queues a school's payments:
 *  - `s` locks the school and reads its newest row (READ COMMITTED re-reads a row it waited for): the price of the
 *    period (the operator's, else the list price), the balance, the new expiry from the later of now and the current
 *    one, by calendar months on the school's wall clock (its `timezone`) with month ends clamped, exactly as
 *    `renewedUntil` in packages/shared (PostgreSQL's timestamp + months clamps the same way; renewal.spec.ts' table);
 *  - `prior`: the entry this request key already made (a retry is answered from it, never charged again);
 *  - `u` debits and extends only when there is no prior entry and the balance covers the price (never below zero);
 *  - `pay` and `e` append the paid payment (what the span bought, for refunds) and the ledger entry.
 * A concurrent retry with the same key cannot see the first one's entry in its snapshot: the unique key on
 * (school_id, idempotency_key) fails it, the payment row and debit with it (the caller answers it from the entry).
 */
export function renewFromBalanceStatement(on: Queryable, i: RenewalStatement) {
  return kdb(on)
    .with('s', (w) =>
      w
        .selectFrom('schools')
        .select((eb) => [
          'id',
          'balance_fen',
          'service_expires_at',
          'timezone',
          sql<number>`coalesce(${eb.ref(i.period === 'term' ? 'term_price_fen' : 'year_price_fen')}, ${i.listFen})::bigint`.as('amount'),
          sql<Date>`greatest(now(), coalesce(${eb.ref('service_expires_at')}, now()))`.as('start'),
        ])
        .where('id', '=', i.schoolId)
        .forUpdate(),
    )
    .with('r', (w) =>
      w
        .selectFrom('s')
        .selectAll('s')
        .select((eb) =>
          sql<Date>`((${eb.ref('s.start')} at time zone ${eb.ref('s.timezone')}) + make_interval(months => ${i.months})) at time zone ${eb.ref('s.timezone')}`.as(
            'until',
          ),
        ),
    )
    .with('prior', (w) => w.selectFrom('ledger_entries').select('id').where('school_id', '=', i.schoolId).where('idempotency_key', '=', i.key))
    .with('u', (w) =>
      w
        .updateTable('schools as c')
        .from('r')
        .set((eb) => ({ balance_fen: eb('c.balance_fen', '-', eb.ref('r.amount')), service_expires_at: eb.ref('r.until'), updated_at: sql`now()` }))
        .whereRef('c.id', '=', 'r.id')
        .whereRef('c.balance_fen', '>=', 'r.amount')
        .where((eb) => eb.not(eb.exists(eb.selectFrom('prior').select(sql.lit(1).as('one')))))
        .returning(['c.id', 'c.balance_fen', 'r.amount', 'r.until', 'r.start', 'r.service_expires_at as was']),
    )
    .with('pay', (w) =>
      w
        .insertInto('payments')
        .columns(['school_id', 'out_trade_no', 'kind', 'ref_id', 'description', 'amount_fen', 'method', 'state', 'meta', 'created_by', 'paid_at'])
        .expression((eb) =>
          eb
            .selectFrom('u')
            .select((x) => [
              'u.id',
              sql<string>`${i.outTradeNo}`.as('out_trade_no'),
              sql<string>`${i.kind}`.as('kind'),
              sql<string>`${x.ref('u.id')}::text`.as('ref_id'),
              sql<string>`${i.description}`.as('description'),
              'u.amount',
              sql.lit('balance').as('method'),
              sql.lit('paid').as('state'),
              sql`jsonb_build_object('period', ${i.period}::text, 'from', ${iso(x.ref('u.was'))}, 'start', ${iso(x.ref('u.start'))}, 'until', ${iso(x.ref('u.until'))})`.as(
                'meta',
              ),
              sql<number>`${i.actorId}`.as('created_by'),
              sql<Date>`now()`.as('paid_at'),
            ]),
        )
        .returning('id'),
    )
    .with('e', (w) =>
      w
        .insertInto('ledger_entries')
        .columns(['school_id', 'type', 'amount_fen', 'balance_after_fen', 'ref_kind', 'ref_id', 'payment_id', 'actor_id', 'note', 'idempotency_key'])
        .expression((eb) =>
          eb
            .selectFrom(['u', 'pay'])
            .select((x) => [
              'u.id',
              sql.lit('payment').as('type'),
              sql<number>`-${x.ref('u.amount')}`.as('amount_fen'),
              'u.balance_fen',
              sql<string>`${i.kind}`.as('ref_kind'),
              sql<string>`${i.outTradeNo}`.as('ref_id'),
              'pay.id as payment_id',
              sql<number>`${i.actorId}`.as('actor_id'),
              sql<string>`${i.description}`.as('note'),
              sql<string>`${i.key}`.as('idempotency_key'),
            ]),
        )
        .returning('id'),
    )
    .selectFrom(sql<{ x: 1 }>`(select 1)`.as('one'))
    .leftJoin('r', (j) => j.onTrue())
    .select((eb) => [
      eb('r.id', 'is not', null).$castTo<boolean>().as('found'),
      sql<number | null>`${eb.ref('r.balance_fen')}::float8`.as('balance_before'),
      sql<number | null>`${eb.ref('r.amount')}::float8`.as('amount'),
      sql<number>`(${eb.selectFrom('prior').select((x) => x.fn.countAll().as('n'))})::int`.as('prior'),
      sql<number>`(${eb.selectFrom('e').select((x) => x.fn.countAll().as('n'))})::int`.as('charged'),
      eb
        .selectFrom('u')
        .select(sql<number>`balance_fen::float8`.as('b'))
        .as('balance_after'),
      eb.selectFrom('u').select('u.until').as('until'),
    ])
    .executeTakeFirstOrThrow();
}

/**
 * Reminders due at `at`, for every school at once, and recorded in the same statement: the school-local date of the
 * expiry minus the school-local date of `at` is one of `days`. Only the rows this statement inserts come back
 * (`on conflict do nothing returning`), each with the mobiles of the school's admins, so a reminder already sent by an
 * earlier or a concurrent run is never sent again (a concurrent run waits on the key, then inserts nothing). Not on
 * the day the school was created: the welcome SMS already says how long the trial is. Runs in the caller's transaction.
 */
export function dueServiceReminders(on: Queryable, at: Date, days: readonly number[]) {
  const localDay = (zone: Expression<string>) => sql<string>`(${at}::timestamptz at time zone ${zone})::date`;
  return kdb(on)
    .with('today', (db) =>
      db
        .selectFrom('schools as s')
        .select((eb) => [
          's.id',
          's.name',
          's.service_expires_at',
          's.timezone',
          sql<number>`(${eb.ref('s.service_expires_at')} at time zone ${eb.ref('s.timezone')})::date - ${localDay(eb.ref('s.timezone'))}`.as(
            'days_before',
          ),
        ])
        .where('s.status', '=', sql.lit(1))
        .where('s.service_expires_at', '>', sql<Date>`${at}::timestamptz`)
        .where('s.service_expires_at', '<', sql<Date>`${at}::timestamptz + make_interval(days => ${Math.max(...days) + 2})`)
        .where((eb) => eb(sql<string>`(${eb.ref('s.created_at')} at time zone ${eb.ref('s.timezone')})::date`, '<', localDay(eb.ref('s.timezone')))),
    )
    .with('sent', (db) =>
      db
        .insertInto('service_reminders')
        .columns(['school_id', 'expires_at', 'days_before', 'sent_at'])
        .expression(
          db
            .selectFrom('today')
            .select(['id', 'service_expires_at', 'days_before', sql<Date>`${at}::timestamptz`.as('sent_at')])
            .where('days_before', '=', sql<number>`any(${[...days]}::int[])`),
        )
        .onConflict((oc) => oc.doNothing())
        .returning(['school_id', 'expires_at', 'days_before']),
    )
    .selectFrom('sent')
    .innerJoin('today as d', 'd.id', 'sent.school_id')
    .leftJoin('users as u', (j) =>
      j
        .onRef('u.school_id', '=', 'sent.school_id')
        .on('u.role', '=', Role.Admin)
        .on('u.deleted_at', 'is', null)
        .on('u.status', '=', sql.lit(1))
        .on('u.mobile', 'is not', null),
    )
    .select((eb) => [
      'sent.school_id',
      sql<number>`${eb.ref('sent.days_before')}::int`.as('days_before'),
      'd.name as school',
      sql<string>`to_char(${eb.ref('sent.expires_at')} at time zone ${eb.ref('d.timezone')}, 'YYYY"年"FMMM"月"FMDD"日"')`.as('date'),
      sql<string[]>`coalesce(array_agg(${eb.ref('u.mobile')} order by ${eb.ref('u.id')}) filter (where ${eb.ref('u.mobile')} is not null), '{}')`.as(
        'mobiles',
      ),
    ])
    .groupBy(['sent.school_id', 'sent.days_before', 'sent.expires_at', 'd.name', 'd.timezone'])
    .execute();
}

/** A reminder the statement recorded, with its admins' mobiles. */
export type SentReminder = Awaited<ReturnType<typeof dueServiceReminders>>[number];
