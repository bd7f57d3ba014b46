import type { ReceiptKind, ReceiptMethod, ReceiptRow } from '@wantuo/shared';
import { sql, type Expression, type InferResult, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { kdb, type Database, type DB } from '../../core/database/kysely';
import { containsPattern, offsetOf, totalOf, type PageQuery, type Queryable } from '../../core/database/sql-kit';
import type { ReceiptSnapshot } from './receipt-pdf';

/** Which sources to look at: all (the sweep), or those of one school and one payment, contract or refund (the events). */
export interface SourceScope {
  schoolId?: number | null;
  outTradeNo?: string | null;
  contractId?: number | null;
  outRefundNo?: string | null;
  limit?: number;
}

/** The kinds of payment a school receives from families for one object (docs/modules/money.md): only these get receipts. */
export const RECEIPTED_KINDS = ['contract', 'meal'] as const;

type ItemKind = ReceiptRow['item_kind'];

/** Whether an optional filter is set. */
const given = <V>(v: V | null | undefined): v is V => v !== null && v !== undefined;
/** A condition on an optional filter: none when the value is null. */
const maybe = <V>(v: V | null | undefined, f: (v: V) => Expression<SqlBool>): Expression<SqlBool> => (given(v) ? f(v) : sql.lit(true));
/** A branch that the scope excludes answers nothing. */
const none = (excluded: boolean): Expression<SqlBool> => sql.lit(!excluded);

/** ref_id as an int when it is one (a payment of another kind, or a hand-written row, never breaks the cast) */
const refId = sql<number>`case when p.ref_id ~ '^[0-9]{1,9}$' then p.ref_id::int end`;
const DESK_METHODS = ['cash', 'bank', 'external'] as const;
/** a contract event's amount (`e`) */
const amount = sql<number>`round((e.data->>'amount_fen')::numeric)::bigint`;
/** a contract's item: its package's name and the contract's number (`k`, `c`) */
const contractItem = sql<string>`k.name || '（合同 ' || c.no || '）'`;
const day = (d: Expression<string | null>) => sql<string | null>`to_char(${d}, 'YYYY-MM-DD')`;
const float8 = (n: Expression<number>) => sql<number>`${n}::float8`;
const text = <T extends string>(v: T) => sql.lit(v).$castTo<T>();
const nullInt = sql<number | null>`null::int`;
/** a contract event's `data->>key` */
const eventData = (key: string) => sql<string>`e.data->>${sql.lit(key)}`;

/**
 * The wechat payments of a kind that paid (or paid and were refunded), in the scope (`offset 0`: filtered on their own
 * first, before the joins).
 */
const paidPayments = (k: Database, kind: 'contract' | 'meal', s: SourceScope) =>
  k
    .selectFrom('payments')
    .selectAll()
    .where('kind', '=', text(kind))
    .where('method', '=', text('wechat'))
    .where('state', 'in', [text('paid'), text('refunded')])
    .where('paid_at', 'is not', null)
    .where((eb) => maybe(s.schoolId, (v) => eb('school_id', '=', v)))
    .where((eb) => maybe(s.outTradeNo, (v) => eb('out_trade_no', '=', v)))
    .where(none(given(s.outRefundNo)))
    .offset(sql.lit(0))
    .as('p');

/**
 * The paid sources without a receipt, oldest first (their own time: a receipt number follows the money's order):
 * - a WeChat payment of a contract or a dinner that paid its object — the object's history has its `paid` event naming
 *   the payment (a surplus, refunded in full because it paid nothing, gets no receipt, nor does its refund);
 * - a desk payment of a contract (a `paid` contract event of cash, bank transfer or another channel, the desk's receipt
 *   or transaction number when it was typed).
 */
const paymentSources = (k: Database, s: SourceScope) =>
  k
    .selectFrom(paidPayments(k, 'contract', s))
    .innerJoin('contracts as c', (j) => j.on('c.id', '=', refId).onRef('c.school_id', '=', 'p.school_id'))
    .innerJoin('contract_packages as k', 'k.id', 'c.package_id')
    .innerJoin('students as st', 'st.id', 'c.student_id')
    .select((eb) => [
      sql<string>`'payment:' || ${eb.ref('p.id')}`.as('source'),
      text<ReceiptKind>('contract').as('kind'),
      text<ItemKind>('contract').as('item_kind'),
      'p.school_id',
      'c.student_id',
      'p.created_by as payer_id',
      eb.ref('c.id').$castTo<number | null>().as('contract_id'),
      nullInt.as('booking_id'),
      'st.name as student_name',
      contractItem.as('item'),
      day(eb.ref('c.start_day')).as('period_start'),
      day(eb.ref('c.end_day')).as('period_end'),
      float8(eb.ref('p.amount_fen')).as('amount_fen'),
      text<ReceiptMethod>('wechat').as('method'),
      eb.fn.coalesce('p.provider_txn_id', 'p.out_trade_no').as('txn_no'),
      eb.ref('p.paid_at').$notNull().as('paid_at'),
      nullInt.as('original_receipt_id'),
    ])
    .where((eb) => maybe(s.contractId, (v) => eb('c.id', '=', v)))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('contract_events as e')
          .select(sql.lit(1).as('one'))
          .whereRef('e.contract_id', '=', 'c.id')
          .where('e.type', '=', text('paid'))
          .where(sql<string>`e.data->>'out_trade_no'`, '=', eb.ref('p.out_trade_no')),
      ),
    )
    .unionAll(
      k
        .selectFrom(paidPayments(k, 'meal', s))
        .innerJoin('meal_bookings as b', (j) => j.on('b.id', '=', refId).onRef('b.school_id', '=', 'p.school_id'))
        .leftJoin('meal_goods as g', 'g.id', 'b.goods_id')
        .innerJoin('students as st', 'st.id', 'b.student_id')
        .select((eb) => [
          sql<string>`'payment:' || ${eb.ref('p.id')}`.as('source'),
          text<ReceiptKind>('meal').as('kind'),
          text<ItemKind>('meal').as('item_kind'),
          'p.school_id',
          'b.student_id',
          'p.created_by as payer_id',
          nullInt.as('contract_id'),
          eb.ref('b.id').$castTo<number | null>().as('booking_id'),
          'st.name as student_name',
          sql<string>`'晚餐 ' || to_char(b.day, 'YYYY-MM-DD') || coalesce('（' || g.name || '）', '')`.as('item'),
          day(eb.ref('b.day')).as('period_start'),
          day(eb.ref('b.day')).as('period_end'),
          float8(eb.ref('p.amount_fen')).as('amount_fen'),
          text<ReceiptMethod>('wechat').as('method'),
          eb.fn.coalesce('p.provider_txn_id', 'p.out_trade_no').as('txn_no'),
          eb.ref('p.paid_at').$notNull().as('paid_at'),
          nullInt.as('original_receipt_id'),
        ])
        .where(none(given(s.contractId)))
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('meal_booking_events as e')
              .select(sql.lit(1).as('one'))
              .whereRef('e.booking_id', '=', 'b.id')
              .where('e.type', '=', text('paid'))
              .where(sql<string>`e.data->>'out_trade_no'`, '=', eb.ref('p.out_trade_no')),
          ),
        ),
    )
    .unionAll(
      k
        .selectFrom('contract_events as e')
        .innerJoin('contracts as c', 'c.id', 'e.contract_id')
        .innerJoin('contract_packages as k', 'k.id', 'c.package_id')
        .innerJoin('students as st', 'st.id', 'c.student_id')
        .select((eb) => [
          sql<string>`'contract_event:' || ${eb.ref('e.id')}`.as('source'),
          text<ReceiptKind>('contract').as('kind'),
          text<ItemKind>('contract').as('item_kind'),
          'c.school_id',
          'c.student_id',
          'c.guardian_id as payer_id',
          eb.ref('c.id').$castTo<number | null>().as('contract_id'),
          nullInt.as('booking_id'),
          'st.name as student_name',
          contractItem.as('item'),
          day(eb.ref('c.start_day')).as('period_start'),
          day(eb.ref('c.end_day')).as('period_end'),
          float8(amount).as('amount_fen'),
          eventData('method').$castTo<ReceiptMethod>().as('method'),
          sql<string>`coalesce(nullif(e.data->>'receipt_no', ''), '前台登记 #' || e.id)`.as('txn_no'),
          'e.at as paid_at',
          nullInt.as('original_receipt_id'),
        ])
        .where('e.type', '=', text('paid'))
        .where(eventData('method'), 'in', DESK_METHODS.map(text))
        .where(amount, '>', sql.lit(0))
        .where((eb) => maybe(s.schoolId, (v) => eb('e.school_id', '=', v)))
        .where((eb) => maybe(s.contractId, (v) => eb('e.contract_id', '=', v)))
        .where(none(given(s.outTradeNo) || given(s.outRefundNo))),
    );

/**
 * The refunds without a receipt, of payments that have theirs (the original is issued first, so it is always there):
 * - a WeChat refund of such a payment, once the provider says it succeeded;
 * - a desk refund of a desk-paid contract (its cancellation's `refunded` event, via the desk), against the contract's
 *   latest desk payment receipt.
 * The refund's receipt repeats its original's child, item and period.
 */
const refundSources = (k: Database, s: SourceScope) =>
  k
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', (j) => j.onRef('p.id', '=', 'r.payment_id').on('p.kind', 'in', [text('contract'), text('meal')]))
    .innerJoin('receipts as o', (j) => j.on('o.source', '=', sql<string>`'payment:' || p.id`))
    .select((eb) => [
      sql<string>`'refund:' || ${eb.ref('r.id')}`.as('source'),
      text<ReceiptKind>('refund').as('kind'),
      eb.ref('o.item_kind').$castTo<ItemKind>().as('item_kind'),
      'r.school_id',
      'o.student_id',
      'o.payer_id',
      'o.contract_id',
      'o.booking_id',
      'o.student_name',
      'o.item',
      day(eb.ref('o.period_start')).as('period_start'),
      day(eb.ref('o.period_end')).as('period_end'),
      float8(eb.ref('r.amount_fen')).as('amount_fen'),
      text<ReceiptMethod>('wechat').as('method'),
      eb.fn.coalesce('r.provider_refund_id', 'r.out_refund_no').as('txn_no'),
      eb.fn.coalesce('r.succeeded_at', 'r.created_at').$castTo<Date>().as('paid_at'),
      eb.ref('o.id').$castTo<number | null>().as('original_receipt_id'),
    ])
    .where('r.state', '=', text('succeeded'))
    .where((eb) => maybe(s.schoolId, (v) => eb('r.school_id', '=', v)))
    .where((eb) => maybe(s.outTradeNo, (v) => eb('p.out_trade_no', '=', v)))
    .where((eb) => maybe(s.contractId, (v) => eb('o.contract_id', '=', v)))
    .where((eb) => maybe(s.outRefundNo, (v) => eb('r.out_refund_no', '=', v)))
    .unionAll(
      k
        .selectFrom('contract_events as e')
        .innerJoin('contracts as c', 'c.id', 'e.contract_id')
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('receipts as o')
              .selectAll()
              .whereRef('o.contract_id', '=', 'c.id')
              .where('o.kind', '=', text('contract'))
              .where('o.source', 'like', sql.lit('contract_event:%'))
              .orderBy('o.id', 'desc')
              .limit(sql.lit(1))
              .as('o'),
          (j) => j.onTrue(),
        )
        .select((eb) => [
          sql<string>`'contract_event:' || ${eb.ref('e.id')}`.as('source'),
          text<ReceiptKind>('refund').as('kind'),
          text<ItemKind>('contract').as('item_kind'),
          'c.school_id',
          'c.student_id',
          'o.payer_id',
          eb.ref('c.id').$castTo<number | null>().as('contract_id'),
          nullInt.as('booking_id'),
          'o.student_name',
          'o.item',
          day(eb.ref('o.period_start')).as('period_start'),
          day(eb.ref('o.period_end')).as('period_end'),
          float8(amount).as('amount_fen'),
          eventData('method').$castTo<ReceiptMethod>().as('method'),
          sql<string>`'前台退款 #' || e.id`.as('txn_no'),
          'e.at as paid_at',
          eb.ref('o.id').$castTo<number | null>().as('original_receipt_id'),
        ])
        .where('e.type', '=', text('refunded'))
        .where(eventData('via'), '=', text('offline'))
        .where(eventData('method'), 'in', DESK_METHODS.map(text))
        .where(amount, '>', sql.lit(0))
        .where((eb) => maybe(s.schoolId, (v) => eb('e.school_id', '=', v)))
        .where((eb) => maybe(s.contractId, (v) => eb('e.contract_id', '=', v)))
        .where(none(given(s.outTradeNo) || given(s.outRefundNo))),
    );

/**
 * What a receipt is issued from: a payment, a refund or a desk record without a receipt yet, with its snapshot (the
 * receipt's own columns, its kinds and method narrowed).
 */
export type ReceiptSource = InferResult<ReturnType<typeof paymentSources>>[number];

/** The lists' receipts (`r`) with their originals (`o`), as the lists answer them, and the count of all (`total`). */
const listed = (k: Database) =>
  k
    .selectFrom('receipts as r')
    .leftJoin('receipts as o', 'o.id', 'r.original_receipt_id')
    .select((eb) => [
      'r.id',
      'r.receipt_no',
      eb.ref('r.kind').$castTo<ReceiptKind>().as('kind'),
      eb.ref('r.item_kind').$castTo<ItemKind>().as('item_kind'),
      'r.student_id',
      'r.student_name',
      'r.item',
      day(eb.ref('r.period_start')).as('period_start'),
      day(eb.ref('r.period_end')).as('period_end'),
      float8(eb.ref('r.amount_fen')).as('amount_fen'),
      eb.ref('r.method').$castTo<ReceiptMethod>().as('method'),
      'r.txn_no',
      'r.issued_at',
      'r.contract_id',
      'r.booking_id',
      'o.receipt_no as original_receipt_no',
      sql<string>`count(*) over ()`.as('total'),
    ]);

/** A listed receipt as the lists answer it (its time as ISO text, the count dropped). */
const toRow = ({ total: _t, issued_at, ...r }: InferResult<ReturnType<typeof listed>>[number]): ReceiptRow => ({
  ...r,
  issued_at: issued_at.toISOString(),
});

/**
 * All the SQL of receipts (issue 40): the sources without a receipt, issuing one (the counter and the snapshot), the
 * lists, one receipt for its PDF, the stamp.
 */
export class ReceiptsRepository {
  constructor(private readonly q: Queryable) {}

  private get k(): Database {
    return kdb(this.q);
  }

  /** Paid sources (payments, desk payments) without a receipt, in the scope, oldest first. */
  async paymentSources(scope: SourceScope): Promise<ReceiptSource[]> {
    return this.sources(paymentSources(this.k, scope), scope);
  }

  /** Refunds without a receipt whose original has one, in the scope, oldest first. */
  async refundSources(scope: SourceScope): Promise<ReceiptSource[]> {
    return this.sources(refundSources(this.k, scope), scope);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async sources(all: SelectQueryBuilder<DB, any, ReceiptSource>, s: SourceScope): Promise<ReceiptSource[]> {
    return this.k
      .selectFrom(all.as('x'))
      .selectAll('x')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('receipts as r').select(sql.lit(1).as('one')).whereRef('r.source', '=', 'x.source'))))
      .orderBy('x.paid_at')
      .orderBy('x.source')
      .limit(s.limit ?? 500)
      .execute();
  }

  /** Whether a source has its receipt. */
  async issuedFor(source: string): Promise<boolean> {
    const r = await this.k.selectFrom('receipts').select(sql.lit(1).as('one')).where('source', '=', source).executeTakeFirst();
    return r !== undefined;
  }

  /**
   * The school's next number of the (school-local) year of `at` (now when null): one statement that creates or
   * increments the counter row and answers it, holding its lock until the issuing transaction ends.
   */
  async nextNumber(schoolId: number, at: Date | null) {
    const k = this.k;
    return k
      .insertInto('receipt_counters')
      .columns(['school_id', 'year', 'last'])
      .expression(
        k
          .selectFrom('schools as s')
          .select((eb) => [
            's.id',
            sql<number>`extract(year from (coalesce(${at}::timestamptz, now()) at time zone ${eb.ref('s.timezone')}))::int`.as('year'),
            sql.lit(1).as('last'),
          ])
          .where('s.id', '=', schoolId),
      )
      .onConflict((oc) => oc.columns(['school_id', 'year']).doUpdateSet((eb) => ({ last: eb('receipt_counters.last', '+', sql.lit(1)) })))
      .returning(['year', 'last as seq'])
      .executeTakeFirstOrThrow();
  }

  /**
   * Writes the receipt's snapshot with the school's name, stamp and zone as they are now; `issuedAt` null is now.
   * Answers its id, or null when the source has one already (a concurrent issue won: the caller rolls back).
   */
  async insert(s: ReceiptSource, receiptNo: string, issuedAt: Date | null): Promise<number | null> {
    const k = this.k;
    const row = await k
      .insertInto('receipts')
      .columns([
        'school_id',
        'receipt_no',
        'kind',
        'item_kind',
        'source',
        'student_id',
        'payer_id',
        'contract_id',
        'booking_id',
        'school_name',
        'stamp_file_id',
        'student_name',
        'item',
        'period_start',
        'period_end',
        'amount_fen',
        'method',
        'txn_no',
        'paid_at',
        'timezone',
        'original_receipt_id',
        'issued_at',
      ])
      .expression(
        k
          .selectFrom('schools as sc')
          .select((eb) => [
            'sc.id',
            eb.val(receiptNo).as('receipt_no'),
            eb.val(s.kind).as('kind'),
            eb.val(s.item_kind).as('item_kind'),
            eb.val(s.source).as('source'),
            eb.val(s.student_id).as('student_id'),
            eb.val(s.payer_id).as('payer_id'),
            eb.val(s.contract_id).as('contract_id'),
            eb.val(s.booking_id).as('booking_id'),
            'sc.name',
            'sc.receipt_stamp_file_id',
            eb.val(s.student_name).as('student_name'),
            sql<string>`left(${s.item}, 200)`.as('item'),
            eb.val(s.period_start).as('period_start'),
            eb.val(s.period_end).as('period_end'),
            eb.val(s.amount_fen).as('amount_fen'),
            eb.val(s.method).as('method'),
            sql<string>`left(${s.txn_no}, 80)`.as('txn_no'),
            eb.val(s.paid_at).as('paid_at'),
            'sc.timezone',
            eb.val(s.original_receipt_id).as('original_receipt_id'),
            sql<Date>`coalesce(${issuedAt}::timestamptz, now())`.as('issued_at'),
          ])
          .where('sc.id', '=', s.school_id),
      )
      .onConflict((oc) => oc.column('source').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** A guardian's children's receipts (any guardian of the child sees them), newest first, one page. */
  async parentPage(
    schoolId: number,
    userId: number,
    f: { student_id?: number; contract_id?: number; booking_id?: number },
    page: PageQuery,
  ): Promise<{ list: ReceiptRow[]; total: number }> {
    const rows = await listed(this.k)
      .where('r.school_id', '=', schoolId)
      .where('r.student_id', 'in', (eb) =>
        eb.selectFrom('student_guardians as g').select('g.student_id').where('g.user_id', '=', userId).where('g.school_id', '=', schoolId),
      )
      .where((eb) => maybe(f.student_id, (v) => eb('r.student_id', '=', v)))
      .where((eb) => maybe(f.contract_id, (v) => eb('r.contract_id', '=', v)))
      .where((eb) => maybe(f.booking_id, (v) => eb('r.booking_id', '=', v)))
      .orderBy('r.issued_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(page.limit)
      .offset(offsetOf(page))
      .execute();
    return { list: rows.map(toRow), total: totalOf(rows) };
  }

  /** The school's receipts of a local month's half-open day range, a kind, a keyword (the child's name or the number). */
  async schoolPage(
    schoolId: number,
    f: { from?: string; to?: string; kind?: ReceiptKind; keyword?: string },
    page: PageQuery | null,
  ): Promise<{ list: ReceiptRow[]; total: number }> {
    const keyword = containsPattern(f.keyword);
    const rows = await listed(this.k)
      .crossJoin((eb) => eb.selectFrom('schools').select('timezone').where('id', '=', schoolId).as('s'))
      .where('r.school_id', '=', schoolId)
      .where((eb) => maybe(f.from, (v) => eb('r.issued_at', '>=', sql<Date>`(${v}::date)::timestamp at time zone ${eb.ref('s.timezone')}`)))
      .where((eb) => maybe(f.to, (v) => eb('r.issued_at', '<', sql<Date>`(${v}::date)::timestamp at time zone ${eb.ref('s.timezone')}`)))
      .where((eb) => maybe(f.kind, (v) => eb('r.kind', '=', v)))
      .where((eb) => maybe(keyword, (v) => eb.or([eb('r.student_name', 'ilike', v), eb('r.receipt_no', 'like', v)])))
      .orderBy('r.issued_at', 'desc')
      .orderBy('r.id', 'desc')
      .$if(page !== null, (q) => q.limit(page?.limit ?? 0).offset(page ? offsetOf(page) : 0))
      .execute();
    return { list: rows.map(toRow), total: totalOf(rows) };
  }

  /** One receipt of the school for its PDF; a guardian's (`guardianId`) only of their own child. */
  async forPdf(schoolId: number, id: number, guardianId: number | null) {
    const r = await this.k
      .selectFrom('receipts as r')
      .leftJoin('receipts as o', 'o.id', 'r.original_receipt_id')
      .leftJoin('files as f', 'f.id', 'r.stamp_file_id')
      .select((eb) => [
        'r.id',
        'r.receipt_no',
        eb.ref('r.kind').$castTo<ReceiptKind>().as('kind'),
        'r.school_name',
        'r.student_name',
        'r.item',
        day(eb.ref('r.period_start')).as('period_start'),
        day(eb.ref('r.period_end')).as('period_end'),
        float8(eb.ref('r.amount_fen')).as('amount_fen'),
        eb.ref('r.method').$castTo<ReceiptMethod>().as('method'),
        'r.txn_no',
        'r.paid_at',
        'r.issued_at',
        'r.timezone',
        'o.receipt_no as original_receipt_no',
        'f.storage_path as stamp_path',
      ])
      .where('r.school_id', '=', schoolId)
      .where('r.id', '=', id)
      .where((eb) =>
        maybe(guardianId, (g) =>
          eb.exists(
            eb
              .selectFrom('student_guardians as g')
              .select(sql.lit(1).as('one'))
              .whereRef('g.student_id', '=', 'r.student_id')
              .where('g.user_id', '=', g),
          ),
        ),
      )
      .executeTakeFirst();
    return (r satisfies ReceiptSnapshot | undefined) ?? null;
  }

  /** The school's name and current stamp. */
  async stamp(schoolId: number) {
    return this.k
      .selectFrom('schools as s')
      .leftJoin('files as f', 'f.id', 's.receipt_stamp_file_id')
      .select(['s.name as school_name', 'f.id as file_id', 'f.storage_path', 'f.name', 'f.mime', 'f.size', 's.receipt_stamp_at as uploaded_at'])
      .where('s.id', '=', schoolId)
      .executeTakeFirstOrThrow();
  }

  /** A file's row written directly (the demo's stamp, drawn by the seed; uploads go through FilesService). */
  async insertFile(f: {
    id: string;
    schoolId: number;
    userId: number;
    name: string;
    mime: string;
    size: number;
    sha256: string;
    storagePath: string;
  }) {
    await this.k
      .insertInto('files')
      .values({
        id: f.id,
        school_id: f.schoolId,
        user_id: f.userId,
        name: f.name,
        mime: f.mime,
        size: f.size,
        sha256: f.sha256,
        storage_path: f.storagePath,
      })
      .execute();
  }

  /** The school's stamp from now on (receipts issued before keep theirs). */
  async setStamp(schoolId: number, fileId: string): Promise<void> {
    await this.k
      .updateTable('schools')
      .set((eb) => ({
        receipt_stamp_file_id: fileId,
        receipt_stamp_at: sql<Date>`now()`,
        version: eb('version', '+', sql.lit(1)),
        updated_at: sql<Date>`now()`,
      }))
      .where('id', '=', schoolId)
      .execute();
  }
}
