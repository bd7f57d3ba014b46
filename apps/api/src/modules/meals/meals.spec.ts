import { Code, weekdayOf, type DinnerBooking, type MealGoods } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import { DomainEvents, type DomainEventMap } from '../../core/events/domain-events';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { PaymentKinds } from '../payments/payment-kinds';
import { MealsListener } from './meals-listener';

let t: TestApp;
let admin: string;
let adviser: string;
let parent: string;
let teacher: string;
let today: string;
/** the demo parent's child (in the adviser's class), a child of another family in the adviser's class, a child of the other class */
let child: number;
let stranger: number;
let otherClassChild: number;
let classId: number;
let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${seq++}`;
const P = '/api/index/';
const DENIED = { code: Code.Error, msg: '当前账号没有权限执行此操作' };
const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const settled = () => t.app.get(MealsListener).settled();

beforeAll(async () => {
  t = await startTestApp({ runJobs: true, redis: false, demoPeople: true, listen: true });
  [admin, adviser, parent, teacher] = await Promise.all([t.login('admin'), t.login('adviser'), t.login('parent'), t.login('teacher')]);
  classId = t.demo.classes!.running;
  today = (await t.sql.query(`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as d`)).rows[0].d;
  const mine = await t.sql.query(
    `select s.id from students s join student_guardians g on g.student_id = s.id join care_class_students c on c.student_id = s.id
      where g.user_id = $1 and c.class_id = $2 and s.status = 1 order by s.id`,
    [t.demo.users.parent, classId],
  );
  child = mine.rows[0].id;
  stranger = (
    await t.sql.query(
      `select s.id from students s join care_class_students c on c.student_id = s.id where c.class_id = $1 and s.status = 1
        and not exists (select 1 from student_guardians g where g.student_id = s.id and g.user_id = $2) order by s.id limit 1`,
      [classId, t.demo.users.parent],
    )
  ).rows[0].id;
  // the demo's classes meet Monday to Friday: here every day, so the tests book any day (one test below sets the week)
  await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where school_id = $1`, [t.demo.schoolId]);
  // the demo's contracts (some include dinner) are set aside: each test signs what it needs
  await t.sql.query(`update contracts set status = 'cancelled' where school_id = $1`, [t.demo.schoolId]);
  otherClassChild = (
    await t.sql.query(
      `select s.id from students s join care_class_students c on c.student_id = s.id where c.class_id = $1 and s.status = 1 order by s.id limit 1`,
      [t.demo.classes!.second],
    )
  ).rows[0].id;
});
afterAll(() => t.close());

async function snap() {
  const { schools: _s, users: _u, user_tokens: _t, user_activity: _a, user_versions: _v, ...rest } = await snapshot(t.sql);
  const { rows } = await t.sql.query(
    `select (select coalesce(sum(version), 0) from meal_goods)::int as goods_versions, (select coalesce(sum(version), 0) from meal_bookings)::int as booking_versions,
            (select count(*) from meal_goods_prices)::int as prices, (select count(*) from meal_booking_events)::int as events, (select count(*) from meal_settings)::int as settings`,
  );
  return { ...rest, ...rows[0] };
}

let goodsNo = 0;
async function addGoods(over: Record<string, unknown> = {}): Promise<MealGoods> {
  const res = await t
    .post(`${P}addMealGoods`, admin)
    .send({ name: `套餐饭${goodsNo++}`, price_fen: 1500, picture_url: '/uploads/2026-12/a.png', ...over });
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}
async function book(token: string, over: Record<string, unknown>) {
  return t.post(`${P}bookDinner`, token).send({ student_id: child, day: plus(1), request_id: rid(), ...over });
}
async function booked(token: string, over: Record<string, unknown>): Promise<DinnerBooking> {
  const res = await book(token, over);
  expect(res.body).toMatchObject({ code: Code.Ok });
  return res.body.data;
}
async function setCutoff(cutoff_time: string, days_before = 0) {
  const cur = await t.get(`${P}mealSettings`, admin);
  const res = await t.post(`${P}setMealSettings`, admin).send({ cutoff_time, days_before, version: cur.body.data.version });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { cutoff_time, days_before } });
}
const bookingRow = async (id: number) =>
  (await t.sql.query(`select status, cancel_cause, leave_id, served_at, price_fen::int as price_fen from meal_bookings where id = $1`, [id])).rows[0];

describe('meal items', () => {
  it('adds, lists, edits, changes the price with an appended history, enables and disables', async () => {
    const g = await addGoods({ name: '红烧肉饭', description: '米饭+红烧肉' });
    expect(g).toMatchObject({ name: '红烧肉饭', price_fen: 1500, enabled: true, orders: 0, version: 1, picture_url: '/uploads/2026-12/a.png' });
    const list = await t.get(`${P}mealGoodsList?enabled=1&keyword=红烧`, adviser);
    expect(list.body.data.list.map((x: MealGoods) => x.id)).toEqual([g.id]);

    const edited = await t.post(`${P}editMealGoods`, admin).send({ id: g.id, version: 1, name: '红烧肉套餐', picture_url: null });
    expect(edited.body.data).toMatchObject({ name: '红烧肉套餐', picture_url: null, version: 2, price_fen: 1500 });
    const stale = await t.post(`${P}editMealGoods`, admin).send({ id: g.id, version: 1, name: 'x' });
    expect(stale.body).toMatchObject({ code: Code.Error, msg: '餐品已被他人修改，请刷新后重试' });

    const b = await booked(admin, { goods_id: g.id, student_id: stranger });
    const priced = await t.post(`${P}editMealGoodsPrice`, admin).send({ id: g.id, version: 2, price_fen: 1800, reason: '食材涨价' });
    expect(priced.body.data).toMatchObject({ price_fen: 1800, version: 3 });
    expect((await bookingRow(b.id)).price_fen).toBe(1500); // the booking keeps its price
    const prices = await t.get(`${P}mealGoodsPrices?id=${g.id}`, admin);
    expect(prices.body.data.map((p: { price_fen: number; reason: string }) => [p.price_fen, p.reason])).toEqual([
      [1800, '食材涨价'],
      [1500, '新增餐品'],
    ]);
    await expect(t.sql.query(`update meal_goods_prices set price_fen = 1 where goods_id = $1`, [g.id])).rejects.toThrow(/append-only/);
    expect((await t.post(`${P}editMealGoodsPrice`, admin).send({ id: g.id, version: 3, price_fen: 1800, reason: '不变' })).body.msg).toBe(
      '新价格与当前价格相同',
    );

    const off = await t.post(`${P}operateMealGoods`, admin).send({ id: g.id, version: 3, enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, version: 4 });
    expect((await book(admin, { goods_id: g.id })).body).toMatchObject({ code: Code.Error, msg: '该餐品已停用，不能预订' });
  });

  it('a name is taken per school (case-insensitive) on add and edit; a keyword matches its wildcards literally', async () => {
    const a = await addGoods({ name: `Rice_${goodsNo}%` });
    const b = await addGoods();
    const taken = await t.post(`${P}addMealGoods`, admin).send({ name: a.name.toLowerCase(), price_fen: 1500 });
    expect(taken.body).toMatchObject({ code: Code.Error, msg: '已有同名餐品' });
    const renamed = await t.post(`${P}editMealGoods`, admin).send({ id: b.id, version: 1, name: a.name.toUpperCase() });
    expect(renamed.body).toMatchObject({ code: Code.Error, msg: '已有同名餐品' });
    const found = async (keyword: string) =>
      (await t.get(`${P}mealGoodsList?keyword=${encodeURIComponent(keyword)}`, admin)).body.data.list.map((x: MealGoods) => x.id);
    expect(await found('e_')).toEqual([a.id]);
    expect(await found('%')).toEqual([a.id]);
    expect(await found('R_ce')).toEqual([]);
  });

  it('deletes an item never ordered, disables one ordered', async () => {
    const never = await addGoods();
    expect((await t.post(`${P}delMealGoods`, admin).send({ id: never.id, version: 1 })).body.data).toEqual({ deleted: true, goods: null });
    expect((await t.get(`${P}mealGoodsList`, admin)).body.data.list.map((x: MealGoods) => x.id)).not.toContain(never.id);
    await addGoods({ name: never.name }); // the name is free again

    const ordered = await addGoods();
    await booked(admin, { goods_id: ordered.id, student_id: stranger, day: plus(3) });
    const res = await t.post(`${P}delMealGoods`, admin).send({ id: ordered.id, version: 1 });
    expect(res.body.data).toMatchObject({ deleted: false, goods: { id: ordered.id, enabled: false, orders: 1 } });
  });

  it('bad input writes nothing', async () => {
    const g = await addGoods();
    const before = await snap();
    const bodies: Array<[string, object]> = [
      ['addMealGoods', { name: '', price_fen: 100 }],
      ['addMealGoods', { name: 'a', price_fen: 0 }],
      ['addMealGoods', { name: 'a', price_fen: 12.5 }],
      ['addMealGoods', { name: 'a', price_fen: 100, picture_url: 'javascript:alert(1)' }],
      ['addMealGoods', { name: g.name, price_fen: 100 }],
      ['editMealGoods', { id: g.id, version: 'x', name: 'a' }],
      ['editMealGoodsPrice', { id: g.id, version: 1, price_fen: 100, reason: '' }],
      ['operateMealGoods', { id: g.id, version: 1, enabled: 'yes' }],
      ['delMealGoods', { id: 0, version: 1 }],
      ['setMealSettings', { cutoff_time: '25:00', days_before: 0, version: 1 }],
      ['bookDinner', { student_id: child, day: '2026-13-40', goods_id: g.id, request_id: rid() }],
      ['bookDinner', { student_id: child, day: plus(1), goods_id: g.id, request_id: 'short' }],
      ['cancelDinner', { id: -1, version: 1 }],
    ];
    for (const [action, body] of bodies)
      expect({ action, code: (await t.post(`${P}${action}`, admin).send(body)).body.code }).toEqual({ action, code: Code.Error });
    for (const q of [
      'orderMealCount?from=2026-12-02&to=2026-12-01',
      'orderMealCount?from=x&to=y',
      'schoolDinnerOrderList?from=bad',
      'dinnerOrderList?from=2026-01-01&status=1',
    ]) {
      expect((await t.get(`${P}${q}`, admin)).body.code).toBe(Code.Error);
    }
    expect(await snap()).toEqual(before);
  });

  it.each(['teacher', 'parent', 'operator'] as const)('%s may not manage items', async (who) => {
    const token = await t.login(who);
    expect((await t.post(`${P}addMealGoods`, token).send({ name: 'x', price_fen: 1 })).body).toMatchObject(DENIED);
    expect((await t.post(`${P}operateMealGoods`, token).send({ id: 1, version: 1, enabled: false })).body).toMatchObject(DENIED);
    expect((await t.post(`${P}editMealGoodsPrice`, token).send({ id: 1, version: 1, price_fen: 1, reason: 'xx' })).body).toMatchObject(DENIED);
    expect((await t.post(`${P}delMealGoods`, token).send({ id: 1, version: 1 })).body).toMatchObject(DENIED);
    expect((await t.post(`${P}editMealGoods`, token).send({ id: 1, version: 1, name: 'x' })).body).toMatchObject(DENIED);
    expect((await t.get(`${P}orderMealCount?from=${today}&to=${today}`, token)).body).toMatchObject(DENIED);
    expect((await t.get(`${P}schoolDinnerOrderList?from=${today}`, token)).body).toMatchObject(DENIED);
    expect((await t.post(`${P}setMealSettings`, token).send({ cutoff_time: '10:00', days_before: 0, version: 1 })).body).toMatchObject(DENIED);
    if (who !== 'parent')
      expect((await t.post(`${P}bookDinner`, token).send({ student_id: child, day: today, goods_id: 1, request_id: rid() })).body).toMatchObject(
        DENIED,
      );
  });

  it('the head teacher and parents may not call the admin-only and head-teacher-only reads', async () => {
    expect((await t.get(`${P}mealGoodsList`, parent)).body).toMatchObject(DENIED);
    expect((await t.get(`${P}dinnerOrderList?from=${today}`, teacher)).body).toMatchObject(DENIED);
    expect((await t.get(`${P}dinnerBookingCount?day=${today}`, admin)).body).toMatchObject(DENIED);
    expect((await t.get(`${P}dinnerBookingCountInfo?day=${today}`, parent)).body).toMatchObject(DENIED);
  });

  it('another school’s items and bookings are unknown', async () => {
    const g = await addGoods();
    const b = await booked(admin, { goods_id: g.id, student_id: stranger, day: plus(4) });
    const other = await t.otherSchool();
    const before = await snap();
    for (const [action, body] of [
      ['editMealGoods', { id: g.id, version: 1, name: 'x' }],
      ['editMealGoodsPrice', { id: g.id, version: 1, price_fen: 1, reason: 'xx' }],
      ['operateMealGoods', { id: g.id, version: 1, enabled: false }],
      ['delMealGoods', { id: g.id, version: 1 }],
      ['cancelDinner', { id: b.id, version: b.version }],
      ['bookDinner', { student_id: child, day: plus(1), goods_id: g.id, request_id: rid() }],
    ] as const) {
      const res = await t.post(`${P}${action}`, other.adminToken).send(body);
      expect({ action, code: res.body.code, msg: res.body.msg }).toMatchObject({ action, code: Code.Error, msg: expect.stringMatching(/未找到/) });
    }
    expect((await t.get(`${P}mealGoodsList`, other.adminToken)).body.data.total).toBe(0);
    expect((await t.get(`${P}mealGoodsPrices?id=${g.id}`, other.adminToken)).body.msg).toBe('未找到该餐品');
    expect((await t.get(`${P}schoolDinnerOrderList?from=${plus(4)}`, other.adminToken)).body.data.total).toBe(0);
    expect((await t.get(`${P}dinnerOrderList?from=${plus(4)}&student_id=${stranger}`, other.adminToken)).body.data.total).toBe(0);
    expect((await t.get(`${P}orderMealCount?from=${plus(4)}&to=${plus(4)}`, other.adminToken)).body.data.rows).toEqual([]);
    expect(await snap()).toEqual(before);
  });
});

describe('dinner bookings', () => {
  it('a guardian books only the days the child’s class meets: not on another weekday, not on a holiday; a make-up day counts; the school may book any day', async () => {
    const g = await addGoods();
    const [meets, other, holiday, makeup] = [plus(20), plus(21), plus(27), plus(22)];
    const [{ slot }] = (await t.sql.query(`select class_time_id as slot from care_classes where id = $1`, [classId])).rows;
    try {
      await t.sql.query(`update class_times set weekdays = $2 where id = $1`, [slot, [weekdayOf(meets)]]);
      await t.sql.query(
        `insert into school_calendar_days (school_id, day, kind, works_as, note) values ($1, $2, 'holiday', null, '校庆'), ($1, $3, 'makeup', $4, '调休')`,
        [t.demo.schoolId, holiday, makeup, weekdayOf(meets)],
      );
      const before = await snap();
      expect((await book(parent, { goods_id: g.id, day: other })).body).toMatchObject({ code: Code.Error, msg: '孩子所在班级当天不上课，不能订餐' });
      expect((await book(parent, { goods_id: g.id, day: holiday })).body).toMatchObject({ code: Code.Error, msg: '当天学校放假，不能订餐' });
      expect(await snap()).toEqual(before);
      expect((await booked(parent, { goods_id: g.id, day: meets })).day).toBe(meets);
      expect((await booked(parent, { goods_id: g.id, day: makeup })).day).toBe(makeup);
      // the school books for a day the class does not meet (an outing)
      expect((await booked(admin, { goods_id: g.id, day: other })).day).toBe(other);
      // the guardian's page says which days cannot be booked, and why
      const page = (await t.get(`${P}parentMeals?student_id=${child}&from=${plus(20)}&to=${plus(27)}`, parent)).body.data;
      expect(page.closed_days).toEqual(
        [21, 22, 23, 24, 25, 26, 27]
          .map(plus)
          .filter((d) => d === holiday || (d !== makeup && weekdayOf(d) !== weekdayOf(meets)))
          .map((d) => ({ day: d, reason: d === holiday ? 'holiday' : 'no_class' })),
      );
    } finally {
      await t.sql.query(`update class_times set weekdays = '{1,2,3,4,5,6,7}' where id = $1`, [slot]);
      await t.sql.query(`delete from school_calendar_days where school_id = $1`, [t.demo.schoolId]);
    }
  });

  let g: MealGoods;
  let g2: MealGoods;
  beforeAll(async () => {
    g = await addGoods({ name: '番茄鸡蛋饭', price_fen: 1200 });
    g2 = await addGoods({ name: '牛肉面', price_fen: 1600 });
  });
  beforeEach(() => setCutoff('10:00'));

  it('a guardian books an own child before the cutoff: unpaid without a dinner contract, idempotent by request id', async () => {
    const request_id = rid();
    const b = await booked(parent, { goods_id: g.id, day: plus(2), request_id });
    expect(b).toMatchObject({ student_id: child, goods_id: g.id, price_fen: 1200, status: 'unpaid', pay_from: 'wechat', day: plus(2) });
    const again = await booked(parent, { goods_id: g.id, day: plus(2), request_id });
    expect(again.id).toBe(b.id);
    expect((await t.sql.query(`select count(*)::int as n from meal_bookings where student_id = $1 and day = $2`, [child, plus(2)])).rows[0].n).toBe(
      1,
    );
    // another child's and another family's child are not theirs
    expect((await book(parent, { goods_id: g.id, student_id: stranger })).body.msg).toBe('未找到该学生');
    // pays through WeChat Pay: a pending payment of the booking's price
    const pay = await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id });
    expect(pay.body).toMatchObject({ code: Code.Ok, data: { amount_fen: 1200 } });
  });

  it('a contract that includes dinner pays for the day', async () => {
    const pkg = (
      await t
        .post(`${P}addContractPackage`, admin)
        .send({ name: `含晚餐${rid()}`, kind: 'month', length: 1, price_fen: 300000, includes: ['care', 'dinner'] })
    ).body.data;
    const c = await t.post(`${P}addContract`, admin).send({
      student_id: stranger,
      guardian_id: (await t.sql.query(`select user_id from student_guardians where student_id = $1 limit 1`, [stranger])).rows[0].user_id,
      package_id: pkg.id,
      start_day: today,
      request_id: rid(),
      payment: { method: 'cash' },
    });
    expect(c.body.code).toBe(Code.Ok);
    const b = await booked(adviser, { goods_id: g.id, student_id: stranger, day: plus(5) });
    expect(b).toMatchObject({ status: 'booked', pay_from: 'contract' });
    const p = await t.get(`${P}parentMeals?student_id=${child}&from=${today}&to=${plus(6)}`, parent);
    expect(p.body.data).toMatchObject({ settings: { cutoff_time: '10:00' }, covered_days: [] });
  });

  it('the cutoff binds guardians, not the school', async () => {
    await setCutoff('00:00'); // today is closed for guardians, tomorrow still open
    expect((await book(parent, { goods_id: g.id, day: today })).body).toMatchObject({
      code: Code.Error,
      msg: '已过当日订餐截止时间，请联系学校修改',
    });
    const tomorrow = await booked(parent, { goods_id: g.id, day: plus(7) });
    expect(tomorrow.status).toBe('unpaid');
    const school = await booked(admin, { goods_id: g.id, day: today });
    expect(school).toMatchObject({ status: 'booked', pay_from: 'school' });
    expect((await t.post(`${P}cancelDinner`, parent).send({ id: school.id, version: school.version })).body.msg).toBe(
      '已过当日订餐截止时间，请联系学校修改',
    );
    const byHead = await t.post(`${P}cancelDinner`, adviser).send({ id: school.id, version: school.version });
    expect(byHead.body.data).toMatchObject({ status: 'cancelled', cancel_cause: 'user' });
    // the day before at 18:30: tomorrow's bookings closed once it is past 18:30 today (checked by the pure rule's table)
  });

  it('the head teacher books only their class; rebooking changes the item; optimistic versions on cancel', async () => {
    expect((await book(adviser, { goods_id: g.id, student_id: otherClassChild })).body.msg).toBe('未找到该学生');
    const b = await booked(adviser, { goods_id: g.id, student_id: stranger, day: plus(8) });
    const changed = await booked(adviser, { goods_id: g2.id, student_id: stranger, day: plus(8) });
    expect(changed).toMatchObject({ id: b.id, goods_id: g2.id, price_fen: 1600, version: b.version + 1 });
    expect((await t.post(`${P}cancelDinner`, adviser).send({ id: b.id, version: b.version })).body.msg).toBe('订餐已被他人修改，请刷新后重试');
    const cancelled = await t.post(`${P}cancelDinner`, adviser).send({ id: b.id, version: changed.version });
    expect(cancelled.body.data.status).toBe('cancelled');
    expect((await t.post(`${P}cancelDinner`, adviser).send({ id: b.id, version: cancelled.body.data.version })).body.msg).toBe(
      '该订餐已取消或已用餐，不能取消',
    );
    const list = await t.get(`${P}dinnerOrderList?from=${plus(8)}&student_id=${stranger}`, adviser);
    expect(list.body.data.list).toHaveLength(1);
    const none = await t.get(`${P}dinnerOrderList?from=${plus(8)}&student_id=${otherClassChild}`, adviser);
    expect(none.body.data.total).toBe(0);
  });

  it('an approved leave cancels its days’ bookings and its cancellation restores only those', async () => {
    const d1 = await booked(admin, { goods_id: g.id, day: plus(10) });
    const d2 = await booked(admin, { goods_id: g.id, day: plus(11) });
    const byUser = await booked(admin, { goods_id: g.id, day: plus(12) });
    await t.post(`${P}cancelDinner`, admin).send({ id: byUser.id, version: byUser.version });
    const outside = await booked(admin, { goods_id: g.id, day: plus(13) });
    const leave = await t.post(`${P}submitLeave`, parent).send({ student_id: child, start_day: plus(10), end_day: plus(12), reason: '回老家' });
    expect(leave.body.code).toBe(Code.Ok);
    const approved = await t.post(`${P}auditStudentInfo`, adviser).send({ id: leave.body.data.id, version: leave.body.data.version, approve: true });
    expect(approved.body.code).toBe(Code.Ok);
    await settled();
    expect(await bookingRow(d1.id)).toMatchObject({ status: 'cancelled', cancel_cause: 'leave', leave_id: leave.body.data.id });
    expect(await bookingRow(d2.id)).toMatchObject({ status: 'cancelled', cancel_cause: 'leave' });
    expect(await bookingRow(byUser.id)).toMatchObject({ status: 'cancelled', cancel_cause: 'user' });
    expect(await bookingRow(outside.id)).toMatchObject({ status: 'booked' });
    const counts = await t.get(`${P}orderMealCount?from=${plus(10)}&to=${plus(13)}`, admin);
    expect(counts.body.data.totals).toMatchObject({ booked: 1, cancelled: 3 });

    const cancelled = await t.post(`${P}cancelLeave`, parent).send({ id: leave.body.data.id, version: approved.body.data.leave.version });
    expect(cancelled.body.code).toBe(Code.Ok);
    await settled();
    expect(await bookingRow(d1.id)).toMatchObject({ status: 'booked', cancel_cause: null, leave_id: null });
    expect(await bookingRow(d2.id)).toMatchObject({ status: 'booked' });
    expect(await bookingRow(byUser.id)).toMatchObject({ status: 'cancelled', cancel_cause: 'user' });
    const events = await t.sql.query(`select type from meal_booking_events where booking_id = $1 order by id`, [d1.id]);
    expect(events.rows.map((r) => r.type)).toEqual(['booked', 'cancelled_by_leave', 'restored_after_leave']);
  });

  it('a leave also cancels unpaid dinners and refunds WeChat-paid ones; its cancellation puts both back waiting for payment', async () => {
    const unpaid = await booked(parent, { goods_id: g.id, day: plus(14) });
    const paid = await booked(parent, { goods_id: g.id, day: plus(15) });
    const no = (await t.post(`${P}wechatPayDinner`, parent).send({ id: paid.id })).body.data.out_trade_no as string;
    expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body.code).toBe(Code.Ok);
    await t.app.get(PaymentKinds).settled();
    expect(await bookingRow(paid.id)).toMatchObject({ status: 'booked' });

    const leave = await t.post(`${P}submitLeave`, parent).send({ student_id: child, start_day: plus(14), end_day: plus(15), reason: '外出旅行' });
    const approved = await t.post(`${P}auditStudentInfo`, adviser).send({ id: leave.body.data.id, version: leave.body.data.version, approve: true });
    expect(approved.body.code).toBe(Code.Ok);
    await settled();
    expect(await bookingRow(unpaid.id)).toMatchObject({ status: 'cancelled', cancel_cause: 'leave' });
    expect(await bookingRow(paid.id)).toMatchObject({ status: 'cancelled', cancel_cause: 'leave' });
    const refunds = await t.sql.query(
      `select p.state, r.amount_fen::int as amount from payments p join payment_refunds r on r.payment_id = p.id where p.out_trade_no = $1`,
      [no],
    );
    expect(refunds.rows).toEqual([{ state: 'refunded', amount: 1200 }]);
    // the same event again changes nothing and refunds nothing more
    t.app.get(DomainEvents).emit('leave.changed', {
      school_id: t.demo.schoolId,
      leave_id: leave.body.data.id,
      student_id: child,
      start_day: plus(14),
      end_day: plus(15),
      approved: true,
    });
    await settled();
    expect(
      (await t.sql.query(`select count(*)::int as n from payment_refunds r join payments p on p.id = r.payment_id where p.out_trade_no = $1`, [no]))
        .rows[0].n,
    ).toBe(1);

    expect((await t.post(`${P}cancelLeave`, parent).send({ id: leave.body.data.id, version: approved.body.data.leave.version })).body.code).toBe(
      Code.Ok,
    );
    await settled();
    expect(await bookingRow(unpaid.id)).toMatchObject({ status: 'unpaid', cancel_cause: null });
    expect(await bookingRow(paid.id)).toMatchObject({ status: 'unpaid', cancel_cause: null });
    expect((await t.sql.query(`select out_trade_no from meal_bookings where id = $1`, [paid.id])).rows[0].out_trade_no).toBeNull();
  });

  it('a payment that arrives after its booking was cancelled unpaid, or after a second QR booked it, goes back in full, once (issue 21)', async () => {
    const refundsOf = async (no: string) =>
      (
        await t.sql.query(
          `select p.state, p.refunded_fen::int as refunded, r.amount_fen::int as amount, r.request_key from payments p join payment_refunds r on r.payment_id = p.id where p.out_trade_no = $1`,
          [no],
        )
      ).rows;
    // cancelled while unpaid, then paid anyway (the notify repeated)
    const b = await booked(parent, { goods_id: g.id, day: plus(16) });
    const no = (await t.post(`${P}wechatPayDinner`, parent).send({ id: b.id })).body.data.out_trade_no as string;
    expect((await t.post(`${P}cancelDinner`, parent).send({ id: b.id, version: b.version })).body.code).toBe(Code.Ok);
    for (let i = 0; i < 3; i++) {
      expect((await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: no })).body.data.notify_status).toBe(204);
      await t.app.get(PaymentKinds).settled();
    }
    expect(await bookingRow(b.id)).toMatchObject({ status: 'cancelled' });
    expect(await refundsOf(no)).toEqual([{ state: 'refunded', refunded: 1200, amount: 1200, request_key: 'surplus' }]);

    // two QRs paid: the first books, the second goes back
    const d = await booked(parent, { goods_id: g.id, day: plus(17) });
    const first = (await t.post(`${P}wechatPayDinner`, parent).send({ id: d.id })).body.data.out_trade_no as string;
    const second = (await t.post(`${P}wechatPayDinner`, parent).send({ id: d.id })).body.data.out_trade_no as string;
    for (const n of [first, second, second]) await t.post('/api/dev/wechatpay/simulate').send({ out_trade_no: n });
    await t.app.get(PaymentKinds).settled();
    expect(await bookingRow(d.id)).toMatchObject({ status: 'booked' });
    expect(await refundsOf(first)).toEqual([]);
    expect(await refundsOf(second)).toEqual([{ state: 'refunded', refunded: 1200, amount: 1200, request_key: 'surplus' }]);
  });

  it('the flow’s dinner step marks the booking served; a dinner without a booking counts as unbooked; a void takes it back', async () => {
    await t.sql.query(`delete from meal_bookings where day = $1 and status = 'none'`, [today]);
    const b = await booked(admin, { goods_id: g2.id, student_id: stranger, day: today });
    const seen: Array<DomainEventMap['meals.count']> = [];
    const off = t.app.get(DomainEvents).on('meals.count', (e) => seen.push(e));
    for (const path of ['studentEnter', 'teacherStudentDinner']) {
      const res = await t.post(`${P}${path}`, adviser).send({ student_ids: [stranger, otherClassChild] });
      expect(res.body.code).toBe(Code.Ok);
    }
    // otherClassChild is not the adviser's: their own head teacher enters them and gives them dinner (not booked)
    const liu = (await t.post(`${P}login`).send({ account: 'demo_liu', password: 'Demo@2026' })).body.data.userinfo.token;
    for (const path of ['studentEnter', 'teacherStudentDinner']) {
      const res = await t.post(`${P}${path}`, liu).send({ student_ids: [otherClassChild] });
      expect({ path, results: res.body.data?.results }).toMatchObject({ path, results: [{ ok: true }] });
    }
    await settled();
    off();
    expect((await bookingRow(b.id)).served_at).not.toBeNull();
    const unbooked = await t.sql.query(`select status, goods_id from meal_bookings where student_id = $1 and day = $2`, [otherClassChild, today]);
    expect(unbooked.rows).toEqual([{ status: 'none', goods_id: null }]);
    const counts = (await t.get(`${P}orderMealCount?from=${today}&to=${today}`, admin)).body.data;
    expect(counts.rows.find((r: { goods_id: number }) => r.goods_id === g2.id)).toMatchObject({ booked: 1, served: 1 });
    expect(counts.rows.find((r: { goods_id: number | null }) => r.goods_id === null)).toMatchObject({ unbooked_served: 1 });
    // the kitchen's live count went out for today
    expect(seen.at(-1)).toMatchObject({ school_id: t.demo.schoolId, day: today });
    expect(seen.some((e) => e.items.some((i) => i.goods_id === g2.id && i.served === 1))).toBe(true);

    const head = (await t.get(`${P}dinnerBookingCount?day=${today}`, adviser)).body.data;
    expect(head).toMatchObject({ day: today, classes: [{ id: classId }] });
    expect(head.items.find((i: { goods_id: number }) => i.goods_id === g2.id)).toMatchObject({ booked: 1, served: 1 });
    const info = (await t.get(`${P}dinnerBookingCountInfo?day=${today}&goods_id=${g2.id}`, adviser)).body.data;
    expect(info.list.map((r: { student_id: number }) => r.student_id)).toEqual([stranger]);
    expect((await t.get(`${P}dinnerBookingCount?day=${today}&class_id=${t.demo.classes!.second}`, adviser)).body.msg).toBe('未找到该班级');
    // the head teacher's data centre: their class only (the unbooked dinner of the other class is not theirs)
    const mine = (await t.get(`${P}classMealCount?from=${today}&to=${today}`, adviser)).body.data;
    expect(mine.rows.find((r: { goods_id: number }) => r.goods_id === g2.id)).toMatchObject({ period: today, booked: 1, served: 1 });
    expect(mine.rows.some((r: { goods_id: number | null }) => r.goods_id === null)).toBe(false);
    const byMonth = (await t.get(`${P}classMealCount?from=${today}&to=${today}&group=month`, adviser)).body.data;
    expect(byMonth.rows[0].period).toBe(`${today.slice(0, 7)}-01`);
    expect((await t.get(`${P}orderMealCount?from=${today}&to=${today}&group=month`, admin)).body.data.rows[0].period).toBe(`${today.slice(0, 7)}-01`);
    expect((await t.get(`${P}classMealCount?from=${today}&to=${today}`, admin)).body).toMatchObject(DENIED);
    expect((await t.get(`${P}classMealCount?from=${today}&to=x`, adviser)).body.code).toBe(Code.Error);

    // the head teacher voids the unbooked dinner: its row goes
    const ev = await t.sql.query(
      `select event_id from flow_events where student_id = $1 and type = 'student.dinner_confirmed' order by global_position desc limit 1`,
      [otherClassChild],
    );
    const voided = await t.post(`${P}voidFlowEvent`, liu).send({ student_id: otherClassChild, event_id: ev.rows[0].event_id, reason: '点错了' });
    expect(voided.body.code).toBe(Code.Ok);
    await settled();
    expect(
      (await t.sql.query(`select count(*)::int as n from meal_bookings where student_id = $1 and day = $2`, [otherClassChild, today])).rows[0].n,
    ).toBe(0);
  });

  it('lists and exports the school’s orders and the counts as .xlsx', async () => {
    const list = await t.get(`${P}schoolDinnerOrderList?from=${today}&to=${plus(20)}&limit=5`, admin);
    expect(list.body.data.total).toBeGreaterThan(5);
    expect(list.body.data.list).toHaveLength(5);
    const exp = await t
      .get(`${P}schoolDinnerOrderExport?from=${today}&to=${plus(20)}`, admin)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    const wb = new Workbook();
    await wb.xlsx.load(exp.body as ArrayBuffer);
    expect(wb.worksheets[0].getRow(1).getCell(1).value).toBe('日期');
    expect(wb.worksheets[0].rowCount).toBe(list.body.data.total + 1);
    const cnt = await t
      .get(`${P}orderMealCountExport?from=${today}&to=${plus(20)}&group=month`, admin)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    const wb2 = new Workbook();
    await wb2.xlsx.load(cnt.body as ArrayBuffer);
    expect(wb2.worksheets[0].getRow(1).values).toEqual([undefined, '月份', '餐品', '预订', '取消', '已用餐', '未预订用餐']);
    const json = (await t.get(`${P}orderMealCount?from=${today}&to=${plus(20)}&group=month`, admin)).body.data;
    expect(wb2.worksheets[0].lastRow!.getCell(3).value).toBe(json.totals.booked);
  });

  it('exports the booking and serving times on the school’s clock (17:30 UTC is 01:30 the next day in Shanghai)', async () => {
    const [first] = (await t.get(`${P}schoolDinnerOrderList?from=${today}&to=${plus(20)}&limit=1`, admin)).body.data.list as DinnerBooking[];
    const before = (await t.sql.query(`select booked_at, served_at from meal_bookings where id = $1`, [first.id])).rows[0];
    await t.sql.query(`update meal_bookings set booked_at = '2026-11-26T17:30:00Z', served_at = '2026-11-26T18:05:00Z' where id = $1`, [first.id]);
    try {
      const exp = await t
        .get(`${P}schoolDinnerOrderExport?from=${today}&to=${plus(20)}`, admin)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      const wb = new Workbook();
      await wb.xlsx.load(exp.body as ArrayBuffer);
      const row = wb.worksheets[0].getRow(2);
      expect([row.getCell(1).value, row.getCell(10).value, row.getCell(11).value]).toEqual([first.day, '2026-11-27 01:30', '2026-11-27 02:05']);
    } finally {
      await t.sql.query(`update meal_bookings set booked_at = $2, served_at = $3 where id = $1`, [first.id, before.booked_at, before.served_at]);
    }
  });
});
