import { addDays, addMonthsToDay, contractTerms, refundFigure, renewalStartDay, type PackageInclude, type PackageKind } from '@wantuo/shared';
import type { EntityManager } from 'typeorm';
import { schoolToday } from '../core/database/sql-kit';
import { newContractNo } from '../modules/contracts/contract-sql';

/**
 * The demo school's packages and contracts (part of the demo seed, run once with it): four packages and contracts
 * for most students in every state, written with the rows and history entries the services write (signed, paid,
 * renewed, cancelled with its refund, expired), so /principal_contract, the student's tab, the parent's page and the
 * landing page have something true to show on a fresh `npm start`. Days are relative to the school's day of seeding.
 *
 * Days and sessions contracts are seeded unused and starting about now: their use is a projection of the daily flow
 * (contract_usage), which the demo has no history of.
 */

type PackageKey = 'term' | 'month' | 'days' | 'sessions';

const PACKAGES: Record<
  PackageKey,
  { name: string; kind: PackageKind; length: number; valid_months: number | null; price_fen: number; includes: PackageInclude[]; description: string }
> = {
  term: {
    name: '学期托管',
    kind: 'term',
    length: 1,
    valid_months: null,
    price_fen: 598_000,
    includes: ['care', 'dinner', 'tutoring'],
    description: '一学期放学托管，含晚餐与作业辅导',
  },
  month: {
    name: '月托（含晚餐）',
    kind: 'month',
    length: 1,
    valid_months: null,
    price_fen: 128_000,
    includes: ['care', 'dinner'],
    description: '按月托管，含晚餐',
  },
  days: {
    name: '20天次卡',
    kind: 'days',
    length: 20,
    valid_months: 3,
    price_fen: 96_000,
    includes: ['care', 'dinner'],
    description: '按到园天数扣减，3 个月内有效',
  },
  sessions: {
    name: '10次辅导',
    kind: 'sessions',
    length: 10,
    valid_months: 3,
    price_fen: 50_000,
    includes: ['tutoring'],
    description: '一对一作业辅导 10 次，3 个月内有效',
  },
};

interface DemoContract {
  student: string;
  pkg: PackageKey;
  /** the start, in days from the school's today; or `endsIn`: a start that makes the contract end that many days from today (a few days sooner at month ends) */
  start?: number;
  endsIn?: number;
  /** paid at the desk; absent: unpaid (the guardian pays by WeChat Pay in the parent area) */
  paid?: { method: 'cash' | 'bank' | 'external'; receipt_no?: string };
  discount?: { price_fen: number; reason: string };
  auto_renew?: boolean;
  remark?: string;
  /** past its end: expired by the daily job the day after */
  expired?: boolean;
  /** cancelled that many days ago with the refund of that day, given back at the desk */
  cancelled?: { daysAgo: number; reason: string };
  /** renewed by the admin yesterday: the renewal is unpaid */
  renewed?: boolean;
}

/**
 * 15 of the 18 demo students (one archived), each state: 3 unpaid, 7 active, 3 expiring, 2 expired, 1 cancelled. The
 * days and sessions contracts are the second class's: a tap on a student with one covering today recomputes the
 * usage in a transaction, and on the embedded database (pglite-socket, one session for every pooled connection)
 * requests running at the same moment were answered wrongly (test/embedded.spec.ts taps the running class at once).
 */
const CONTRACTS: DemoContract[] = [
  { student: '陈小雨', pkg: 'term', start: -45, paid: { method: 'bank', receipt_no: 'BK20260901001' }, auto_renew: true },
  { student: '陈小阳', pkg: 'month', endsIn: 6, paid: { method: 'cash' }, renewed: true },
  { student: '王子涵', pkg: 'month', start: -5, paid: { method: 'external', receipt_no: 'WX4200002611' } },
  { student: '李欣怡', pkg: 'month', start: -8, paid: { method: 'cash' }, remark: '晚餐不含花生（见学生档案过敏信息）' },
  { student: '张浩然', pkg: 'month', endsIn: 4, paid: { method: 'cash' } },
  { student: '刘诗琪', pkg: 'term', start: 3 },
  { student: '杨宇航', pkg: 'month', endsIn: -20, paid: { method: 'cash' }, expired: true },
  { student: '赵雨桐', pkg: 'term', start: -60, paid: { method: 'bank', receipt_no: 'BK20261102017' } },
  { student: '周梓萱', pkg: 'month', start: -30, paid: { method: 'cash' }, cancelled: { daysAgo: 10, reason: '家长工作调动，转学外地' } },
  {
    student: '吴宇轩',
    pkg: 'term',
    start: -30,
    paid: { method: 'bank', receipt_no: 'BK20261024003' },
    discount: { price_fen: 568_000, reason: '老生续报优惠' },
  },
  { student: '徐若曦', pkg: 'sessions', start: 0, paid: { method: 'bank', receipt_no: 'BK20261120017' } },
  { student: '孙浩宇', pkg: 'month', start: 0 },
  { student: '胡可馨', pkg: 'days', start: 0, paid: { method: 'external', receipt_no: 'ZFB2026111100' } },
  { student: '朱子墨', pkg: 'term', endsIn: 9, paid: { method: 'cash' } },
  { student: '林嘉豪', pkg: 'month', endsIn: -90, paid: { method: 'cash' }, expired: true },
];

/** The months a package's period spans (contractTerms' rule), to place a contract that ends on a given day. */
const periodMonths = (p: (typeof PACKAGES)[PackageKey]) => (p.kind === 'term' ? p.length * 5 : p.kind === 'month' ? p.length : (p.valid_months ?? 6));

/** A moment of a school day at hh:mm in Asia/Shanghai (the demo school's timezone), as SQL. */
const AT = (param: string, time: string) => `((${param}::date + time '${time}') at time zone 'Asia/Shanghai')`;

/** Seeds the demo school's packages and contracts (inside the demo seed's transaction). */
export async function seedDemoContracts(em: EntityManager, schoolId: number, adminId: number): Promise<void> {
  const today = await schoolToday(em, schoolId);
  const pkgIds = {} as Record<PackageKey, number>;
  for (const [key, p] of Object.entries(PACKAGES) as Array<[PackageKey, (typeof PACKAGES)[PackageKey]]>) {
    const [k]: Array<{ id: number }> = await em.query(
      `insert into contract_packages (school_id, name, kind, length, valid_months, price_fen, includes, description, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, ${AT('$9', '09:00')}, ${AT('$9', '09:00')}) returning id`,
      [schoolId, p.name, p.kind, p.length, p.valid_months, p.price_fen, p.includes, p.description, addDays(today, -200)],
    );
    pkgIds[key] = k.id;
  }
  const students: Array<{ id: number; name: string; guardian_id: number | null }> = await em.query(
    `select s.id, s.name, (select g.user_id from student_guardians g where g.student_id = s.id order by g.is_primary desc, g.user_id limit 1) as guardian_id
       from students s where s.school_id = $1`,
    [schoolId],
  );
  const byName = new Map(students.map((s) => [s.name, s]));
  const event = (
    contractId: number,
    type: string,
    day: string,
    time: string,
    data: Record<string, unknown>,
    reason: string | null = null,
    actor: number | null = adminId,
  ) =>
    em.query(
      `insert into contract_events (school_id, contract_id, type, data, reason, actor_id, at) values ($1, $2, $3, $4, $5, $6, ${AT('$7', time)})`,
      [schoolId, contractId, type, JSON.stringify(data), reason, actor, day],
    );

  for (const d of CONTRACTS) {
    const st = byName.get(d.student);
    if (!st) continue;
    const p = PACKAGES[d.pkg];
    const start = d.start !== undefined ? addDays(today, d.start) : addMonthsToDay(addDays(today, d.endsIn! + 1), -periodMonths(p));
    const terms = contractTerms(p, start);
    // signed two days before the start, at the latest yesterday
    const signedDay = [addDays(start, -2), addDays(today, -1)].sort()[0];
    const price = d.discount?.price_fen ?? p.price_fen;
    const status = d.cancelled ? 'cancelled' : d.expired ? 'expired' : d.paid ? 'active' : 'unpaid';
    const cancelDay = d.cancelled ? addDays(today, -d.cancelled.daysAgo) : null;
    const refund = cancelDay
      ? refundFigure({
          kind: p.kind,
          list_price_fen: p.price_fen,
          price_fen: price,
          paid_fen: price,
          start_day: terms.start_day,
          end_day: terms.end_day,
          units_total: terms.units_total,
          units_used: 0,
          today: cancelDay,
        })
      : null;
    const [c]: Array<{ id: number; no: string }> = await em.query(
      `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, discount_reason,
                              paid_fen, refunded_fen, status, auto_renew, guardian_id, pay_method, receipt_no, remark, created_by,
                              created_at, updated_at, paid_at, cancelled_at, expired_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
               ${AT('$21', '10:30')}, ${AT('$21', '10:30')}, case when $12::bigint > 0 then ${AT('$21', '10:35')} end,
               ${AT('$22', '15:20')}, ${AT('$23', '08:00')})
       returning id, no`,
      [
        schoolId,
        newContractNo(signedDay),
        st.id,
        pkgIds[d.pkg],
        p.kind,
        terms.start_day,
        terms.end_day,
        terms.units_total,
        p.price_fen,
        price,
        d.discount?.reason ?? null,
        d.paid ? price : 0,
        refund?.refund_fen ?? 0,
        status,
        d.auto_renew ?? false,
        st.guardian_id,
        d.paid?.method ?? null,
        d.paid?.receipt_no ?? null,
        d.remark ?? null,
        adminId,
        signedDay,
        cancelDay,
        d.expired ? addDays(terms.end_day, 1) : null,
      ],
    );
    await event(c.id, 'signed', signedDay, '10:30', {
      package_id: pkgIds[d.pkg],
      package_name: p.name,
      ...terms,
      list_price_fen: p.price_fen,
      price_fen: price,
      discount_reason: d.discount?.reason ?? null,
    });
    if (d.paid) await event(c.id, 'paid', signedDay, '10:35', { amount_fen: price, method: d.paid.method, receipt_no: d.paid.receipt_no ?? null });
    if (d.expired)
      await event(
        c.id,
        'expired',
        addDays(terms.end_day, 1),
        '08:00',
        { end_day: terms.end_day, units_total: terms.units_total, units_used: 0 },
        null,
        null,
      );
    if (cancelDay && refund) {
      const reason = d.cancelled!.reason;
      await event(
        c.id,
        'cancelled',
        cancelDay,
        '15:20',
        { ...refund, via: 'offline', request_key: `cancel:demo-${c.id}`, out_trade_no: null, today: cancelDay },
        reason,
      );
      if (refund.refund_fen > 0)
        await event(
          c.id,
          'refunded',
          cancelDay,
          '15:20',
          { amount_fen: refund.refund_fen, via: 'offline', method: 'cash', out_trade_no: null },
          reason,
        );
    }
    if (d.renewed) {
      const renewedDay = addDays(today, -1);
      const next = contractTerms(p, renewalStartDay(terms.end_day, renewedDay));
      const [n]: Array<{ id: number; no: string }> = await em.query(
        `insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, list_price_fen, price_fen, paid_fen, status,
                                auto_renew, guardian_id, renewed_from, created_by, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 0, 'unpaid', $10, $11, $12, $13, ${AT('$14', '16:10')}, ${AT('$14', '16:10')}) returning id, no`,
        [
          schoolId,
          newContractNo(renewedDay),
          st.id,
          pkgIds[d.pkg],
          p.kind,
          next.start_day,
          next.end_day,
          next.units_total,
          p.price_fen,
          d.auto_renew ?? false,
          st.guardian_id,
          c.id,
          adminId,
          renewedDay,
        ],
      );
      await em.query(`update contracts set version = version + 1 where id = $1`, [c.id]);
      await event(c.id, 'renewed', renewedDay, '16:10', { to_id: n.id, to_no: n.no });
      await event(n.id, 'renewed', renewedDay, '16:10', {
        from_id: c.id,
        from_no: c.no,
        package_id: pkgIds[d.pkg],
        package_name: p.name,
        ...next,
        price_fen: p.price_fen,
      });
    }
  }
}
