import type { ReceiptKind, ReceiptMethod, ReceiptRow } from '@wantuo/shared';
import type { Nullable, Selectable } from 'kysely';
import type { DB } from '../../core/database/kysely';
import { containsPattern, offsetOf, totalOf, type PageQuery, type Queryable } from '../../core/database/sql-kit';
import type { ReceiptSnapshot } from './receipt-pdf';

/** A receipt's and a file's columns as the schema types them. */
type ReceiptColumns = Selectable<DB['receipts']>;
type FileColumns = Selectable<DB['files']>;

/**
 * What a receipt is issued from: a payment, a refund or a desk record without a receipt yet, with its snapshot (the
 * receipt's own columns, its kinds and method narrowed).
 */
export type ReceiptSource = Pick<
  ReceiptColumns,
  | 'source'
  | 'school_id'
  | 'student_id'
  | 'payer_id'
  | 'contract_id'
  | 'booking_id'
  | 'student_name'
  | 'item'
  | 'period_start'
  | 'period_end'
  | 'amount_fen'
  | 'txn_no'
  | 'paid_at'
  | 'original_receipt_id'
> & { kind: ReceiptKind; item_kind: 'contract' | 'meal'; method: ReceiptMethod };

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

/** ref_id as an int when it is one (a payment of another kind, or a hand-written row, never breaks the cast) */
const REF_ID = `case when p.ref_id ~ '^[0-9]{1,9}$' then p.ref_id::int end`;
const DESK_METHODS = `('cash', 'bank', 'external')`;
const AMOUNT = `round((e.data->>'amount_fen')::numeric)::bigint`;
/** a contract's item: its package's name and the contract's number */
const CONTRACT_ITEM = `k.name || '（合同 ' || c.no || '）'`;

/** $1 school (null: any), $2 out_trade_no (null: any), $3 contract (null: any), $4 out_refund_no (null: any), $5 limit */
const SCOPE_PAYMENTS = `($1::int is null or school_id = $1) and ($2::text is null or out_trade_no = $2) and $4::text is null`;

/**
 * The paid sources without a receipt, oldest first (their own time: a receipt number follows the money's order):
 * - a WeChat payment of a contract or a dinner that paid its object — the object's history has its `paid` event naming
 *   the payment (a surplus, refunded in full because it paid nothing, gets no receipt, nor does its refund);
 * - a desk payment of a contract (a `paid` contract event of cash, bank transfer or another channel, the desk's receipt
 *   or transaction number when it was typed).
 */
const PAYMENT_SOURCES = `
  select 'payment:' || p.id as source, 'contract' as kind, 'contract' as item_kind, p.school_id, c.student_id, p.created_by as payer_id,
         c.id as contract_id, null::int as booking_id, st.name as student_name, ${CONTRACT_ITEM} as item,
         to_char(c.start_day, 'YYYY-MM-DD') as period_start, to_char(c.end_day, 'YYYY-MM-DD') as period_end,
         p.amount_fen::float8 as amount_fen, 'wechat' as method, coalesce(p.provider_txn_id, p.out_trade_no) as txn_no, p.paid_at,
         null::int as original_receipt_id
    from (select * from payments where kind = 'contract' and method = 'wechat' and state in ('paid', 'refunded') and paid_at is not null
            and ${SCOPE_PAYMENTS} offset 0) p
    join contracts c on c.id = ${REF_ID} and c.school_id = p.school_id
    join contract_packages k on k.id = c.package_id
    join students st on st.id = c.student_id
   where ($3::int is null or c.id = $3)
     and exists (select 1 from contract_events e where e.contract_id = c.id and e.type = 'paid' and e.data->>'out_trade_no' = p.out_trade_no)
  union all
  select 'payment:' || p.id, 'meal', 'meal', p.school_id, b.student_id, p.created_by, null, b.id, st.name,
         '晚餐 ' || to_char(b.day, 'YYYY-MM-DD') || coalesce('（' || g.name || '）', ''),
         to_char(b.day, 'YYYY-MM-DD'), to_char(b.day, 'YYYY-MM-DD'),
         p.amount_fen::float8, 'wechat', coalesce(p.provider_txn_id, p.out_trade_no), p.paid_at, null
    from (select * from payments where kind = 'meal' and method = 'wechat' and state in ('paid', 'refunded') and paid_at is not null
            and ${SCOPE_PAYMENTS} offset 0) p
    join meal_bookings b on b.id = ${REF_ID} and b.school_id = p.school_id
    left join meal_goods g on g.id = b.goods_id
    join students st on st.id = b.student_id
   where $3::int is null
     and exists (select 1 from meal_booking_events e where e.booking_id = b.id and e.type = 'paid' and e.data->>'out_trade_no' = p.out_trade_no)
  union all
  select 'contract_event:' || e.id, 'contract', 'contract', c.school_id, c.student_id, c.guardian_id, c.id, null, st.name, ${CONTRACT_ITEM},
         to_char(c.start_day, 'YYYY-MM-DD'), to_char(c.end_day, 'YYYY-MM-DD'),
         ${AMOUNT}::float8, e.data->>'method', coalesce(nullif(e.data->>'receipt_no', ''), '前台登记 #' || e.id), e.at, null
    from contract_events e
    join contracts c on c.id = e.contract_id
    join contract_packages k on k.id = c.package_id
    join students st on st.id = c.student_id
   where e.type = 'paid' and e.data->>'method' in ${DESK_METHODS} and ${AMOUNT} > 0
     and ($1::int is null or e.school_id = $1) and ($3::int is null or e.contract_id = $3) and $2::text is null and $4::text is null`;

/**
 * The refunds without a receipt, of payments that have theirs (the original is issued first, so it is always there):
 * - a WeChat refund of such a payment, once the provider says it succeeded;
 * - a desk refund of a desk-paid contract (its cancellation's `refunded` event, via the desk), against the contract's
 *   latest desk payment receipt.
 * The refund's receipt repeats its original's child, item and period.
 */
const REFUND_SOURCES = `
  select 'refund:' || r.id as source, 'refund' as kind, o.item_kind, r.school_id, o.student_id, o.payer_id, o.contract_id, o.booking_id,
         o.student_name, o.item, to_char(o.period_start, 'YYYY-MM-DD') as period_start, to_char(o.period_end, 'YYYY-MM-DD') as period_end,
         r.amount_fen::float8 as amount_fen, 'wechat' as method, coalesce(r.provider_refund_id, r.out_refund_no) as txn_no,
         coalesce(r.succeeded_at, r.created_at) as paid_at, o.id as original_receipt_id
    from payment_refunds r
    join payments p on p.id = r.payment_id and p.kind in ('contract', 'meal')
    join receipts o on o.source = 'payment:' || p.id
   where r.state = 'succeeded' and ($1::int is null or r.school_id = $1) and ($2::text is null or p.out_trade_no = $2)
     and ($3::int is null or o.contract_id = $3) and ($4::text is null or r.out_refund_no = $4)
  union all
  select 'contract_event:' || e.id, 'refund', 'contract', c.school_id, c.student_id, o.payer_id, c.id, null, o.student_name, o.item,
         to_char(o.period_start, 'YYYY-MM-DD'), to_char(o.period_end, 'YYYY-MM-DD'),
         ${AMOUNT}::float8, e.data->>'method', '前台退款 #' || e.id, e.at, o.id
    from contract_events e
    join contracts c on c.id = e.contract_id
    join lateral (select * from receipts o where o.contract_id = c.id and o.kind = 'contract' and o.source like 'contract_event:%'
                   order by o.id desc limit 1) o on true
   where e.type = 'refunded' and e.data->>'via' = 'offline' and e.data->>'method' in ${DESK_METHODS} and ${AMOUNT} > 0
     and ($1::int is null or e.school_id = $1) and ($3::int is null or e.contract_id = $3) and $2::text is null and $4::text is null`;

/** A receipt row as the lists answer it. */
const ROW = `r.id, r.receipt_no, r.kind, r.item_kind, r.student_id, r.student_name, r.item,
  to_char(r.period_start, 'YYYY-MM-DD') as period_start, to_char(r.period_end, 'YYYY-MM-DD') as period_end,
  r.amount_fen::float8 as amount_fen, r.method, r.txn_no, r.issued_at, r.contract_id, r.booking_id, o.receipt_no as original_receipt_no`;

type Row = Pick<
  ReceiptColumns,
  | 'id'
  | 'receipt_no'
  | 'student_id'
  | 'student_name'
  | 'item'
  | 'period_start'
  | 'period_end'
  | 'amount_fen'
  | 'txn_no'
  | 'issued_at'
  | 'contract_id'
  | 'booking_id'
> &
  Pick<ReceiptRow, 'kind' | 'item_kind' | 'method'> & { original_receipt_no: ReceiptColumns['receipt_no'] | null; total?: number };
const toRow = ({ total: _t, ...r }: Row): ReceiptRow => ({ ...r, issued_at: r.issued_at.toISOString() });

/** A receipt as its PDF and the export need it. */
export type ReceiptForPdf = ReceiptSnapshot & { id: ReceiptColumns['id']; stamp_path: FileColumns['storage_path'] | null };

/** The school's name and its current stamp's file (none: nulls). */
export type SchoolStamp = {
  school_name: Selectable<DB['schools']>['name'];
  file_id: FileColumns['id'] | null;
  uploaded_at: Selectable<DB['schools']>['receipt_stamp_at'];
} & Nullable<Pick<FileColumns, 'storage_path' | 'name' | 'mime' | 'size'>>;

/**
 * All the SQL of receipts (issue 40): the sources without a receipt, issuing one (the counter and the snapshot), the
 * lists, one receipt for its PDF, the stamp.
 */
export class ReceiptsRepository {
  constructor(private readonly q: Queryable) {}

  /** Paid sources (payments, desk payments) without a receipt, in the scope, oldest first. */
  async paymentSources(scope: SourceScope): Promise<ReceiptSource[]> {
    return this.sources(PAYMENT_SOURCES, scope);
  }

  /** Refunds without a receipt whose original has one, in the scope, oldest first. */
  async refundSources(scope: SourceScope): Promise<ReceiptSource[]> {
    return this.sources(REFUND_SOURCES, scope);
  }

  private async sources(sql: string, s: SourceScope): Promise<ReceiptSource[]> {
    return this.q.query(
      `select x.* from (${sql}) x where not exists (select 1 from receipts r where r.source = x.source) order by x.paid_at, x.source limit $5`,
      [s.schoolId ?? null, s.outTradeNo ?? null, s.contractId ?? null, s.outRefundNo ?? null, s.limit ?? 500],
    );
  }

  /** Whether a source has its receipt. */
  async issuedFor(source: string): Promise<boolean> {
    const rows: unknown[] = await this.q.query(`select 1 from receipts where source = $1`, [source]);
    return rows.length > 0;
  }

  /**
   * The school's next number of the (school-local) year of `at` (now when null): one statement that creates or
   * increments the counter row and answers it, holding its lock until the issuing transaction ends.
   */
  async nextNumber(schoolId: number, at: Date | null): Promise<{ year: number; seq: number }> {
    const [n]: Array<{ year: number; seq: number }> = await this.q.query(
      `insert into receipt_counters as k (school_id, year, last)
       select s.id, extract(year from (coalesce($2::timestamptz, now()) at time zone s.timezone))::int, 1 from schools s where s.id = $1
       on conflict (school_id, year) do update set last = k.last + 1
       returning year, last as seq`,
      [schoolId, at],
    );
    return n;
  }

  /**
   * Writes the receipt's snapshot with the school's name, stamp and zone as they are now; `issuedAt` null is now.
   * Answers its id, or null when the source has one already (a concurrent issue won: the caller rolls back).
   */
  async insert(s: ReceiptSource, receiptNo: string, issuedAt: Date | null): Promise<number | null> {
    const rows: Array<{ id: number }> = await this.q.query(
      `insert into receipts (school_id, receipt_no, kind, item_kind, source, student_id, payer_id, contract_id, booking_id, school_name, stamp_file_id,
                             student_name, item, period_start, period_end, amount_fen, method, txn_no, paid_at, timezone, original_receipt_id, issued_at)
       select s.id, $2, $3, $4, $5, $6, $7, $8, $9, s.name, s.receipt_stamp_file_id, $10, left($11, 200), $12, $13, $14, $15, left($16, 80), $17,
              s.timezone, $18, coalesce($19::timestamptz, now())
         from schools s where s.id = $1
       on conflict (source) do nothing
       returning id`,
      [
        s.school_id,
        receiptNo,
        s.kind,
        s.item_kind,
        s.source,
        s.student_id,
        s.payer_id,
        s.contract_id,
        s.booking_id,
        s.student_name,
        s.item,
        s.period_start,
        s.period_end,
        s.amount_fen,
        s.method,
        s.txn_no,
        s.paid_at,
        s.original_receipt_id,
        issuedAt,
      ],
    );
    return rows[0]?.id ?? null;
  }

  /** A guardian's children's receipts (any guardian of the child sees them), newest first, one page. */
  async parentPage(
    schoolId: number,
    userId: number,
    f: { student_id?: number; contract_id?: number; booking_id?: number },
    page: PageQuery,
  ): Promise<{ list: ReceiptRow[]; total: number }> {
    const rows: Row[] = await this.q.query(
      `select ${ROW}, count(*) over () as total
         from receipts r left join receipts o on o.id = r.original_receipt_id
        where r.school_id = $1 and r.student_id in (select g.student_id from student_guardians g where g.user_id = $2 and g.school_id = $1)
          and ($3::int is null or r.student_id = $3) and ($4::int is null or r.contract_id = $4) and ($5::int is null or r.booking_id = $5)
        order by r.issued_at desc, r.id desc limit $6 offset $7`,
      [schoolId, userId, f.student_id ?? null, f.contract_id ?? null, f.booking_id ?? null, page.limit, offsetOf(page)],
    );
    return { list: rows.map(toRow), total: totalOf(rows) };
  }

  /** The school's receipts of a local month's half-open day range, a kind, a keyword (the child's name or the number). */
  async schoolPage(
    schoolId: number,
    f: { from?: string; to?: string; kind?: ReceiptKind; keyword?: string },
    page: PageQuery | null,
  ): Promise<{ list: ReceiptRow[]; total: number }> {
    const rows: Row[] = await this.q.query(
      `select ${ROW}, count(*) over () as total
         from receipts r left join receipts o on o.id = r.original_receipt_id
         cross join (select timezone from schools where id = $1) s
        where r.school_id = $1
          and ($2::date is null or r.issued_at >= ($2::date)::timestamp at time zone s.timezone)
          and ($3::date is null or r.issued_at < ($3::date)::timestamp at time zone s.timezone)
          and ($4::text is null or r.kind = $4)
          and ($5::text is null or r.student_name ilike $5 or r.receipt_no like $5)
        order by r.issued_at desc, r.id desc limit $6 offset $7`,
      [schoolId, f.from ?? null, f.to ?? null, f.kind ?? null, containsPattern(f.keyword), page?.limit ?? null, page ? offsetOf(page) : 0],
    );
    return { list: rows.map(toRow), total: totalOf(rows) };
  }

  /** One receipt of the school for its PDF; a guardian's (`guardianId`) only of their own child. */
  async forPdf(schoolId: number, id: number, guardianId: number | null): Promise<ReceiptForPdf | null> {
    const [r]: ReceiptForPdf[] = await this.q.query(
      `select r.id, r.receipt_no, r.kind, r.school_name, r.student_name, r.item, to_char(r.period_start, 'YYYY-MM-DD') as period_start,
              to_char(r.period_end, 'YYYY-MM-DD') as period_end, r.amount_fen::float8 as amount_fen, r.method, r.txn_no, r.paid_at, r.issued_at,
              r.timezone, o.receipt_no as original_receipt_no, f.storage_path as stamp_path
         from receipts r left join receipts o on o.id = r.original_receipt_id left join files f on f.id = r.stamp_file_id
        where r.school_id = $1 and r.id = $2
          and ($3::int is null or exists (select 1 from student_guardians g where g.student_id = r.student_id and g.user_id = $3))`,
      [schoolId, id, guardianId],
    );
    return r ?? null;
  }

  /** The school's name and current stamp. */
  async stamp(schoolId: number): Promise<SchoolStamp> {
    const [s] = await this.q.query(
      `select s.name as school_name, f.id as file_id, f.storage_path, f.name, f.mime, f.size, s.receipt_stamp_at as uploaded_at
         from schools s left join files f on f.id = s.receipt_stamp_file_id where s.id = $1`,
      [schoolId],
    );
    return s;
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
    await this.q.query(`insert into files (id, school_id, user_id, name, mime, size, sha256, storage_path) values ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      f.id,
      f.schoolId,
      f.userId,
      f.name,
      f.mime,
      f.size,
      f.sha256,
      f.storagePath,
    ]);
  }

  /** The school's stamp from now on (receipts issued before keep theirs). */
  async setStamp(schoolId: number, fileId: string): Promise<void> {
    await this.q.query(
      `update schools set receipt_stamp_file_id = $2, receipt_stamp_at = now(), version = version + 1, updated_at = now() where id = $1`,
      [schoolId, fileId],
    );
  }
}
