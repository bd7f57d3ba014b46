import { Code, STORE_FREIGHT_FEN, type StoreAddress, type StoreGoods, type StoreOrder } from '@wantuo/shared';
import { JobRegistry } from '../../core/jobs/job-registry';
import { startTestApp, type TestApp } from '../../../test/harness';
import { PaymentKinds } from '../payments/payment-kinds';
import { StoreClock } from './store-sql';

let t: TestApp;
let admin: string;
let teacher: string;
let parent: string;
let operator: string;
let other: { schoolId: number; adminToken: string };
let otherAddress: number;
let pen: StoreGoods;
let dict: StoreGoods;
let address: StoreAddress;
let clockAt: Date | null = null;
let seq = 0;
const rid = () => `store-${Date.now().toString(36)}-${seq++}`;
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const DEAL_PWD = '246810';

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, listen: true });
  [admin, teacher, parent, operator] = await Promise.all(['admin', 'teacher', 'parent', 'operator'].map((u) => t.login(u as 'admin')));
  other = await t.otherSchool();
  jest.spyOn(t.app.get(StoreClock), 'now').mockImplementation(() => clockAt ?? new Date());
  for (const tok of [admin, other.adminToken])
    expect((await t.post('/api/index/setDealPwd', tok).send({ deal_pwd: DEAL_PWD, password: 'Demo@2026' })).body.code).toBe(Code.Ok);
  await credit(1_000_000);
  pen = await addGoods({ name: '晨光中性笔 0.5mm 黑色（12支装）', price_fen: 1_850, stock: 1_000 });
  dict = await addGoods({ name: '新华字典（第12版）', price_fen: 2_990, stock: 50, type_id: 2 });
  address = (await t.post('/api/index/addAddress', admin).send(ADDRESS)).body.data;
  otherAddress = (await t.post('/api/index/addAddress', other.adminToken).send({ ...ADDRESS, name: '外校收货人' })).body.data.id;
});
afterAll(() => t.close());
afterEach(() => {
  clockAt = null;
});

const ADDRESS = { name: '王老师', mobile: '13800000001', region: '浙江省杭州市西湖区', detail: '文三路 100 号 星星晚托中心', is_default: true };

async function credit(fen: number, id = t.demo.schoolId) {
  await t.sql.query(
    `with s as (update schools set balance_fen = balance_fen + $2 where id = $1 returning balance_fen)
     insert into ledger_entries (school_id, type, amount_fen, balance_after_fen, note, idempotency_key)
     select $1, 'adjustment', $2, s.balance_fen, 'test', 'test:' || gen_random_uuid() from s`,
    [id, fen],
  );
}

async function addGoods(over: Record<string, unknown> = {}): Promise<StoreGoods> {
  const res = await t.post('/api/index/addStoreGoods', operator).send({
    type_id: 1,
    name: `得力订书机 ${seq}`,
    pictures: ['https://img.example.com/stapler.png'],
    description: '办公用订书机，可订 20 页',
    price_fen: 1_500,
    stock: 10,
    request_id: rid(),
    ...over,
  });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}

/** Everything the mall writes, and the money it moves. */
async function snap() {
  const { rows } = await t.sql.query(
    `select (select count(*) from store_goods)::int as goods, (select coalesce(sum(version), 0) from store_goods)::int as goods_versions,
            (select coalesce(sum(stock), 0) from store_goods)::int as stock, (select count(*) from store_stock_moves)::int as moves,
            (select count(*) from store_addresses)::int as addresses, (select coalesce(sum(version), 0) from store_addresses)::int as address_versions,
            (select count(*) from store_addresses where is_default)::int as defaults,
            (select count(*) from store_orders)::int as orders, (select coalesce(sum(version), 0) from store_orders)::int as order_versions,
            (select count(*) from store_order_lines)::int as lines, (select count(*) from store_order_events)::int as events,
            (select count(*) from payments)::int as payments, (select count(*) from ledger_entries)::int as ledger,
            (select coalesce(sum(balance_fen), 0) from schools)::bigint as balances`,
  );
  return rows[0];
}

/** Stock is the sum of its moves, never negative; sold is what orders not cancelled hold; each ledger sums to its balance. */
async function audit() {
  const { rows } = await t.sql.query(
    `select g.id, g.stock, g.sold, (select coalesce(sum(delta), 0) from store_stock_moves m where m.goods_id = g.id)::int as moved,
            (select coalesce(sum(l.quantity), 0) from store_order_lines l join store_orders o on o.id = l.order_id where l.goods_id = g.id and o.state <> 'cancelled')::int as held
       from store_goods g`,
  );
  for (const g of rows) expect({ id: g.id, stock: g.stock, sold: g.sold }).toEqual({ id: g.id, stock: g.moved, sold: g.held });
  expect(rows.every((g) => g.stock >= 0)).toBe(true);
  const money = await t.sql.query(
    `select s.id, s.balance_fen::float8 as balance, (select coalesce(sum(amount_fen), 0) from ledger_entries e where e.school_id = s.id)::float8 as ledger from schools s`,
  );
  for (const s of money.rows) expect({ id: s.id, balance: s.balance }).toEqual({ id: s.id, balance: s.ledger });
}

const goodsOf = async (id: number): Promise<StoreGoods> => (await t.get(`/api/index/goodsInfo?id=${id}`, operator)).body.data;

/** Previews then places an order of `items`; answers the order. */
async function order(items: Array<[number, number]>, token = admin, addressId = address.id): Promise<StoreOrder> {
  const q = items.map(([g, n]) => `${g}:${n}`).join(',');
  const pre = await t.get(`/api/index/submitGoodsOrder?items=${q}`, token);
  expect(pre.body).toMatchObject({ code: Code.Ok });
  const res = await t.post('/api/index/submitGoodsOrder', token).send({
    items: items.map(([goods_id, quantity]) => ({ goods_id, quantity })),
    address_id: addressId,
    total_fen: pre.body.data.total_fen,
    request_id: rid(),
  });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { state: 'unpaid' } });
  return res.body.data;
}
const balancePay = (id: number, token = admin, over: Record<string, unknown> = {}) =>
  t.post('/api/index/balancePayGoodsOrder', token).send({ id, deal_pwd: DEAL_PWD, request_id: rid(), ...over });

describe('goods: categories, the schools’ view, the operator’s actions', () => {
  it('goodsType lists the categories with their goods on sale, for anyone signed in', async () => {
    const res = await t.get('/api/index/goodsType', parent);
    expect(res.body).toMatchObject({ code: Code.Ok });
    expect(res.body.data.map((x: { name: string }) => x.name)).toEqual(['文具用品', '图书教辅', '教学用具', '办公耗材', '生活用品']);
    expect(res.body.data[1].goods).toBeGreaterThanOrEqual(1);
    expect((await t.get('/api/index/goodsType?x=1', admin)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/goodsType')).body.code).toBe(Code.Untoken);
  });

  it('goodsList pages the goods on sale by category and keyword; another school sees the same catalogue', async () => {
    const res = await t.get('/api/index/goodsList?type_id=2&limit=5', admin);
    expect(res.body).toMatchObject({ code: Code.Ok, data: { page: 1, limit: 5 } });
    expect(res.body.data.list.map((g: StoreGoods) => g.id)).toContain(dict.id);
    expect(res.body.data.list.every((g: StoreGoods) => g.type_id === 2)).toBe(true);
    expect((await t.get('/api/index/goodsList?keyword=字典', other.adminToken)).body.data.list.map((g: StoreGoods) => g.id)).toEqual([dict.id]);
    expect((await t.get('/api/index/goodsList?limit=1000', admin)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/goodsList')).body.code).toBe(Code.Untoken);
  });

  it('goodsInfo answers one good with stock and price; bad and unknown ids are refused', async () => {
    expect((await t.get(`/api/index/goodsInfo?id=${pen.id}`, teacher)).body).toMatchObject({
      code: Code.Ok,
      data: { id: pen.id, price_fen: 1_850, stock: expect.any(Number) },
    });
    expect((await t.get('/api/index/goodsInfo?id=abc', admin)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/goodsInfo?id=999999', admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该商品' });
  });

  it('addStoreGoods: the operator adds a good with its first stock, once per request id; bad input and other roles write nothing', async () => {
    const before = await snap();
    const body = { type_id: 3, name: '磁性白板 60×90cm', pictures: [], price_fen: 12_800, stock: 5, request_id: rid() };
    const a = await t.post('/api/index/addStoreGoods', operator).send(body);
    const b = await t.post('/api/index/addStoreGoods', operator).send(body);
    expect(a.body).toMatchObject({ code: Code.Ok, data: { name: '磁性白板 60×90cm', stock: 5, listed: true, type_name: '教学用具' } });
    expect(b.body.data.id).toBe(a.body.data.id);
    const after = await snap();
    expect(after.goods).toBe(before.goods + 1);
    expect(after.moves).toBe(before.moves + 1);

    for (const bad of [
      { ...body, request_id: rid(), price_fen: 0 },
      { ...body, request_id: rid(), name: '' },
      { ...body, request_id: rid(), pictures: ['javascript:alert(1)'] },
      { ...body, request_id: rid(), type_id: 999 },
    ]) {
      expect((await t.post('/api/index/addStoreGoods', operator).send(bad)).body.code).toBe(Code.Error);
    }
    expect((await t.post('/api/index/addStoreGoods', admin).send({ ...body, request_id: rid() })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/addStoreGoods', other.adminToken).send({ ...body, request_id: rid() })).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(after);
  });

  it('editStoreGoods: on the version read; stale versions, bad input and other roles write nothing', async () => {
    const g = await addGoods({ name: '彩色铅笔 24色' });
    const res = await t
      .post('/api/index/editStoreGoods', operator)
      .send({ id: g.id, version: g.version, type_id: 1, name: '彩色铅笔 36色', price_fen: 2_500 });
    expect(res.body).toMatchObject({ code: Code.Ok, data: { name: '彩色铅笔 36色', price_fen: 2_500, version: g.version + 1, stock: 10 } });
    const before = await snap();
    expect(
      (await t.post('/api/index/editStoreGoods', operator).send({ id: g.id, version: g.version, type_id: 1, name: 'x', price_fen: 1 })).body,
    ).toMatchObject({
      code: Code.Error,
      msg: '该商品已被他人修改，请刷新后重试',
    });
    expect(
      (await t.post('/api/index/editStoreGoods', operator).send({ id: g.id, version: g.version + 1, type_id: 1, name: 'x', price_fen: -5 })).body
        .code,
    ).toBe(Code.Error);
    expect(
      (await t.post('/api/index/editStoreGoods', operator).send({ id: 999999, version: 1, type_id: 1, name: 'x', price_fen: 5 })).body,
    ).toMatchObject({ msg: '未找到该商品' });
    expect(
      (await t.post('/api/index/editStoreGoods', admin).send({ id: g.id, version: g.version + 1, type_id: 1, name: 'x', price_fen: 5 })).body,
    ).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it('addStoreGoodsStock adds once per request id; unknown goods, bad input and other roles write nothing', async () => {
    const g = await addGoods();
    const body = { id: g.id, quantity: 7, request_id: rid() };
    expect((await t.post('/api/index/addStoreGoodsStock', operator).send(body)).body.data.stock).toBe(17);
    expect((await t.post('/api/index/addStoreGoodsStock', operator).send(body)).body.data.stock).toBe(17);
    const before = await snap();
    expect((await t.post('/api/index/addStoreGoodsStock', operator).send({ ...body, request_id: rid(), quantity: 0 })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/addStoreGoodsStock', operator).send({ ...body, request_id: rid(), id: 999999 })).body).toMatchObject({
      msg: '未找到该商品',
    });
    expect((await t.post('/api/index/addStoreGoodsStock', admin).send({ ...body, request_id: rid() })).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
    await audit();
  });

  it('unmountStoreGoods hides a good from schools (not from the operator’s storeGoodsList); stale, bad and other roles write nothing', async () => {
    const g = await addGoods({ name: '下架测试 跳绳' });
    const off = await t.post('/api/index/unmountStoreGoods', operator).send({ id: g.id, version: g.version, listed: false });
    expect(off.body).toMatchObject({ code: Code.Ok, data: { listed: false } });
    expect((await t.get(`/api/index/goodsInfo?id=${g.id}`, admin)).body).toMatchObject({ code: Code.Error, msg: '未找到该商品' });
    expect((await t.get('/api/index/goodsList?keyword=跳绳', admin)).body.data.total).toBe(0);
    expect((await t.get('/api/index/storeGoodsList?keyword=跳绳&listed=0', operator)).body.data.list.map((x: StoreGoods) => x.id)).toEqual([g.id]);
    expect((await t.get('/api/index/storeGoodsList', admin)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/storeGoodsList?listed=maybe', operator)).body.code).toBe(Code.Error);
    const before = await snap();
    expect((await t.post('/api/index/unmountStoreGoods', operator).send({ id: g.id, version: g.version, listed: true })).body.msg).toBe(
      '该商品已被他人修改，请刷新后重试',
    );
    expect((await t.post('/api/index/unmountStoreGoods', operator).send({ id: g.id, version: g.version + 1, listed: 'yes' })).body.code).toBe(
      Code.Error,
    );
    expect((await t.post('/api/index/unmountStoreGoods', admin).send({ id: g.id, version: g.version + 1, listed: true })).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });
});

describe('addresses', () => {
  it('addAddress: the first is the default; a new default takes over; at most one default; bad input and other roles write nothing', async () => {
    const second = await t.post('/api/index/addAddress', admin).send({ ...ADDRESS, name: '李会计', is_default: true });
    expect(second.body).toMatchObject({ code: Code.Ok, data: { is_default: true } });
    const list: StoreAddress[] = (await t.get('/api/index/addressList', admin)).body.data;
    expect(list.filter((a) => a.is_default).map((a) => a.id)).toEqual([second.body.data.id]);
    // back to the first as the default
    const first = list.find((a) => a.id === address.id)!;
    expect(
      (await t.post('/api/index/editAddress', admin).send({ ...ADDRESS, id: first.id, version: first.version, is_default: true })).body.data
        .is_default,
    ).toBe(true);
    address = (await t.get('/api/index/addressList', admin)).body.data[0];
    expect(address.is_default).toBe(true);

    const before = await snap();
    expect((await t.post('/api/index/addAddress', admin).send({ ...ADDRESS, mobile: '123' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/addAddress', admin).send({ ...ADDRESS, detail: '' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/addAddress', teacher).send(ADDRESS)).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/addAddress', operator).send(ADDRESS)).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it('addressList: the school’s own only', async () => {
    const mine: StoreAddress[] = (await t.get('/api/index/addressList', admin)).body.data;
    const theirs: StoreAddress[] = (await t.get('/api/index/addressList', other.adminToken)).body.data;
    expect(theirs.map((a) => a.id)).toEqual([otherAddress]);
    expect(mine.map((a) => a.id)).not.toContain(otherAddress);
    expect((await t.get('/api/index/addressList', parent)).body).toMatchObject(DENIED);
    expect((await t.get('/api/index/addressList?x=1', admin)).body.code).toBe(Code.Error);
  });

  it('editAddress and delAddress: another school’s address is unknown; deleting the default passes it on', async () => {
    const extra: StoreAddress = (await t.post('/api/index/addAddress', admin).send({ ...ADDRESS, name: '临时地址', is_default: false })).body.data;
    expect(extra.is_default).toBe(false);
    const edited = await t
      .post('/api/index/editAddress', admin)
      .send({ ...ADDRESS, id: extra.id, version: extra.version, name: '临时地址2', is_default: false });
    expect(edited.body).toMatchObject({ code: Code.Ok, data: { name: '临时地址2', version: extra.version + 1 } });
    const before = await snap();
    expect((await t.post('/api/index/editAddress', other.adminToken).send({ ...ADDRESS, id: extra.id, version: extra.version + 1 })).body.msg).toBe(
      '未找到该收货地址',
    );
    expect((await t.post('/api/index/editAddress', admin).send({ ...ADDRESS, id: extra.id, version: extra.version })).body.msg).toBe(
      '该地址已被他人修改，请刷新后重试',
    );
    expect((await t.post('/api/index/editAddress', admin).send({ ...ADDRESS, id: extra.id, version: extra.version + 1, region: '' })).body.code).toBe(
      Code.Error,
    );
    expect((await t.post('/api/index/editAddress', teacher).send({ ...ADDRESS, id: extra.id, version: extra.version + 1 })).body).toMatchObject(
      DENIED,
    );
    expect((await t.post('/api/index/delAddress', other.adminToken).send({ id: extra.id })).body.msg).toBe('未找到该收货地址');
    expect((await t.post('/api/index/delAddress', admin).send({ id: 'x' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/delAddress', parent).send({ id: extra.id })).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
    expect((await t.post('/api/index/delAddress', admin).send({ id: extra.id })).body).toMatchObject({ code: Code.Ok });

    // the other school's only (default) address deleted: none left, none default; a new one is the default
    expect((await t.post('/api/index/delAddress', other.adminToken).send({ id: otherAddress })).body.code).toBe(Code.Ok);
    const again = await t.post('/api/index/addAddress', other.adminToken).send({ ...ADDRESS, is_default: false });
    expect(again.body.data.is_default).toBe(true);
    otherAddress = again.body.data.id;
  });
});

describe('orders', () => {
  it('GET submitGoodsOrder previews lines, freight, total and the default address, and writes nothing', async () => {
    const before = await snap();
    const res = await t.get(`/api/index/submitGoodsOrder?items=${pen.id}:2,${dict.id}:1`, admin);
    expect(res.body).toMatchObject({
      code: Code.Ok,
      data: {
        goods_fen: 2 * 1_850 + 2_990,
        freight_fen: STORE_FREIGHT_FEN,
        total_fen: 2 * 1_850 + 2_990 + STORE_FREIGHT_FEN,
        orderable: true,
        address: { id: address.id },
      },
    });
    expect(res.body.data.lines).toHaveLength(2);
    // the school's addresses are addressList's (the confirm-order screen lists them from there), not repeated here
    expect(Object.keys(res.body.data).sort()).toEqual(['address', 'freight_fen', 'goods_fen', 'lines', 'orderable', 'total_fen']);
    const other: StoreAddress = (await t.get('/api/index/addressList', admin)).body.data.find((a: StoreAddress) => !a.is_default);
    expect((await t.get(`/api/index/submitGoodsOrder?items=${pen.id}:1&address_id=${other.id}`, admin)).body.data.address).toEqual(other);
    // more than the stock: priced, not orderable
    expect((await t.get(`/api/index/submitGoodsOrder?items=${dict.id}:999`, admin)).body.data).toMatchObject({
      orderable: false,
      lines: [{ enough: false }],
    });
    expect((await t.get('/api/index/submitGoodsOrder?items=abc', admin)).body.code).toBe(Code.Error);
    expect((await t.get(`/api/index/submitGoodsOrder?items=${pen.id}:1&address_id=${otherAddress}`, admin)).body.msg).toBe('未找到该收货地址');
    expect((await t.get(`/api/index/submitGoodsOrder?items=${pen.id}:1`, operator)).body).toMatchObject(DENIED);
    expect((await t.get(`/api/index/submitGoodsOrder?items=${pen.id}:1`, teacher)).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
  });

  it('POST submitGoodsOrder reserves the stock once per request id; changed prices, no stock, bad input, other roles and another school’s address write nothing', async () => {
    const g = await addGoods({ name: '订单测试 文件夹', price_fen: 600, stock: 5 });
    const body = { items: [{ goods_id: g.id, quantity: 2 }], address_id: address.id, total_fen: 1_200 + STORE_FREIGHT_FEN, request_id: rid() };
    const a = await t.post('/api/index/submitGoodsOrder', admin).send(body);
    const b = await t.post('/api/index/submitGoodsOrder', admin).send(body);
    expect(a.body).toMatchObject({
      code: Code.Ok,
      data: {
        state: 'unpaid',
        total_fen: 1_200 + STORE_FREIGHT_FEN,
        address: { name: ADDRESS.name },
        lines: [{ goods_id: g.id, quantity: 2, amount_fen: 1_200 }],
      },
    });
    expect(b.body.data.id).toBe(a.body.data.id);
    expect((await goodsOf(g.id)).stock).toBe(3);
    expect(new Date(a.body.data.expires_at).getTime() - new Date(a.body.data.created_at).getTime()).toBeGreaterThan(29 * 60_000);

    const before = await snap();
    const refuse = async (token: string, over: Record<string, unknown>, msg?: string) => {
      const res = await t.post('/api/index/submitGoodsOrder', token).send({ ...body, request_id: rid(), ...over });
      expect(res.body.code).toBe(Code.Error);
      if (msg) expect(res.body.msg).toBe(msg);
    };
    await refuse(admin, { total_fen: 999 }, `商品价格或运费已变化，应付 ${((1_200 + STORE_FREIGHT_FEN) / 100).toFixed(2)} 元，请确认后重新下单`);
    await refuse(
      admin,
      { items: [{ goods_id: g.id, quantity: 4 }], total_fen: 2_400 + STORE_FREIGHT_FEN },
      '商品「订单测试 文件夹」库存不足（剩余 3）',
    );
    await refuse(admin, { items: [] });
    await refuse(admin, { items: [{ goods_id: g.id, quantity: 0 }] });
    await refuse(admin, { address_id: otherAddress }, '未找到该收货地址');
    await refuse(other.adminToken, { address_id: address.id }, '未找到该收货地址');
    expect((await t.post('/api/index/submitGoodsOrder', admin).send({ ...body, total_fen: 1 })).body.msg).toBe('该请求编号已用于另一次操作');
    expect((await t.post('/api/index/submitGoodsOrder', teacher).send({ ...body, request_id: rid() })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/submitGoodsOrder', operator).send({ ...body, request_id: rid() })).body).toMatchObject(DENIED);
    expect(await snap()).toEqual(before);
    await audit();
  });

  it('goodsOrderList: the school’s own orders by state with counts; another school sees none of them', async () => {
    const o = await order([[pen.id, 1]]);
    const res = await t.get('/api/index/goodsOrderList?state=unpaid', admin);
    expect(res.body).toMatchObject({ code: Code.Ok });
    expect(res.body.data.list.map((x: StoreOrder) => x.id)).toContain(o.id);
    expect(res.body.data.counts.unpaid).toBe(res.body.data.total);
    const theirs = (await t.get('/api/index/goodsOrderList', other.adminToken)).body.data;
    expect(theirs.list.map((x: StoreOrder) => x.id)).not.toContain(o.id);
    expect((await t.get('/api/index/goodsOrderList?state=lost', admin)).body.code).toBe(Code.Error);
    expect((await t.get('/api/index/goodsOrderList', teacher)).body).toMatchObject(DENIED);
    // the operator's list: every school, searchable
    const ops = await t.get(`/api/index/storeOrderList?keyword=${o.no}`, operator);
    expect(ops.body.data.list.map((x: StoreOrder) => x.id)).toEqual([o.id]);
    expect((await t.get('/api/index/storeOrderList', admin)).body).toMatchObject(DENIED);
  });

  it('balancePayGoodsOrder charges once (twice in a row, and concurrently); wrong password, no money, bad input, other roles and another school write nothing', async () => {
    const o = await order([[dict.id, 2]]);
    const before = await snap();
    const {
      rows: [s0],
    } = await t.sql.query(`select balance_fen::float8 as b from schools where id = $1`, [t.demo.schoolId]);
    expect((await balancePay(o.id, admin, { deal_pwd: '000000' })).body.code).toBe(Code.Error);
    expect((await balancePay(o.id, admin, { deal_pwd: '12' })).body.code).toBe(Code.Error);
    expect((await balancePay(o.id, other.adminToken)).body.msg).toBe('未找到该订单');
    expect((await balancePay(o.id, teacher)).body).toMatchObject(DENIED);
    expect((await balancePay(o.id, operator)).body).toMatchObject(DENIED);
    const after = await snap();
    expect(after).toEqual(before);

    const paid = await Promise.all([balancePay(o.id), balancePay(o.id), balancePay(o.id)]);
    for (const p of paid) expect(p.body).toMatchObject({ code: Code.Ok, data: { order_id: o.id } });
    expect((await balancePay(o.id)).body.code).toBe(Code.Ok);
    const {
      rows: [s1],
    } = await t.sql.query(`select balance_fen::float8 as b from schools where id = $1`, [t.demo.schoolId]);
    expect(s0.b - s1.b).toBe(o.total_fen);
    const { rows } = await t.sql.query(`select count(*)::int as n from payments where kind = 'goods_order' and ref_id = $1`, [String(o.id)]);
    expect(rows[0].n).toBe(1);
    const now = (await t.get('/api/index/goodsOrderList?state=paid', admin)).body.data.list.find((x: StoreOrder) => x.id === o.id);
    expect(now).toMatchObject({ state: 'paid', pay_method: 'balance' });
    // wechat on a paid order: refused
    expect((await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: o.id })).body.msg).toBe('该订单已支付');

    // not enough money: refused, nothing written
    const big = await addGoods({ name: '教室投影仪', price_fen: 9_000_000, stock: 2 });
    const costly = await order([[big.id, 1]]);
    const b2 = await snap();
    expect((await balancePay(costly.id)).body.msg).toMatch(/^余额不足/);
    expect(await snap()).toEqual(b2);
    await audit();
  });

  it('wechatPayGoodsOrder pays through the sandbox; a second QR paid too is refunded in full (charged once); other roles and schools are refused', async () => {
    const o = await order([[pen.id, 3]]);
    expect((await t.post('/api/index/wechatPayGoodsOrder', other.adminToken).send({ id: o.id })).body.msg).toBe('未找到该订单');
    expect((await t.post('/api/index/wechatPayGoodsOrder', teacher).send({ id: o.id })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: -1 })).body.code).toBe(Code.Error);
    const first = await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: o.id });
    const second = await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: o.id });
    expect(first.body).toMatchObject({ code: Code.Ok, data: { amount_fen: o.total_fen, code_url: expect.stringMatching(/^weixin:\/\//) } });
    for (const no of [first.body.data.out_trade_no, first.body.data.out_trade_no, second.body.data.out_trade_no]) {
      expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body).toMatchObject({ code: Code.Ok });
    }
    await t.app.get(PaymentKinds).settled();
    const now = (await t.get(`/api/index/storeOrderList?keyword=${o.no}`, operator)).body.data.list[0] as StoreOrder;
    expect(now).toMatchObject({ state: 'paid', pay_method: 'wechat', out_trade_no: first.body.data.out_trade_no });
    const { rows } = await t.sql.query(
      `select out_trade_no, state, refunded_fen::float8 as refunded from payments where ref_id = $1 and kind = 'goods_order' order by id`,
      [String(o.id)],
    );
    expect(rows).toEqual([
      { out_trade_no: first.body.data.out_trade_no, state: 'paid', refunded: 0 },
      { out_trade_no: second.body.data.out_trade_no, state: 'refunded', refunded: o.total_fen },
    ]);
  });

  it('a WeChat payment that arrives after its order was cancelled unpaid, or paid from the balance, goes back in full, once (issue 21)', async () => {
    const refundsOf = async (no: string) =>
      (
        await t.sql.query(
          `select p.state, p.refunded_fen::float8 as refunded, r.amount_fen::float8 as amount, r.request_key from payments p join payment_refunds r on r.payment_id = p.id where p.out_trade_no = $1`,
          [no],
        )
      ).rows;
    const cancelled = await order([[pen.id, 1]]);
    const a = (await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: cancelled.id })).body.data.out_trade_no as string;
    expect((await t.post('/api/index/cancelGoodsOrder', admin).send({ id: cancelled.id, reason: '下错了' })).body.data).toMatchObject({
      state: 'cancelled',
      refunded_fen: 0,
    });
    for (let i = 0; i < 3; i++) {
      expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: a })).body.data.notify_status).toBe(204);
      await t.app.get(PaymentKinds).settled();
    }
    expect(await refundsOf(a)).toEqual([{ state: 'refunded', refunded: cancelled.total_fen, amount: cancelled.total_fen, request_key: 'surplus' }]);
    expect((await t.get(`/api/index/storeOrderList?keyword=${cancelled.no}`, operator)).body.data.list[0]).toMatchObject({
      state: 'cancelled',
      refunded_fen: 0,
    });

    const byBalance = await order([[pen.id, 1]]);
    const b = (await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: byBalance.id })).body.data.out_trade_no as string;
    expect((await balancePay(byBalance.id)).body.code).toBe(Code.Ok);
    for (let i = 0; i < 2; i++) await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: b });
    await t.app.get(PaymentKinds).settled();
    expect(await refundsOf(b)).toEqual([{ state: 'refunded', refunded: byBalance.total_fen, amount: byBalance.total_fen, request_key: 'surplus' }]);
    expect((await t.get(`/api/index/storeOrderList?keyword=${byBalance.no}`, operator)).body.data.list[0]).toMatchObject({
      state: 'paid',
      pay_method: 'balance',
    });
    await audit();
  });

  it('the operator ships (carrier, tracking number), the school confirms receipt; wrong states, bad input, other roles and schools are refused', async () => {
    const o = await order([[pen.id, 1]]);
    const ship = { id: o.id, carrier: '顺丰速运', tracking_no: 'SF1234567890' };
    expect((await t.post('/api/index/shipGoodsOrder', operator).send(ship)).body.msg).toBe('该订单尚未支付');
    expect((await balancePay(o.id)).body.code).toBe(Code.Ok);
    const before = await snap();
    expect((await t.post('/api/index/shipGoodsOrder', operator).send({ ...ship, tracking_no: '短' })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/shipGoodsOrder', admin).send(ship)).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/confirmGoodsOrder', admin).send({ id: o.id })).body.msg).toBe('该订单已支付');
    expect(await snap()).toEqual(before);
    const shipped = await t.post('/api/index/shipGoodsOrder', operator).send(ship);
    expect(shipped.body).toMatchObject({ code: Code.Ok, data: { state: 'shipped', carrier: '顺丰速运', tracking_no: 'SF1234567890' } });
    expect((await t.post('/api/index/shipGoodsOrder', operator).send(ship)).body.data.state).toBe('shipped');

    const b2 = await snap();
    expect((await t.post('/api/index/confirmGoodsOrder', other.adminToken).send({ id: o.id })).body.msg).toBe('未找到该订单');
    expect((await t.post('/api/index/confirmGoodsOrder', operator).send({ id: o.id })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/confirmGoodsOrder', admin).send({ id: 0 })).body.code).toBe(Code.Error);
    expect((await t.post('/api/index/cancelGoodsOrder', admin).send({ id: o.id, reason: '不要了' })).body.msg).toBe('该订单已发货');
    expect(await snap()).toEqual(b2);
    expect((await t.post('/api/index/confirmGoodsOrder', admin).send({ id: o.id })).body).toMatchObject({ code: Code.Ok, data: { state: 'done' } });
    const events = await t.sql.query(`select type from store_order_events where order_id = $1 order by id`, [o.id]);
    expect(events.rows.map((r) => r.type)).toEqual(['placed', 'paid', 'shipped', 'done']);
  });

  it('cancelGoodsOrder releases the stock; a paid order is refunded (balance to the wallet, WeChat Pay through the provider), once', async () => {
    const stock0 = (await goodsOf(dict.id)).stock;
    const unpaid = await order([[dict.id, 2]]);
    expect((await t.post('/api/index/cancelGoodsOrder', other.adminToken).send({ id: unpaid.id, reason: '下错了' })).body.msg).toBe('未找到该订单');
    expect((await t.post('/api/index/cancelGoodsOrder', teacher).send({ id: unpaid.id, reason: '下错了' })).body).toMatchObject(DENIED);
    expect((await t.post('/api/index/cancelGoodsOrder', admin).send({ id: unpaid.id, reason: '' })).body.code).toBe(Code.Error);
    expect((await goodsOf(dict.id)).stock).toBe(stock0 - 2);
    expect((await t.post('/api/index/cancelGoodsOrder', admin).send({ id: unpaid.id, reason: '下错了' })).body.data).toMatchObject({
      state: 'cancelled',
      cancel_reason: '下错了',
    });
    expect((await t.post('/api/index/cancelGoodsOrder', admin).send({ id: unpaid.id, reason: '下错了' })).body.data.state).toBe('cancelled');
    expect((await goodsOf(dict.id)).stock).toBe(stock0);
    expect((await balancePay(unpaid.id)).body.msg).toBe('该订单已取消');

    // paid from the balance, cancelled by the school: the money back to the wallet
    const {
      rows: [b0],
    } = await t.sql.query(`select balance_fen::float8 as b from schools where id = $1`, [t.demo.schoolId]);
    const paid = await order([[dict.id, 1]]);
    expect((await balancePay(paid.id)).body.code).toBe(Code.Ok);
    const c = await t.post('/api/index/cancelGoodsOrder', admin).send({ id: paid.id, reason: '学校不需要了' });
    expect(c.body).toMatchObject({ code: Code.Ok, data: { state: 'cancelled', refunded_fen: paid.total_fen } });
    expect((await t.post('/api/index/cancelGoodsOrder', admin).send({ id: paid.id, reason: '学校不需要了' })).body.data.refunded_fen).toBe(
      paid.total_fen,
    );
    const {
      rows: [b1],
    } = await t.sql.query(`select balance_fen::float8 as b from schools where id = $1`, [t.demo.schoolId]);
    expect(b1.b).toBe(b0.b);

    // paid by WeChat Pay, cancelled by the operator: refunded through the provider
    const w = await order([[dict.id, 1]]);
    const pay = await t.post('/api/index/wechatPayGoodsOrder', admin).send({ id: w.id });
    await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: pay.body.data.out_trade_no });
    await t.app.get(PaymentKinds).settled();
    const oc = await t.post('/api/index/cancelGoodsOrder', operator).send({ id: w.id, reason: '缺货，全额退款' });
    expect(oc.body).toMatchObject({ code: Code.Ok, data: { state: 'cancelled', refunded_fen: w.total_fen } });
    const { rows } = await t.sql.query(`select state from payments where out_trade_no = $1`, [pay.body.data.out_trade_no]);
    expect(rows[0].state).toBe('refunded');
    expect((await goodsOf(dict.id)).stock).toBe(stock0);
    await audit();
  });
});

describe('the 30-minute release (store.release, a controllable clock)', () => {
  const run = (id: number) => t.app.get(JobRegistry).run('store.release', { order_id: id });

  it('an unpaid order keeps its stock until its time, then is cancelled and its stock released, once', async () => {
    const g = await addGoods({ name: '释放测试 胶棒', price_fen: 300, stock: 4 });
    const o = await order([[g.id, 3]]);
    expect((await goodsOf(g.id)).stock).toBe(1);
    clockAt = new Date(new Date(o.created_at).getTime() + 29 * 60_000);
    await run(o.id);
    expect((await goodsOf(g.id)).stock).toBe(1);
    clockAt = new Date(new Date(o.created_at).getTime() + 31 * 60_000);
    await run(o.id);
    await run(o.id);
    expect((await goodsOf(g.id)).stock).toBe(4);
    const now = (await t.get(`/api/index/storeOrderList?keyword=${o.no}`, operator)).body.data.list[0] as StoreOrder;
    expect(now).toMatchObject({ state: 'cancelled', cancel_reason: '超时未支付，订单自动取消' });
    const moves = await t.sql.query(`select kind, delta from store_stock_moves where order_id = $1 order by id`, [o.id]);
    expect(moves.rows).toEqual([
      { kind: 'reserve', delta: -3 },
      { kind: 'release', delta: 3 },
    ]);
    await audit();
  });

  it('an order paid meanwhile is never cancelled; paying after the time is refused and releases it', async () => {
    const g = await addGoods({ name: '释放测试 橡皮', price_fen: 200, stock: 4 });
    const paid = await order([[g.id, 1]]);
    expect((await balancePay(paid.id)).body.code).toBe(Code.Ok);
    clockAt = new Date(Date.now() + 31 * 60_000);
    await run(paid.id);
    expect((await t.get(`/api/index/storeOrderList?keyword=${paid.no}`, operator)).body.data.list[0].state).toBe('paid');

    clockAt = null;
    const late = await order([[g.id, 2]]);
    clockAt = new Date(Date.now() + 31 * 60_000);
    const before = await snap();
    expect((await balancePay(late.id)).body.msg).toBe('订单已超过支付时限，已自动取消');
    const after = await snap();
    expect(after.ledger).toBe(before.ledger);
    expect(after.payments).toBe(before.payments);
    expect((await goodsOf(g.id)).stock).toBe(3);
    await audit();
  });
});

describe('the order race', () => {
  it('100 concurrent orders for a good with 10 in stock: exactly 10 reserved, the rest refused, stock never negative', async () => {
    const g = await addGoods({ name: '抢购测试 笔记本', price_fen: 500, stock: 10 });
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        t
          .post('/api/index/submitGoodsOrder', admin)
          .send({ items: [{ goods_id: g.id, quantity: 1 }], address_id: address.id, total_fen: 500 + STORE_FREIGHT_FEN, request_id: rid() }),
      ),
    );
    const ok = results.filter((r) => r.body.code === Code.Ok);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.body.code === Code.Error).every((r) => r.body.msg === '商品「抢购测试 笔记本」库存不足（剩余 0）')).toBe(true);
    expect((await goodsOf(g.id)).stock).toBe(0);
    const { rows } = await t.sql.query(`select count(*)::int as n from store_order_lines where goods_id = $1`, [g.id]);
    expect(rows[0].n).toBe(10);
    await audit();
  }, 60_000);

  it('30 concurrent orders of two goods, one with 5 in stock: each order takes both or neither', async () => {
    const scarce = await addGoods({ name: '抢购测试 书签', price_fen: 500, stock: 5 });
    const plenty = await addGoods({ name: '抢购测试 橡皮', price_fen: 700, stock: 100 });
    const pre = await t.get(`/api/index/submitGoodsOrder?items=${plenty.id}:2,${scarce.id}:1`, admin);
    const items = [
      { goods_id: plenty.id, quantity: 2 },
      { goods_id: scarce.id, quantity: 1 },
    ];
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.post('/api/index/submitGoodsOrder', admin).send({ items, address_id: address.id, total_fen: pre.body.data.total_fen, request_id: rid() }),
      ),
    );
    expect(results.filter((r) => r.body.code === Code.Ok)).toHaveLength(5);
    expect(results.filter((r) => r.body.code === Code.Error).every((r) => r.body.msg === '商品「抢购测试 书签」库存不足（剩余 0）')).toBe(true);
    expect((await goodsOf(scarce.id)).stock).toBe(0);
    expect((await goodsOf(plenty.id)).stock).toBe(90);
    await audit();
  }, 60_000);

  it('the same order sent 8 times at once is placed once, and every answer is that order', async () => {
    const g = await addGoods({ name: '抢购测试 铅笔盒', price_fen: 900, stock: 20 });
    const body = { items: [{ goods_id: g.id, quantity: 1 }], address_id: address.id, total_fen: 900 + STORE_FREIGHT_FEN, request_id: rid() };
    const results = await Promise.all(Array.from({ length: 8 }, () => t.post('/api/index/submitGoodsOrder', admin).send(body)));
    expect(results.every((r) => r.body.code === Code.Ok)).toBe(true);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results[0].body.data).toMatchObject({ state: 'unpaid', lines: [{ goods_id: g.id, quantity: 1 }] });
    expect((await goodsOf(g.id)).stock).toBe(19);
    await audit();
  }, 60_000);
});
