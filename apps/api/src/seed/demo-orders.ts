import { addDays, priceOrder, storeOrderTransition, type StoreOrderState } from '@wantuo/shared';
import { newOutTradeNo } from '../modules/payments/out-trade-no';
import type { ShowcaseContext } from './demo-showcase';
import { TOP_UP_KIND } from '../modules/school/school.service';
import { GOODS_ORDER_KIND } from '../modules/store/store-sql';

/** The demo school's first top-up (fen): its mall orders and courseware are paid from the balance. */
const TOP_UP_FEN = 200_000;

/** The mall orders: lines as (index among the listed goods by id, quantity), days ago, and how far it got. */
const ORDERS: Array<{ lines: Array<[number, number]>; daysAgo: number; state: StoreOrderState; remark: string | null }> = [
  {
    lines: [
      [0, 2],
      [1, 2],
    ],
    daysAgo: 12,
    state: 'done',
    remark: '开学备用文具',
  },
  { lines: [[3, 1]], daysAgo: 5, state: 'shipped', remark: null },
  {
    lines: [
      [4, 1],
      [2, 2],
    ],
    daysAgo: 1,
    state: 'paid',
    remark: '请工作日送货',
  },
];

/**
 * A money move of the demo school at a time in the past, as the payments module's ledger posts one (the balance moves
 * in the same statement, never below zero; an entry per idempotency key), with its paid payment row.
 */
export async function demoMoney(
  c: ShowcaseContext,
  m: {
    kind: string;
    method: 'wechat' | 'balance';
    prefix: string;
    refId: string;
    description: string;
    amountFen: number;
    at: Date;
    key: string;
    meta: Record<string, unknown>;
  },
): Promise<string> {
  const outTradeNo = newOutTradeNo(m.prefix);
  const [pay]: Array<{ id: number }> = await c.em.query(
    `insert into payments (school_id, out_trade_no, kind, ref_id, description, amount_fen, method, state, meta, created_by, created_at, paid_at)
     values ($1, $2, $3, $4, $5, $6, $7, 'paid', $8, $9, $10, $10) returning id::int as id`,
    [c.schoolId, outTradeNo, m.kind, m.refId, m.description, m.amountFen, m.method, JSON.stringify(m.meta), c.users.admin, m.at],
  );
  const credit = m.kind === TOP_UP_KIND;
  const [entry]: unknown[] = await c.em.query(
    `with s as (update schools set balance_fen = balance_fen + $3 where id = $1 and balance_fen + $3 >= 0 returning balance_fen)
     insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, ref_kind, ref_id, payment_id, actor_id, note, idempotency_key, created_at)
     select $1, $2, $3, s.balance_fen, $4, $5, $6, $7, $8, $9, $10 from s returning id`,
    [
      c.schoolId,
      credit ? 'top_up' : 'payment',
      credit ? m.amountFen : -m.amountFen,
      m.kind,
      outTradeNo,
      pay.id,
      c.users.admin,
      credit ? '微信支付充值' : m.description,
      m.key,
      m.at,
    ],
  );
  if (!entry) throw new Error(`the demo school's balance does not cover ${m.description}`);
  return outTradeNo;
}

/**
 * The demo school's delivery address, a WeChat top-up, and three mall orders of the operator's goods priced by the
 * store's own rule (priceOrder: free delivery from ¥99) and paid from the balance: one received (done), one shipped,
 * one paid and waiting for the operator. Each step is one the store's state machine allows (storeOrderTransition); the
 * stock is reserved by a move per line and every step is in the order's history.
 */
export async function seedDemoOrders(c: ShowcaseContext): Promise<number> {
  const { em, schoolId, users } = c;
  const address = { name: '王园长', mobile: '13800000001', region: '广东省 深圳市 南山区', detail: '科技园路 88 号 阳光晚托中心 2 楼前台' };
  await em.query(
    `insert into store_addresses (school_id, name, mobile, region, detail, is_default, created_at) values ($1, $2, $3, $4, $5, true, $6)`,
    [schoolId, address.name, address.mobile, address.region, address.detail, c.at(addDays(c.today, -20), '10:00')],
  );
  await demoMoney(c, {
    kind: TOP_UP_KIND,
    method: 'wechat',
    prefix: 'T',
    refId: String(schoolId),
    description: '账户充值',
    amountFen: TOP_UP_FEN,
    at: c.at(addDays(c.today, -15), '10:20'),
    key: 'demo:top-up',
    meta: {},
  });
  const goods: Array<{ id: number; name: string; price_fen: number; stock: number; listed: boolean; picture: string | null }> = await em.query(
    `select id, name, price_fen::float8 as price_fen, stock, listed, pictures->>0 as picture from store_goods where listed order by id`,
  );
  let n = 0;
  for (const o of ORDERS) {
    const wanted = o.lines.filter(([i]) => i < goods.length).map(([i, quantity]) => ({ goods_id: goods[i].id, quantity }));
    if (!wanted.length) continue;
    const priced = priceOrder(wanted, goods);
    if (!priced.ok) throw new Error(`the demo order was refused: ${priced.error}`);
    const p = priced.value;
    const placed = c.at(addDays(c.today, -o.daysAgo), '09:40');
    const [row]: Array<{ id: number; no: string }> = await em.query(
      `with n as (select nextval('store_orders_id_seq')::int as id)
       insert into store_orders (id, no, school_id, goods_fen, freight_fen, total_fen, address, remark, placed_by, request_key, expires_at, created_at)
       select n.id, 'SC' || to_char($10::timestamptz at time zone 'Asia/Shanghai', 'YYMMDD') || lpad(n.id::text, 8, '0'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
         from n returning id, no`,
      [
        schoolId,
        p.goods_fen,
        p.freight_fen,
        p.total_fen,
        JSON.stringify(address),
        o.remark,
        users.admin,
        `demo-order-${n + 1}`,
        new Date(placed.getTime() + 30 * 60_000),
        placed,
      ],
    );
    await em.query(
      `with l as (select * from unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::int[]) as l(goods_id, name, picture, price_fen, quantity)),
       i as (insert into store_order_lines (order_id, goods_id, name, picture, price_fen, quantity, amount_fen)
             select $1, l.goods_id, l.name, l.picture, l.price_fen, l.quantity, l.price_fen * l.quantity from l returning 1),
       g as (update store_goods s set stock = s.stock - l.quantity, sold = s.sold + l.quantity, updated_at = now() from l where s.id = l.goods_id
             returning s.id, s.stock, l.quantity)
       insert into store_stock_moves (goods_id, kind, delta, stock_after, order_id, actor_id, created_at)
       select g.id, 'reserve', -g.quantity, g.stock, $1, $7, $8 from g`,
      [
        row.id,
        p.lines.map((l) => l.goods_id),
        p.lines.map((l) => l.name),
        p.lines.map((l) => l.picture),
        p.lines.map((l) => l.price_fen),
        p.lines.map((l) => l.quantity),
        users.admin,
        placed,
      ],
    );
    const events: Array<{ type: string; actor: number; at: Date; data: Record<string, unknown> }> = [
      { type: 'placed', actor: users.admin, at: placed, data: { total_fen: p.total_fen, expires_at: new Date(placed.getTime() + 30 * 60_000) } },
    ];
    let state: StoreOrderState = 'unpaid';
    const step = (cmd: 'pay' | 'ship' | 'confirm') => {
      const t = storeOrderTransition(state, cmd);
      if (!t.ok || t.value.repeat) throw new Error(`demo order ${state} -> ${cmd} refused`);
      state = t.value.state;
    };
    const paidAt = new Date(placed.getTime() + 5 * 60_000);
    step('pay');
    const description = `商城订单 ${row.no}`;
    const outTradeNo = await demoMoney(c, {
      kind: GOODS_ORDER_KIND,
      method: 'balance',
      prefix: 'G',
      refId: String(row.id),
      description,
      amountFen: p.total_fen,
      at: paidAt,
      key: `goods:${row.id}`,
      meta: { order_no: row.no, request_id: null },
    });
    events.push({ type: 'paid', actor: users.admin, at: paidAt, data: { method: 'balance', out_trade_no: outTradeNo, amount_fen: p.total_fen } });
    let shipped: Date | null = null;
    let done: Date | null = null;
    const tracking = `SF${String(1_402_000_000_000 + row.id * 7_919).padStart(13, '0')}`;
    if (o.state === 'shipped' || o.state === 'done') {
      step('ship');
      shipped = c.at(addDays(c.today, -o.daysAgo + 1), '15:00');
      events.push({ type: 'shipped', actor: users.operator, at: shipped, data: { carrier: '顺丰速运', tracking_no: tracking } });
    }
    if (o.state === 'done') {
      step('confirm');
      done = c.at(addDays(c.today, -o.daysAgo + 3), '11:00');
      events.push({ type: 'done', actor: users.admin, at: done, data: {} });
    }
    await em.query(
      `update store_orders set state = $2, pay_method = 'balance', out_trade_no = $3, paid_at = $4, carrier = $5, tracking_no = $6, shipped_at = $7,
              shipped_by = $8, done_at = $9, done_by = $10, version = $11 where id = $1`,
      [
        row.id,
        state,
        outTradeNo,
        paidAt,
        shipped && '顺丰速运',
        shipped && tracking,
        shipped,
        shipped && users.operator,
        done,
        done && users.admin,
        events.length,
      ],
    );
    await em.query(
      `insert into store_order_events (order_id, school_id, type, actor_id, data, created_at)
       select $1, $2, e.type, e.actor_id, e.data, e.at from unnest($3::text[], $4::int[], $5::jsonb[], $6::timestamptz[]) with ordinality as e(type, actor_id, data, at, ord) order by e.ord`,
      [row.id, schoolId, events.map((e) => e.type), events.map((e) => e.actor), events.map((e) => JSON.stringify(e.data)), events.map((e) => e.at)],
    );
    n++;
  }
  return n;
}
