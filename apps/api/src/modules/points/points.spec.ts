import { Code, type ScoreGoods, type ScoreOrder } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let parent: string;
let operator: string;
let today: string;
/** the demo parent's children (in the teacher's class), a child of the teacher's class of another family, one of another class */
let child: number;
let sibling: number;
let classmate: number;
let outsider: number;
let classId: number;
let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${seq++}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, redis: false, demoPeople: true });
  [admin, teacher, adviser, parent, operator] = await Promise.all(
    ['admin', 'teacher', 'adviser', 'parent', 'operator'].map((u) => t.login(u as 'admin')),
  );
  classId = t.demo.classes!.running;
  const { rows } = await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as today`);
  today = rows[0].today;
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id where g.user_id = $1 and s.status = 1 order by s.id`,
    [t.demo.users.parent],
  );
  [child, sibling] = mine.rows.map((r) => r.id as number);
  const mate = await t.sql.query(
    `select s.id from students s join care_class_students c on c.student_id = s.id where c.class_id = $1 and s.status = 1 and s.id <> all($2) order by s.id limit 1`,
    [classId, [child, sibling]],
  );
  classmate = mate.rows[0].id;
  const out = await t.sql.query(
    `select s.id from students s join care_class_students c on c.student_id = s.id where c.class_id = $1 and s.status = 1 order by s.id limit 1`,
    [t.demo.classes!.second],
  );
  outsider = out.rows[0].id;
});
afterAll(() => t.close());

/** Row counts, versions and balances of everything this module writes, with the harness's tables. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from points_ledger)::int as ledger, (select count(*) from points_accounts)::int as accounts,
            (select coalesce(sum(balance), 0) from points_accounts)::int as balances,
            (select count(*) from points_goods)::int as goods, (select coalesce(sum(version), 0) from points_goods)::int as goods_versions,
            (select coalesce(sum(stock), 0) from points_goods)::int as stock, (select count(*) from points_goods_prices)::int as prices,
            (select count(*) from points_stock_moves)::int as moves, (select count(*) from points_orders)::int as orders,
            (select count(*) from points_orders where state <> 'pending')::int as orders_done`,
  );
  const { schools: _s, users: _u, user_tokens: _t, user_activity: _a, user_versions: _v, ...rest } = await snapshot(t.sql);
  return { ...rest, ...rows[0] };
}

/** The ledger of every student sums to its balance, and no balance is negative. */
async function audit() {
  const { rows } = await t.sql.query(
    `select a.student_id, a.balance, coalesce((select sum(delta) from points_ledger l where l.student_id = a.student_id), 0)::int as ledger from points_accounts a`,
  );
  for (const r of rows) expect({ id: r.student_id, balance: r.balance }).toEqual({ id: r.student_id, balance: r.ledger });
  expect(rows.every((r) => r.balance >= 0)).toBe(true);
  const stock = await t.sql.query(
    `select g.id, g.stock, g.exchanged, (select coalesce(sum(delta), 0) from points_stock_moves m where m.goods_id = g.id)::int as moved,
            (select count(*) from points_orders o where o.goods_id = g.id)::int as orders from points_goods g`,
  );
  for (const g of stock.rows) expect({ id: g.id, stock: g.stock, exchanged: g.exchanged }).toEqual({ id: g.id, stock: g.moved, exchanged: g.orders });
}

const award = (ids: number[], points: number, token = admin, over: Record<string, unknown> = {}) =>
  t.post('/api/index/awardPoints', token).send({ student_ids: ids, points, reason: '课堂表现好', request_id: rid(), ...over });

async function balanceOf(id: number): Promise<number> {
  const { rows } = await t.sql.query(`select coalesce((select balance from points_accounts where student_id = $1), 0) as b`, [id]);
  return rows[0].b;
}

let goodsNo = 0;
async function addGoods(over: Record<string, unknown> = {}): Promise<ScoreGoods> {
  const res = await t.post('/api/index/addScoreGoods', admin).send({ name: `铅笔${goodsNo++}`, price: 20, stock: 5, request_id: rid(), ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

const exchange = (student_id: number, g: { id: number; price: number }, token = admin, over: Record<string, unknown> = {}) =>
  t.post('/api/index/exchangeScoreGoods', token).send({ student_id, goods_id: g.id, price: g.price, request_id: rid(), ...over });

async function exchanged(student_id: number, g: { id: number; price: number }, token = admin): Promise<ScoreOrder> {
  const res = await exchange(student_id, g, token);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

// ---------------------------------------------------------------------------------------------------------------- ledger

describe('awardPoints and studentPoints', () => {
  it('a teacher awards several own students at once, then deducts; the guardian sees balance and history, paged', async () => {
    const res = await award([child, sibling, classmate], 10, teacher);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { points: 10 } });
    expect(res.body.data.results.map((r: { student_id: number }) => r.student_id)).toEqual([child, sibling, classmate]);
    const b0 = await balanceOf(child);
    expect((await award([child], -3, adviser)).body).toMatchObject({ code: Code.Ok, data: { results: [{ student_id: child, balance: b0 - 3 }] } });

    const h = await t.get(`/api/index/studentPoints?student_id=${child}&page=1&limit=1`, parent);
    expect(h.body.data).toMatchObject({ student_id: child, balance: b0 - 3, page: 1, limit: 1 });
    expect(h.body.data.total).toBeGreaterThanOrEqual(2);
    expect(h.body.data.list).toEqual([
      expect.objectContaining({ kind: 'deduct', delta: -3, balance_after: b0 - 3, reason: '课堂表现好', actor_name: expect.any(String) }),
    ]);
    const p2 = await t.get(`/api/index/studentPoints?student_id=${child}&page=2&limit=1`, parent);
    expect(p2.body.data.list[0]).toMatchObject({ kind: 'award', delta: 10 });
    await audit();
  });

  it('refuses a deduction larger than a balance with the numbers, for the whole batch', async () => {
    await award([sibling], 5);
    const b = await balanceOf(sibling);
    const before = await snap();
    const res = await award([child, sibling], -(b + 1), admin);
    expect(res.body.code).toBe(Code.Error);
    expect(res.body.msg).toContain(`当前余额 ${b}，本次扣除 ${b + 1}`);
    expect(await snap()).toEqual(before);
  });

  it('a request_id is applied once, even concurrently', async () => {
    const request_id = rid();
    const b = await balanceOf(classmate);
    const before = await snap();
    const answers = await Promise.all(Array.from({ length: 6 }, () => award([classmate, child], 7, teacher, { request_id })));
    expect(answers.map((a) => a.body.code)).toEqual(Array(6).fill(Code.Ok));
    expect(await balanceOf(classmate)).toBe(b + 7);
    expect((await snap()).ledger).toBe(before.ledger + 2);
    expect((await award([classmate, child], 8, teacher, { request_id })).body).toMatchObject({ code: Code.Error, msg: '该请求编号已用于另一次操作' });
    await audit();
  });

  it.each([
    ['zero points', { points: 0 }],
    ['a fraction', { points: 1.5 }],
    ['too many points', { points: 10_001 }],
    ['no students', { student_ids: [] }],
    ['a student twice', { student_ids: [1, 1] }],
    ['no reason', { reason: '' }],
    ['a bad request id', { request_id: 'x' }],
    ['an unknown field', { extra: 1 }],
  ])('bad input (%s) writes nothing', async (_, over) => {
    const before = await snap();
    const res = await t.post('/api/index/awardPoints', admin).send({ student_ids: [child], points: 5, reason: '好', request_id: rid(), ...over });
    expect(res.body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('a teacher may not award a student of another class; a guardian sees only own children', async () => {
    const before = await snap();
    expect((await award([child, outsider], 5, teacher)).body).toMatchObject({
      code: Code.Error,
      msg: `以下学生不存在或不是你负责的学生：${outsider}`,
    });
    expect(await snap()).toEqual(before);
    expect((await t.get(`/api/index/studentPoints?student_id=${classmate}`, parent)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该学生，或不是你负责的学生',
    });
    expect((await t.get(`/api/index/studentPoints?student_id=${outsider}`, teacher)).body.code).toBe(Code.Error);
  });

  it.each([['parent'], ['operator']] as const)('%s may not award or list students', async (who) => {
    const token = who === 'parent' ? parent : operator;
    const before = await snap();
    expect((await award([child], 5, token)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/pointsStudents', token)).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
    expect((await t.get(`/api/index/studentPoints?student_id=${child}`, operator)).body).toMatchObject(DENIED);
  });

  it('another school’s students are unknown', async () => {
    const other = await t.otherSchool();
    const before = await snap();
    expect((await award([child], 5, other.adminToken)).body).toMatchObject({ code: Code.Error, msg: `以下学生不存在或不是你负责的学生：${child}` });
    expect((await t.get(`/api/index/studentPoints?student_id=${child}`, other.adminToken)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/pointsStudents', other.adminToken)).body.data).toMatchObject({ total: 0, list: [] });
    expect(await snap()).toEqual(before);
  });

  it('pointsStudents: the teacher’s own students with balances; the admin’s whole school, by class and keyword', async () => {
    const mine = await t.get('/api/index/pointsStudents?limit=100', teacher);
    const ids = mine.body.data.list.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([child, sibling, classmate]));
    expect(ids).not.toContain(outsider);
    expect(mine.body.data.list.find((s: { id: number }) => s.id === child)).toMatchObject({ balance: await balanceOf(child), class_id: classId });
    const all = await t.get('/api/index/pointsStudents?limit=100', admin);
    expect(all.body.data.list.map((s: { id: number }) => s.id)).toContain(outsider);
    const byClass = await t.get(`/api/index/pointsStudents?class_id=${classId}&limit=100`, admin);
    expect(byClass.body.data.total).toBe(mine.body.data.total);
    const name = mine.body.data.list[0].name as string;
    const kw = await t.get(`/api/index/pointsStudents?keyword=${encodeURIComponent(name)}`, teacher);
    expect(kw.body.data.list[0]).toMatchObject({ name });
    expect((await t.get('/api/index/pointsStudents?limit=1000', teacher)).body.code).toBe(Code.Error);
  });

  it('the ledger is append-only', async () => {
    await expect(t.sql.query(`update points_ledger set delta = 1000`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from points_ledger`)).rejects.toThrow(/append-only/);
  });
});

// ---------------------------------------------------------------------------------------------------------------- goods

describe('points goods', () => {
  it('adds (idempotent), lists, edits on the version, changes the price with history, adds stock with moves, unlists', async () => {
    const request_id = rid();
    const g = await addGoods({ name: '橡皮擦', price: 30, stock: 4, description: '可爱的橡皮', picture_url: '/uploads/2026-11/x.png', request_id });
    expect(g).toMatchObject({ name: '橡皮擦', price: 30, stock: 4, listed: true, exchanged: 0, version: 1, picture_url: '/uploads/2026-11/x.png' });
    expect((await addGoods({ name: '橡皮擦', price: 30, stock: 4, request_id })).id).toBe(g.id);

    const list = await t.get('/api/index/scoreGoodsList?listed=1&keyword=%E6%A9%A1%E7%9A%AE', admin);
    expect(list.body.data.list.map((x: ScoreGoods) => x.id)).toEqual([g.id]);

    const edited = await t.post('/api/index/editScoreGoods', admin).send({ id: g.id, version: 1, name: '大橡皮擦', description: '' });
    expect(edited.body.data).toMatchObject({ name: '大橡皮擦', description: null, version: 2 });
    expect((await t.post('/api/index/editScoreGoods', admin).send({ id: g.id, version: 1, name: 'x' })).body).toMatchObject({
      code: Code.Error,
      msg: '该商品已被他人修改，请刷新后重试',
    });

    const priced = await t.post('/api/index/editScoreGoodsPrice', admin).send({ id: g.id, version: 2, price: 35, reason: '涨价' });
    expect(priced.body.data).toMatchObject({ price: 35, version: 3 });
    expect((await t.post('/api/index/editScoreGoodsPrice', admin).send({ id: g.id, version: 3, price: 35 })).body).toMatchObject({
      code: Code.Error,
      msg: '新价格与现价相同',
    });

    const stockKey = rid();
    const stocked = await Promise.all(
      [1, 2, 3].map(() => t.post('/api/index/addScoreGoodsStock', admin).send({ id: g.id, quantity: 6, request_id: stockKey })),
    );
    expect(stocked.map((r) => r.body.code)).toEqual([Code.Ok, Code.Ok, Code.Ok]);
    const info = await t.get(`/api/index/scoreGoodsInfo?id=${g.id}`, admin);
    expect(info.body.data).toMatchObject({ stock: 10, version: 3 });
    expect(info.body.data.prices.map((p: { old_price: number | null; new_price: number }) => [p.old_price, p.new_price])).toEqual([
      [30, 35],
      [null, 30],
    ]);
    expect(info.body.data.stock_moves.map((m: { kind: string; delta: number; stock_after: number }) => [m.kind, m.delta, m.stock_after])).toEqual([
      ['add', 6, 10],
      ['initial', 4, 4],
    ]);

    const off = await t.post('/api/index/unmountScoreGoods', admin).send({ id: g.id, version: 3, listed: false });
    expect(off.body.data).toMatchObject({ listed: false, version: 4 });
    expect((await t.get('/api/index/pointsShop?limit=100', parent)).body.data.list.map((x: ScoreGoods) => x.id)).not.toContain(g.id);
    expect((await t.get('/api/index/scoreGoodsList?listed=0', admin)).body.data.list.map((x: ScoreGoods) => x.id)).toContain(g.id);
    await audit();
  });

  it('deletes a good never exchanged; a good exchanged is unlisted instead', async () => {
    const fresh = await addGoods();
    const del = await t.post('/api/index/delScoreGoods', admin).send({ id: fresh.id, version: 1 });
    expect(del.body.data).toEqual({ id: fresh.id, deleted: true, goods: null });
    expect((await t.get(`/api/index/scoreGoodsInfo?id=${fresh.id}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该积分商品' });
    // its name is free again
    await addGoods({ name: fresh.name });

    const used = await addGoods({ price: 1 });
    await award([child], 5);
    await exchanged(child, used, parent);
    const kept = await t.post('/api/index/delScoreGoods', admin).send({ id: used.id, version: 1 });
    expect(kept.body.data).toMatchObject({ id: used.id, deleted: false, goods: { listed: false, exchanged: 1, version: 2 } });
    expect((await t.post('/api/index/delScoreGoods', admin).send({ id: used.id, version: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '该商品已被他人修改，请刷新后重试',
    });
  });

  it('names are unique per school (case-insensitive) among goods not deleted', async () => {
    await addGoods({ name: 'Pen' });
    const before = await snap();
    expect((await t.post('/api/index/addScoreGoods', admin).send({ name: 'pEN', price: 1, stock: 0, request_id: rid() })).body).toMatchObject({
      code: Code.Error,
      msg: '已有同名积分商品',
    });
    expect(await snap()).toEqual(before);
  });

  it.each([
    ['addScoreGoods', { name: '', price: 1, stock: 1, request_id: 'req-aaaaaaaa' }],
    ['addScoreGoods', { name: 'a', price: 0, stock: 1, request_id: 'req-aaaaaaaa' }],
    ['addScoreGoods', { name: 'a', price: 1, stock: -1, request_id: 'req-aaaaaaaa' }],
    ['addScoreGoods', { name: 'a', price: 1, stock: 1, picture_url: 'javascript:alert(1)', request_id: 'req-aaaaaaaa' }],
    ['editScoreGoods', { id: 1, version: 1, name: '<b>x</b>' }],
    ['editScoreGoodsPrice', { id: 1, version: 1, price: 1_000_001 }],
    ['addScoreGoodsStock', { id: 1, quantity: 0, request_id: 'req-aaaaaaaa' }],
    ['unmountScoreGoods', { id: 1, version: 1, listed: 'maybe' }],
    ['delScoreGoods', { id: 'x', version: 1 }],
  ])('bad input to %s writes nothing', async (action, body) => {
    const before = await snap();
    expect((await t.post(`/api/index/${action}`, admin).send(body)).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it.each(['teacher', 'adviser', 'parent', 'operator'] as const)('%s may not manage goods', async (who) => {
    const token = { teacher, adviser, parent, operator }[who];
    const g = await addGoods();
    const before = await snap();
    expect((await t.get('/api/index/scoreGoodsList', token)).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/scoreGoodsInfo?id=${g.id}`, token)).body).toMatchObject(DENIED);
    for (const [action, body] of [
      ['addScoreGoods', { name: 'x', price: 1, stock: 1, request_id: rid() }],
      ['editScoreGoods', { id: g.id, version: 1, name: 'y' }],
      ['editScoreGoodsPrice', { id: g.id, version: 1, price: 2 }],
      ['addScoreGoodsStock', { id: g.id, quantity: 1, request_id: rid() }],
      ['unmountScoreGoods', { id: g.id, version: 1, listed: false }],
      ['delScoreGoods', { id: g.id, version: 1 }],
      ['handOverScoreOrder', { id: 1 }],
      ['cancelScoreOrder', { id: 1, reason: 'x' }],
    ] as const) {
      expect((await t.post(`/api/index/${action}`, token).send(body)).body).toMatchObject(DENIED);
    }
    expect(await snap()).toEqual(before);
  });

  it('another school’s goods are unknown', async () => {
    const g = await addGoods();
    const other = await t.otherSchool();
    const before = await snap();
    const tok = other.adminToken;
    expect((await t.get(`/api/index/scoreGoodsInfo?id=${g.id}`, tok)).body).toMatchObject({ code: Code.Error, msg: '未找到该积分商品' });
    expect((await t.post('/api/index/editScoreGoods', tok).send({ id: g.id, version: 1, name: 'y' })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该积分商品',
    });
    expect((await t.post('/api/index/editScoreGoodsPrice', tok).send({ id: g.id, version: 1, price: 2 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该积分商品',
    });
    expect((await t.post('/api/index/addScoreGoodsStock', tok).send({ id: g.id, quantity: 1, request_id: rid() })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该积分商品',
    });
    expect((await t.post('/api/index/unmountScoreGoods', tok).send({ id: g.id, version: 1, listed: false })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该积分商品',
    });
    expect((await t.post('/api/index/delScoreGoods', tok).send({ id: g.id, version: 1 })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该积分商品',
    });
    expect((await t.get('/api/index/scoreGoodsList', tok)).body.data).toMatchObject({ total: 0 });
    expect((await t.get('/api/index/pointsShop', tok)).body.data).toMatchObject({ total: 0 });
    expect(await snap()).toEqual(before);
  });

  it('price history and stock moves are append-only', async () => {
    await expect(t.sql.query(`update points_goods_prices set new_price = 1`)).rejects.toThrow(/append-only/);
    await expect(t.sql.query(`delete from points_stock_moves`)).rejects.toThrow(/append-only/);
  });
});

// ---------------------------------------------------------------------------------------------------------------- exchange

describe('exchangeScoreGoods and orders', () => {
  it('a guardian exchanges for an own child: points and one unit taken, a pending order; the school hands it over', async () => {
    const g = await addGoods({ price: 15, stock: 2 });
    await award([sibling], 40);
    const b = await balanceOf(sibling);
    const o = await exchanged(sibling, g, parent);
    expect(o).toMatchObject({
      student_id: sibling,
      goods_id: g.id,
      goods_name: g.name,
      price: 15,
      state: 'pending',
      placed_by_name: expect.any(String),
    });
    expect(o.no).toMatch(/^DH\d{10}$/);
    expect(await balanceOf(sibling)).toBe(b - 15);
    const hist = await t.get(`/api/index/studentPoints?student_id=${sibling}&limit=1`, parent);
    expect(hist.body.data.list[0]).toMatchObject({ kind: 'exchange', delta: -15, order_id: o.id, reason: g.name });

    const mineOrders = await t.get('/api/index/scoreOrderList', parent);
    expect(mineOrders.body.data.list.map((x: ScoreOrder) => x.id)).toContain(o.id);
    const pending = await t.get('/api/index/scoreOrderList?state=pending&limit=100', admin);
    expect(pending.body.data.list.map((x: ScoreOrder) => x.id)).toContain(o.id);
    expect(pending.body.data.counts.pending).toBe(pending.body.data.total);

    const handed = await t.post('/api/index/handOverScoreOrder', admin).send({ id: o.id });
    expect(handed.body.data).toMatchObject({ state: 'handed_over', handed_over_by_name: expect.any(String), handed_over_at: expect.any(String) });
    expect((await t.post('/api/index/handOverScoreOrder', admin).send({ id: o.id })).body.data).toMatchObject({ state: 'handed_over' });
    expect((await t.post('/api/index/cancelScoreOrder', admin).send({ id: o.id, reason: '弄错了' })).body).toMatchObject({
      code: Code.Error,
      msg: '该订单已交付，不能再取消',
    });
    await audit();
  });

  it('a teacher exchanges for an own student; not for a student of another class', async () => {
    const g = await addGoods({ price: 2, stock: 3 });
    await award([classmate, outsider], 5);
    expect((await exchange(classmate, g, teacher)).body).toMatchObject({ code: Code.Ok, data: { state: 'pending' } });
    const before = await snap();
    expect((await exchange(outsider, g, teacher)).body).toMatchObject({ code: Code.Error, msg: '未找到该学生，或不是你负责的学生' });
    expect((await exchange(classmate, g, parent)).body).toMatchObject({ code: Code.Error, msg: '未找到该学生，或不是你负责的学生' });
    expect(await snap()).toEqual(before);
  });

  it('refuses with the numbers: not enough points, out of stock, unlisted, a changed price; nothing written', async () => {
    const g = await addGoods({ price: 50, stock: 1 });
    const poor = classmate;
    const b = await balanceOf(poor);
    let before = await snap();
    if (b < 50) {
      expect((await exchange(poor, g)).body).toMatchObject({ code: Code.Error, msg: `积分不足：当前余额 ${b}，需要 50` });
      expect(await snap()).toEqual(before);
    }
    expect((await exchange(child, g, admin, { price: 49 })).body).toMatchObject({ code: Code.Error, msg: '商品积分价已变为 50，请确认后重试' });
    await award([child], 200);
    await exchanged(child, g);
    const h = await addGoods({ price: 1, stock: 3, listed: false });
    before = await snap();
    expect((await exchange(child, g)).body).toMatchObject({ code: Code.Error, msg: '该商品已兑完' });
    expect((await exchange(child, h)).body).toMatchObject({ code: Code.Error, msg: '该商品已下架' });
    expect(await snap()).toEqual(before);
  });

  it.each([
    ['no price', { price: undefined }],
    ['a negative price', { price: -1 }],
    ['a bad student', { student_id: 0 }],
    ['a bad request id', { request_id: '' }],
  ])('bad input (%s) writes nothing', async (_, over) => {
    const g = await addGoods();
    const before = await snap();
    expect((await exchange(child, g, admin, over)).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('operator may not exchange or list orders; parents and teachers may not hand over or cancel', async () => {
    const g = await addGoods();
    const before = await snap();
    expect((await exchange(child, g, operator)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/scoreOrderList', operator)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/pointsShop', operator)).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it('another school cannot exchange this school’s goods, see, hand over or cancel its orders', async () => {
    const g = await addGoods({ price: 1 });
    await award([child], 3);
    const o = await exchanged(child, g, parent);
    const other = await t.otherSchool();
    const before = await snap();
    const tok = other.adminToken;
    expect((await exchange(child, g, tok)).body).toMatchObject({ code: Code.Error, msg: '未找到该学生，或不是你负责的学生' });
    expect((await t.post('/api/index/handOverScoreOrder', tok).send({ id: o.id })).body).toMatchObject({ code: Code.Error, msg: '未找到该兑换订单' });
    expect((await t.post('/api/index/cancelScoreOrder', tok).send({ id: o.id, reason: 'x' })).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该兑换订单',
    });
    expect((await t.get('/api/index/scoreOrderList', tok)).body.data).toMatchObject({ total: 0 });
    expect(await snap()).toEqual(before);
  });

  it('a retried exchange (same request_id, also concurrent) makes one order', async () => {
    const g = await addGoods({ price: 3, stock: 10 });
    await award([child], 30);
    const request_id = rid();
    const before = await snap();
    const answers = await Promise.all(Array.from({ length: 6 }, () => exchange(child, g, parent, { request_id })));
    expect(answers.map((a) => a.body.code)).toEqual(Array(6).fill(Code.Ok));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect((await snap()).orders).toBe(before.orders + 1);
    expect((await exchange(sibling, g, parent, { request_id })).body).toMatchObject({ code: Code.Error, msg: '该请求编号已用于另一次操作' });
    await audit();
  });

  it('cancel gives the points and the unit back once, even when repeated concurrently', async () => {
    const g = await addGoods({ price: 12, stock: 1 });
    await award([sibling], 12);
    const b = await balanceOf(sibling);
    const o = await exchanged(sibling, g, parent);
    expect(await balanceOf(sibling)).toBe(b - 12);
    const before = await snap();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.post('/api/index/cancelScoreOrder', admin).send({ id: o.id, reason: '家长不要了' })),
    );
    expect(answers.map((a) => a.body.code)).toEqual(Array(8).fill(Code.Ok));
    expect(answers.every((a) => a.body.data.state === 'cancelled')).toBe(true);
    expect(await balanceOf(sibling)).toBe(b);
    const after = await snap();
    expect(after.ledger).toBe(before.ledger + 1);
    expect(after.moves).toBe(before.moves + 1);
    expect(after.stock).toBe(before.stock + 1);
    expect((await t.get(`/api/index/scoreGoodsInfo?id=${g.id}`, admin)).body.data).toMatchObject({ stock: 1, exchanged: 1 });
    expect((await t.post('/api/index/handOverScoreOrder', admin).send({ id: o.id })).body).toMatchObject({ code: Code.Error, msg: '该订单已取消' });
    const cancelled = await t.get(`/api/index/scoreOrderList?state=cancelled&student_id=${sibling}`, parent);
    expect(cancelled.body.data.list[0]).toMatchObject({ id: o.id, cancel_reason: '家长不要了', cancelled_by_name: expect.any(String) });
    await audit();
  });

  it('bad input to the order actions writes nothing', async () => {
    const before = await snap();
    for (const [action, body] of [
      ['handOverScoreOrder', { id: 'x' }],
      ['cancelScoreOrder', { id: 1 }],
      ['cancelScoreOrder', { id: 1, reason: '' }],
    ] as const) {
      expect((await t.post(`/api/index/${action}`, admin).send(body)).body.code).toBe(Code.Error);
    }
    expect((await t.get('/api/index/scoreOrderList?state=lost', admin)).body.code).toBe(Code.Error);
    expect(await snap()).toEqual(before);
  });

  it('64 concurrent exchanges of a good with 10 in stock: exactly 10 succeed, no balance negative, ledgers sum to balances', async () => {
    const { rows } = await t.sql.query(
      `insert into students (school_id, name, grade) select $1, '并发生' || g, '三年级' from generate_series(1, 64) g returning id`,
      [t.demo.schoolId],
    );
    const ids = rows.map((r) => r.id as number);
    expect((await award(ids, 100)).body.code).toBe(Code.Ok);
    const g = await addGoods({ price: 30, stock: 10 });
    const answers = await Promise.all(ids.map((id) => exchange(id, g)));
    const ok = answers.filter((a) => a.body.code === Code.Ok);
    expect(ok).toHaveLength(10);
    expect(answers.filter((a) => a.body.code !== Code.Ok).every((a) => a.body.msg === '该商品已兑完')).toBe(true);
    expect((await t.get(`/api/index/scoreGoodsInfo?id=${g.id}`, admin)).body.data).toMatchObject({ stock: 0, exchanged: 10 });
    const charged = await t.sql.query(`select count(*)::int as n from points_accounts where student_id = any($1) and balance = 70`, [ids]);
    expect(charged.rows[0].n).toBe(10);
    await audit();
  });

  it('concurrent exchanges by one student never take more than the balance', async () => {
    const [{ id }] = (await t.sql.query(`insert into students (school_id, name) values ($1, '单人并发') returning id`, [t.demo.schoolId])).rows;
    await award([id], 50);
    const g = await addGoods({ price: 20, stock: 100 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => exchange(id, g)));
    expect(answers.filter((a) => a.body.code === Code.Ok)).toHaveLength(2);
    expect(answers.filter((a) => a.body.code !== Code.Ok).every((a) => a.body.msg === '积分不足：当前余额 10，需要 20')).toBe(true);
    expect(await balanceOf(id)).toBe(10);
    await audit();
  });

  it('one student racing for two goods with points for one unit: one unit taken in all, the refused exchanges take no stock', async () => {
    const [{ id }] = (await t.sql.query(`insert into students (school_id, name) values ($1, '两件并发') returning id`, [t.demo.schoolId])).rows;
    await award([id], 30);
    const a = await addGoods({ price: 30, stock: 5 });
    const b = await addGoods({ price: 30, stock: 5 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => exchange(id, i % 2 ? a : b)));
    expect(answers.filter((r) => r.body.code === Code.Ok)).toHaveLength(1);
    expect(answers.filter((r) => r.body.code !== Code.Ok).every((r) => r.body.msg === '积分不足：当前余额 0，需要 30')).toBe(true);
    const { rows } = await t.sql.query(`select sum(stock)::int as stock, sum(exchanged)::int as exchanged from points_goods where id = any($1)`, [
      [a.id, b.id],
    ]);
    expect(rows[0]).toEqual({ stock: 9, exchanged: 1 });
    expect(await balanceOf(id)).toBe(0);
    await audit();
  });

  it('exchanges racing for the last units with a student short of points: the refused one takes nothing, the others get the units', async () => {
    const { rows } = await t.sql.query(
      `insert into students (school_id, name, grade) select $1, '末件生' || g, '三年级' from generate_series(1, 6) g returning id`,
      [t.demo.schoolId],
    );
    const ids = rows.map((r) => r.id as number);
    expect((await award(ids.slice(1), 40)).body.code).toBe(Code.Ok);
    expect((await award([ids[0]], 10)).body.code).toBe(Code.Ok);
    const g = await addGoods({ price: 40, stock: 5 });
    const answers = await Promise.all(ids.map((id) => exchange(id, g)));
    expect(answers[0].body).toMatchObject({ code: Code.Error, msg: '积分不足：当前余额 10，需要 40' });
    expect(answers.slice(1).every((r) => r.body.code === Code.Ok)).toBe(true);
    expect((await t.get(`/api/index/scoreGoodsInfo?id=${g.id}`, admin)).body.data).toMatchObject({ stock: 0, exchanged: 5 });
    expect(await balanceOf(ids[0])).toBe(10);
    await audit();
  });
});

// ---------------------------------------------------------------------------------------------------------------- counts

describe('scoreOrderCount, classScoreCount, scoreOrderCountExport', () => {
  it('counts today’s awards, deductions, exchanges, refunds and orders by day, week and month; the export has the same numbers', async () => {
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
    const before = (await t.get(`/api/index/scoreOrderCount?date_from=${from}&date_to=${today}&group=day`, admin)).body.data;
    expect(before.rows).toHaveLength(7);
    expect(before.rows[6].period).toBe(today);
    await award([classmate], 9);
    await award([classmate], -2);
    const g = await addGoods({ price: 4, stock: 5 });
    const o1 = await exchanged(classmate, g);
    const o2 = await exchanged(classmate, g);
    await t.post('/api/index/handOverScoreOrder', admin).send({ id: o1.id });
    await t.post('/api/index/cancelScoreOrder', admin).send({ id: o2.id, reason: '取消' });
    const after = (await t.get(`/api/index/scoreOrderCount?date_from=${from}&date_to=${today}&group=day`, admin)).body.data;
    const d = (k: string) => after.rows[6][k] - before.rows[6][k];
    expect({
      awarded: d('awarded'),
      deducted: d('deducted'),
      spent: d('spent'),
      refunded: d('refunded'),
      orders: d('orders'),
      handed_over: d('handed_over'),
      cancelled: d('cancelled'),
    }).toEqual({
      awarded: 9,
      deducted: 2,
      spent: 8,
      refunded: 4,
      orders: 2,
      handed_over: 1,
      cancelled: 1,
    });
    const month = (await t.get(`/api/index/scoreOrderCount?date_from=${today}&date_to=${today}&group=month`, admin)).body.data;
    expect(month.rows).toEqual([expect.objectContaining({ period: `${today.slice(0, 7)}-01` })]);
    expect(month.rows[0].orders).toBeGreaterThanOrEqual(after.rows[6].orders);
    const week = (await t.get(`/api/index/scoreOrderCount?date_from=${from}&date_to=${today}&group=week`, admin)).body.data;
    expect(week.totals).toEqual(after.totals);

    // the head teacher's own students only; one class for the admin
    const mine = (await t.get(`/api/index/classScoreCount?date_from=${today}&date_to=${today}`, adviser)).body.data;
    const cls = (await t.get(`/api/index/scoreOrderCount?date_from=${today}&date_to=${today}&class_id=${classId}`, admin)).body.data;
    expect(mine.totals).toEqual(cls.totals);
    expect(cls.totals.orders).toBeLessThan(after.totals.orders); // the concurrency test's students are in no class

    const file = await t
      .get(`/api/index/scoreOrderCountExport?date_from=${from}&date_to=${today}&group=day`, admin)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(file.headers['content-type']).toContain('spreadsheetml');
    // the grouping as the data centre words it (DATA_GROUP_LABELS; the file once said 按天)
    expect(decodeURIComponent(file.headers['content-disposition'])).toContain(`积分统计-按日-${from}至${today}.xlsx`);
    const wb = new Workbook();
    await wb.xlsx.load(file.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, '周期', '奖励积分', '扣除积分', '兑换消耗积分', '取消退回积分', '兑换订单', '已交付', '已取消']);
    expect((ws.getRow(8).values as unknown[]).slice(1)).toEqual([
      today,
      ...['awarded', 'deducted', 'spent', 'refunded', 'orders', 'handed_over', 'cancelled'].map((k) => after.rows[6][k]),
    ]);
    expect(ws.getRow(9).getCell(1).value).toBe('合计');
  });

  it.each([
    ['to before from', 'date_from=2026-11-10&date_to=2026-11-01'],
    ['a bad day', 'date_from=2026-13-01&date_to=2026-11-01'],
    ['too many days', 'date_from=2026-01-01&date_to=2026-11-01&group=day'],
    ['a bad group', 'date_from=2026-11-01&date_to=2026-11-02&group=year'],
    ['no range', ''],
  ])('refuses %s', async (_, qs) => {
    expect((await t.get(`/api/index/scoreOrderCount?${qs}`, admin)).body.code).toBe(Code.Error);
    expect((await t.get(`/api/index/scoreOrderCountExport?${qs}`, admin)).body.code).toBe(Code.Error);
  });

  it('roles and other schools', async () => {
    const qs = `date_from=${today}&date_to=${today}`;
    for (const tok of [teacher, parent, operator, adviser]) expect((await t.get(`/api/index/scoreOrderCount?${qs}`, tok)).body).toMatchObject(DENIED);
    for (const tok of [teacher, parent, operator, admin]) expect((await t.get(`/api/index/classScoreCount?${qs}`, tok)).body).toMatchObject(DENIED);
    for (const tok of [teacher, parent, operator]) expect((await t.get(`/api/index/scoreOrderCountExport?${qs}`, tok)).body).toMatchObject(DENIED);
    const other = await t.otherSchool();
    const theirs = (await t.get(`/api/index/scoreOrderCount?${qs}`, other.adminToken)).body.data;
    expect(theirs.totals).toEqual({ awarded: 0, deducted: 0, spent: 0, refunded: 0, orders: 0, handed_over: 0, cancelled: 0 });
    expect((await t.get(`/api/index/scoreOrderCount?${qs}&class_id=${classId}`, other.adminToken)).body).toMatchObject({
      code: Code.Error,
      msg: '未找到该班级',
    });
  });
});
