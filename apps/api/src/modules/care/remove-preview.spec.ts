import { Code } from '@wantuo/shared';
import { snapshot, startTestApp, type TestApp } from '../../../test/harness';
import { SCHOOL_TODAY } from '../../core/database/sql-kit';

/**
 * GET delWantuoStudent (issue 21): the preview of removing a student from a care class lists what stays with the
 * student and the admin should know about: the open contracts and the dinner bookings from the school's today on.
 */

let t: TestApp;
let admin: string;
let teacher: string;
let adviser: string;
let other: { schoolId: number; adminToken: string };
beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true });
  [admin, teacher, adviser] = await Promise.all([t.login('admin'), t.login('teacher'), t.login('adviser')]);
  other = await t.otherSchool();
});
afterAll(() => t.close());

const PREVIEW = '/api/index/delWantuoStudent';

async function studentInClass(name: string, mobile: string): Promise<number> {
  const res = await t.post('/api/index/addStudent', admin).send({ name, guardians: [{ name: '钱妈妈', mobile, relation: '母亲' }] });
  expect(res.body.code).toBe(Code.Ok);
  await t.sql.query(`insert into care_class_students (school_id, class_id, student_id) values ($1, $2, $3)`, [
    t.demo.schoolId,
    t.demo.classes!.running,
    res.body.data.id,
  ]);
  return res.body.data.id;
}

it('lists the open contracts and the dinner bookings from today on, writes nothing', async () => {
  const s = await studentInClass('钱小多', '13511110001');
  const school = t.demo.schoolId;
  const { rows: pkg } = await t.sql.query(
    `insert into contract_packages (school_id, name, kind, length, valid_months, price_fen) values ($1, '二十次卡（预览）', 'sessions', 20, 6, 160000) returning id`,
    [school],
  );
  // an open sessions contract (15 of 20 left), an ended one, a cancelled one
  await t.sql.query(
    `with d as ${SCHOOL_TODAY}
     insert into contracts (school_id, no, student_id, package_id, kind, start_day, end_day, units_total, units_used, list_price_fen, price_fen, status, cancelled_at)
     select $1::int, 'PV' || $2::text || 'a', $2::int, $3::int, 'sessions', d.today - 5, d.today + 120, 20, 5, 160000, 160000, 'active', null::timestamptz from d
     union all select $1::int, 'PV' || $2::text || 'b', $2::int, $3::int, 'sessions', d.today - 200, d.today - 20, 20, 20, 160000, 160000, 'active', null from d
     union all select $1::int, 'PV' || $2::text || 'c', $2::int, $3::int, 'sessions', d.today - 10, d.today + 100, 20, 0, 160000, 160000, 'cancelled', now() from d`,
    [school, s, pkg[0].id],
  );
  const { rows: goods } = await t.sql.query(`insert into meal_goods (school_id, name, price_fen) values ($1, '番茄牛腩饭', 1500) returning id`, [
    school,
  ]);
  // booked tomorrow and in 3 days (unpaid), booked yesterday, cancelled tomorrow+1
  await t.sql.query(
    `with d as ${SCHOOL_TODAY}
     insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, pay_from, cancel_cause)
     select $1::int, $2::int, d.today + 1, $3::int, 1500, 'booked', 'school', null from d
     union all select $1::int, $2::int, d.today + 3, $3::int, 1500, 'unpaid', null, null from d
     union all select $1::int, $2::int, d.today - 1, $3::int, 1500, 'booked', 'school', null from d
     union all select $1::int, $2::int, d.today + 2, $3::int, 1500, 'cancelled', null, 'user' from d`,
    [school, s, goods[0].id],
  );

  const before = await snapshot(t.sql);
  const res = await t.get(PREVIEW, admin).query({ class_id: t.demo.classes!.running, student_id: s });
  expect(res.body.code).toBe(Code.Ok);
  const d = res.body.data;
  expect(d).toMatchObject({ student_id: s, student_name: '钱小多', duties: [] });
  expect(d.contracts).toEqual([
    {
      id: expect.any(Number),
      no: `PV${s}a`,
      package_name: '二十次卡（预览）',
      kind: 'sessions',
      state: 'active',
      start_day: expect.any(String),
      end_day: expect.any(String),
      units_total: 20,
      units_left: 15,
      days_left: null,
    },
  ]);
  expect(d.meal_bookings.map((b: Record<string, unknown>) => [b.goods_name, b.status, b.price_fen, b.pay_from])).toEqual([
    ['番茄牛腩饭', 'booked', 1500, 'school'],
    ['番茄牛腩饭', 'unpaid', 1500, null],
  ]);
  expect(d.meal_bookings[0].day < d.meal_bookings[1].day).toBe(true);
  expect(await snapshot(t.sql)).toEqual(before);
});

it('a student with nothing open has empty lists', async () => {
  const s = await studentInClass('钱小少', '13511110002');
  const res = await t.get(PREVIEW, admin).query({ class_id: t.demo.classes!.running, student_id: s });
  expect(res.body).toMatchObject({ code: Code.Ok, data: { contracts: [], meal_bookings: [] } });
});

it('bad input, a wrong role and another school answer code 100', async () => {
  const s = await studentInClass('钱小空', '13511110003');
  for (const q of [{}, { class_id: '0', student_id: String(s) }, { class_id: 'x', student_id: '1' }, { class_id: String(t.demo.classes!.running) }]) {
    const res = await t.get(PREVIEW, admin).query(q);
    expect({ q, code: res.body.code }).toEqual({ q, code: Code.Error });
  }
  for (const token of [teacher, adviser]) {
    const res = await t.get(PREVIEW, token).query({ class_id: t.demo.classes!.running, student_id: s });
    expect(res.body).toMatchObject({ code: Code.Error, msg: '当前账号没有权限执行此操作' });
  }
  const res = await t.get(PREVIEW, other.adminToken).query({ class_id: t.demo.classes!.running, student_id: s });
  expect(res.body.code).toBe(Code.Error);
  expect(JSON.stringify(res.body)).not.toContain('钱小空');
});
