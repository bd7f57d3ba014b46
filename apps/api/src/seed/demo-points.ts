import { addDays, applyPoints, exchangeDecision, kindOfChange, orderTransition, type OrderState } from '@wantuo/shared';
import type { ShowcaseContext, ShowcaseStudent } from './demo-showcase';
import { spread } from './demo-showcase';

const GOODS = [
  { name: '卡通贴纸一套', price: 20, stock: 50, description: '30 枚防水卡通贴纸，可贴在文具和水杯上。' },
  { name: '自动铅笔', price: 40, stock: 30, description: '0.5mm 自动铅笔，附两盒铅芯。' },
  { name: '绘本《好饿的毛毛虫》', price: 120, stock: 8, description: '经典绘本，平装版。' },
  { name: '跳绳', price: 80, stock: 15, description: '可调节长度的计数跳绳。' },
  { name: '免作业券（一次）', price: 150, stock: 20, description: '可免除一次晚托书面作业（需提前告知老师）。' },
];

/** Why teachers award or deduct (points, reason). */
const REASONS: Array<[number, string]> = [
  [5, '作业认真完成'],
  [3, '按时到校'],
  [10, '测验进步明显'],
  [5, '主动帮助同学'],
  [2, '整理书包和座位'],
  [-3, '课堂上说话影响他人'],
];

/** The exchanges: student (index in the running class, the demo parent's children first), good, state. */
const ORDERS: Array<{ student: number; goods: number; state: OrderState; daysAgo: number }> = [
  { student: 0, goods: 0, state: 'handed_over', daysAgo: 6 },
  { student: 2, goods: 1, state: 'handed_over', daysAgo: 4 },
  { student: 3, goods: 3, state: 'cancelled', daysAgo: 3 },
  { student: 1, goods: 0, state: 'pending', daysAgo: 1 },
  { student: 4, goods: 1, state: 'pending', daysAgo: 0 },
];

interface Entry {
  student: ShowcaseStudent;
  at: Date;
  delta: number;
  kind: 'award' | 'deduct' | 'exchange' | 'refund';
  reason: string;
  actor: number;
  order?: number;
}

/**
 * The points shop's goods (first price and stock logged), two weeks of awards (and a few deductions) by the classes'
 * teachers, and exchange orders: handed over, pending and one cancelled with its points and unit given back. Balances
 * follow the points module's rules (applyPoints never below zero, exchangeDecision, orderTransition); the ledger's
 * balance after each entry, the accounts and the stock moves agree with them.
 */
export async function seedDemoPoints(c: ShowcaseContext): Promise<number> {
  const { em, schoolId, users } = c;
  const created = c.at(addDays(c.today, -20), '09:00');
  const goods: Array<{ id: number; name: string; price: number; stock: number }> = await em.query(
    `insert into points_goods (school_id, name, description, price, stock, created_at, updated_at)
     select $1, g.name, g.description, g.price, g.stock, $5, $5 from unnest($2::text[], $3::text[], $4::int[], $6::int[]) with ordinality as g(name, description, price, stock, ord)
      order by g.ord returning id, name, price, stock`,
    [schoolId, GOODS.map((g) => g.name), GOODS.map((g) => g.description), GOODS.map((g) => g.price), created, GOODS.map((g) => g.stock)],
  );
  await em.query(
    `insert into points_goods_prices (school_id, goods_id, old_price, new_price, actor_id, at) select $1, id, null, price, $2, $3 from points_goods where school_id = $1`,
    [schoolId, users.admin, created],
  );
  await em.query(
    `insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, actor_id, at) select $1, id, 'initial', stock, stock, $2, $3 from points_goods where school_id = $1`,
    [schoolId, users.admin, created],
  );

  // the awards: most school days of the last two weeks, by the class's teacher at the end of the tutoring hour
  const entries: Entry[] = [];
  const days = c.schoolDays(addDays(c.today, -14), addDays(c.today, -1));
  for (const [list, actor] of [
    [c.running, users.teacher],
    [c.second, users.zhao],
  ] as const) {
    for (const st of list) {
      for (const [i, day] of days.entries()) {
        const r = spread(st.id, i, 7);
        if (r >= REASONS.length) continue;
        const [delta, reason] = REASONS[r];
        entries.push({
          student: st,
          at: c.at(day, `18:${String(50 + (st.id % 9)).padStart(2, '0')}`),
          delta,
          kind: kindOfChange(delta),
          reason,
          actor,
        });
      }
    }
  }
  const kids = [...c.running].sort((a, b) => Number(b.parents_child) - Number(a.parents_child) || a.id - b.id);
  const orders = ORDERS.map((o, n) => ({ ...o, n, st: kids[o.student], good: goods[o.goods], at: c.at(addDays(c.today, -o.daysAgo), '19:10') })).map(
    (o) => ({ ...o, at: o.at > new Date() ? new Date() : o.at }),
  );
  entries.sort((a, b) => a.at.getTime() - b.at.getTime());

  // replay in time order: balances, then each exchange (and its cancellation) at its time
  const balance = new Map<number, number>();
  const stock = new Map(goods.map((g) => [g.id, g.stock]));
  const ledger: Array<Entry & { balance_after: number }> = [];
  const moves: Array<{
    goods: number;
    kind: 'exchange' | 'cancel';
    delta: number;
    after: number;
    order: number;
    at: Date;
    actor: number;
    reason: string | null;
  }> = [];
  const apply = (e: Entry) => {
    const d = applyPoints(balance.get(e.student.id) ?? 0, e.delta);
    if (!d.ok) return false;
    balance.set(e.student.id, d.value);
    ledger.push({ ...e, balance_after: d.value });
    return true;
  };
  let next = 0;
  const written: number[] = [];
  for (const o of orders) {
    while (next < entries.length && entries[next].at <= o.at) apply(entries[next++]);
    // a child short of points was awarded for the exam first (the teachers' data says so)
    const have = balance.get(o.st.id) ?? 0;
    if (have < o.good.price)
      apply({
        student: o.st,
        at: new Date(o.at.getTime() - 3_600_000),
        delta: o.good.price - have + 10,
        kind: 'award',
        reason: '测验进步明显',
        actor: users.teacher,
      });
    const d = exchangeDecision(balance.get(o.st.id)!, { price: o.good.price, stock: stock.get(o.good.id)!, listed: true, deleted: false });
    if (!d.ok) throw new Error(`demo exchange refused: ${d.error}`);
    const [row]: Array<{ id: number; no: string }> = await em.query(
      `with n as (select nextval('points_orders_id_seq')::int as id)
       insert into points_orders (id, no, school_id, student_id, goods_id, goods_name, price, state, placed_by, request_key, created_at)
       select n.id, 'DH' || lpad(n.id::text, 10, '0'), $1, $2, $3, $4, $5, 'pending', $6, $7, $8 from n returning id, no`,
      [schoolId, o.st.id, o.good.id, o.good.name, o.good.price, o.st.parents_child ? users.parent : users.teacher, `demo-exchange-${o.n + 1}`, o.at],
    );
    written.push(row.id);
    apply({
      student: o.st,
      at: o.at,
      delta: -o.good.price,
      kind: 'exchange',
      reason: o.good.name,
      actor: o.st.parents_child ? users.parent : users.teacher,
      order: row.id,
    });
    stock.set(o.good.id, stock.get(o.good.id)! - 1);
    moves.push({
      goods: o.good.id,
      kind: 'exchange',
      delta: -1,
      after: stock.get(o.good.id)!,
      order: row.id,
      at: o.at,
      actor: o.st.parents_child ? users.parent : users.teacher,
      reason: null,
    });
    if (o.state === 'pending') continue;
    const t = orderTransition('pending', o.state === 'handed_over' ? 'hand_over' : 'cancel');
    if (!t.ok) throw new Error(`demo exchange order ${o.state} refused`);
    const when = new Date(o.at.getTime() + 20 * 3_600_000);
    if (o.state === 'handed_over') {
      await em.query(`update points_orders set state = 'handed_over', handed_over_by = $2, handed_over_at = $3 where id = $1`, [
        row.id,
        users.admin,
        when,
      ]);
    } else {
      const reason = '家长希望换成其他奖品';
      await em.query(`update points_orders set state = 'cancelled', cancelled_by = $2, cancelled_at = $3, cancel_reason = $4 where id = $1`, [
        row.id,
        users.admin,
        when,
        reason,
      ]);
      apply({ student: o.st, at: when, delta: o.good.price, kind: 'refund', reason, actor: users.admin, order: row.id });
      stock.set(o.good.id, stock.get(o.good.id)! + 1);
      moves.push({ goods: o.good.id, kind: 'cancel', delta: 1, after: stock.get(o.good.id)!, order: row.id, at: when, actor: users.admin, reason });
    }
  }
  while (next < entries.length) apply(entries[next++]);
  ledger.sort((a, b) => a.at.getTime() - b.at.getTime());

  await em.query(
    `insert into points_ledger (school_id, student_id, kind, delta, balance_after, reason, order_id, actor_id, request_key, created_at)
     select $1, x.student_id, x.kind, x.delta, x.balance_after, x.reason, x.order_id, x.actor_id, x.request_key, x.created_at
       from unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::int[], $8::int[], $9::text[], $10::timestamptz[])
         with ordinality as x(student_id, kind, delta, balance_after, reason, order_id, actor_id, request_key, created_at, ord)
      order by x.ord`,
    [
      schoolId,
      ledger.map((e) => e.student.id),
      ledger.map((e) => e.kind),
      ledger.map((e) => e.delta),
      ledger.map((e) => e.balance_after),
      ledger.map((e) => e.reason),
      ledger.map((e) => e.order ?? null),
      ledger.map((e) => e.actor),
      ledger.map((e, i) =>
        e.kind === 'exchange' ? `xchg:demo-exchange-${written.indexOf(e.order!) + 1}` : e.kind === 'refund' ? null : `pts:demo-${i}:${e.student.id}`,
      ),
      ledger.map((e) => e.at),
    ],
  );
  await em.query(
    `insert into points_accounts (student_id, school_id, balance, updated_at) select b.student_id, $1, b.balance, now() from unnest($2::int[], $3::int[]) as b(student_id, balance)`,
    [schoolId, [...balance.keys()], [...balance.values()]],
  );
  moves.sort((a, b) => a.at.getTime() - b.at.getTime());
  await em.query(
    `insert into points_stock_moves (school_id, goods_id, kind, delta, stock_after, order_id, reason, actor_id, at)
     select $1, x.goods_id, x.kind, x.delta, x.stock_after, x.order_id, x.reason, x.actor_id, x.at
       from unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::int[], $7::text[], $8::int[], $9::timestamptz[]) with ordinality
         as x(goods_id, kind, delta, stock_after, order_id, reason, actor_id, at, ord) order by x.ord`,
    [
      schoolId,
      moves.map((m) => m.goods),
      moves.map((m) => m.kind),
      moves.map((m) => m.delta),
      moves.map((m) => m.after),
      moves.map((m) => m.order),
      moves.map((m) => m.reason),
      moves.map((m) => m.actor),
      moves.map((m) => m.at),
    ],
  );
  // the goods as the moves leave them
  await em.query(
    `update points_goods g set stock = x.stock, exchanged = (select count(*) from points_orders o where o.goods_id = g.id)
       from unnest($1::int[], $2::int[]) as x(id, stock) where g.id = x.id`,
    [[...stock.keys()], [...stock.values()]],
  );
  return orders.length;
}
