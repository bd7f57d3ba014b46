import { addDays, Code, localDay } from '@wantuo/shared';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startTestApp, type TestApp } from '../../test/harness';
import { rebuildCounts } from '../modules/contracts/contract-counts';
import { seedShowcase, type ShowcaseResult } from './demo-showcase';

let t: TestApp;
let first: ShowcaseResult | null;
let before: Record<string, number>;
const tokens: Record<string, string> = {};

/** Every table's row count, and the versions and balances that a write would move. */
async function rowCounts(sql: Client): Promise<Record<string, number>> {
  const { rows: tables } = await sql.query(
    `select tablename from pg_tables where schemaname = 'public' and tablename <> 'migrations' order by tablename`,
  );
  const { rows } = await sql.query(
    `select ${tables.map((r) => `(select count(*) from "${r.tablename}")::int as "${r.tablename}"`).join(', ')},
            (select sum(balance_fen)::float8 from schools) as balances, (select sum(version)::int from class_sessions) as session_versions,
            (select sum(stock)::int from store_goods) as store_stock, (select sum(balance)::int from points_accounts) as points`,
  );
  return rows[0];
}

beforeAll(async () => {
  t = await startTestApp({ runJobs: false, demoPeople: true, demoHistory: true });
  const started = Date.now();
  first = await seedShowcase(t.app.get(DataSource), t.config.uploadDir);
  // eslint-disable-next-line no-console
  console.log(`showcase seeded in ${Date.now() - started} ms`, first);
  for (const u of ['admin', 'teacher', 'adviser', 'parent', 'operator'] as const) tokens[u] = await t.login(u);
  before = await rowCounts(t.sql);
}, 60_000);
afterAll(() => t.close());

const get = async (path: string, who: string) => {
  const res = await t.get(`/api/index/${path}`, tokens[who]);
  expect({ path, code: res.body.code, msg: res.body.msg }).toEqual({ path, code: Code.Ok, msg: expect.anything() });
  return res.body.data;
};

it('seeds every module once; a second run adds nothing', async () => {
  expect(first).toMatchObject({ exams: 3, notices: 5, store_orders: 3, points_orders: 5, coursewares_owned: 2, lesson_plans: 3, rooms: 4 });
  expect(first!.sessions).toBeGreaterThan(50);
  expect(first!.roll_calls).toBeGreaterThan(50);
  expect(first!.meal_bookings).toBeGreaterThan(50);
  expect(await seedShowcase(t.app.get(DataSource), t.config.uploadDir)).toBeNull();
  expect(await rowCounts(t.sql)).toEqual(before);
});

it('the parent sees dinners, scores, notices, homework, points and teaching classes of the children', async () => {
  const kids: Array<{ student_id: number }> = (
    await t.sql.query(`select student_id from student_guardians where user_id = $1 order by student_id`, [t.demo.users.parent])
  ).rows;
  expect(kids).toHaveLength(2);
  const today = localDay(new Date(), 'Asia/Shanghai');
  for (const { student_id } of kids) {
    const meals = await get(`parentMeals?student_id=${student_id}&from=${addDays(today, -7)}&to=${addDays(today, 7)}`, 'parent');
    expect(meals.goods.length).toBeGreaterThan(0);
    expect(meals.bookings.length).toBeGreaterThan(4);
    expect((await get(`parentExamScores?student_id=${student_id}`, 'parent')).list.length).toBeGreaterThanOrEqual(2);
    expect((await get(`studentTeachingClassList?student_id=${student_id}`, 'parent')).list.length).toBeGreaterThan(0);
  }
  // served dinners in the past, coming ones booked, and the unpaid one waiting for the parent
  const all: Array<{ status: string; served_at: string | null; day: string }> = [];
  for (const { student_id } of kids)
    all.push(...(await get(`parentMeals?student_id=${student_id}&from=${addDays(today, -7)}&to=${addDays(today, 7)}`, 'parent')).bookings);
  expect(all.some((b) => b.served_at && b.day < today)).toBe(true);
  expect(all.some((b) => b.day > today && b.status !== 'cancelled')).toBe(true);
  const scores = (await get(`parentExamScores?student_id=${kids[0].student_id}`, 'parent')).list;
  expect(scores[0]).toMatchObject({ class_rank: expect.any(Number), class_average: expect.any(Number) });
  const notices = await get('parentInformList', 'parent');
  expect(notices.total).toBeGreaterThanOrEqual(3);
  expect(notices.unread).toBeGreaterThanOrEqual(1);
  expect(notices.unread).toBeLessThan(notices.total);
  const homework = await get(
    `wantuoStudentHomeWork?student_id=${kids[0].student_id}&day=${addDays(today, -1) < today ? addDays(today, -1) : today}`,
    'parent',
  );
  expect(JSON.stringify(homework)).not.toBe('[]');
  expect((await get('pointsShop', 'parent')).list.length).toBe(5);
  expect((await get('scoreOrderList', 'parent')).list.length).toBeGreaterThan(0);
  expect((await get(`studentPoints?student_id=${kids[0].student_id}`, 'parent')).balance).toBeGreaterThan(0);
});

it('the admin sees meals, the timetable, exams, notices, homework, points, mall orders, courseware and plans', async () => {
  expect((await get('mealGoodsList', 'admin')).list.length).toBe(5);
  const week = await get('schoolTeachingSchedule', 'admin');
  expect(week.rooms.length).toBe(4);
  expect(week.sessions).toBeGreaterThanOrEqual(5);
  expect((await get('teachingClassList', 'admin')).list).toHaveLength(2);
  expect((await get('tutorialList', 'admin')).list).toHaveLength(1);
  const exams = await get('studentExamList', 'admin');
  expect(exams.list.length).toBe(3);
  const published = exams.list.find((e: { published_at: string | null }) => e.published_at);
  const scores = await get(`examScore?exam_id=${published.id}`, 'admin');
  expect(scores.list.map((s: { class_rank: number }) => s.class_rank)).toContain(1);
  expect(scores.stats.highest - scores.stats.lowest).toBeGreaterThan(15);
  expect((await get('adminInformList', 'admin')).list.length).toBe(5);
  expect((await get('classHomeWorks', 'admin')).list.length).toBeGreaterThan(3);
  expect((await get('scoreGoodsList', 'admin')).list.length).toBe(5);
  expect((await get('scoreOrderList', 'admin')).list.length).toBe(5);
  const orders = await get('goodsOrderList', 'admin');
  expect(orders.list.map((o: { state: string }) => o.state).sort()).toEqual(['done', 'paid', 'shipped']);
  expect((await get('coursewareCenter?owned=1', 'admin')).list.length).toBe(2);
  expect((await get('schoolCoursewareList', 'admin')).list.length).toBe(2);
  expect((await get('prepareLessonsList', 'admin')).list.length).toBe(3);
  // the ledger and balance agree: a top-up, then five payments from it
  const { rows } = await t.sql.query(
    `select s.balance_fen::int as balance, (select sum(amount_fen)::int from ledger_entries where school_id = s.id) as ledger,
            (select count(*)::int from ledger_entries where school_id = s.id) as entries from schools s where s.id = $1`,
    [t.demo.schoolId],
  );
  expect(rows[0]).toMatchObject({ balance: rows[0].ledger, entries: 6 });
  expect(rows[0].balance).toBeGreaterThan(0);
  expect((await rebuildCounts(t.app.get(DataSource), { schoolId: t.demo.schoolId })).corrected).toBe(0);
});

it('teachers see their sessions, roll calls, homework and lesson plans; the operator the mall orders', async () => {
  const mine = await get('teacherSchedule', 'teacher');
  expect(mine.days.some((d: { sessions: unknown[] }) => d.sessions.length > 0)).toBe(true);
  const { rows } = await t.sql.query(
    `select s.id from class_sessions s join teaching_classes c on c.id = s.class_id where s.kind = 'teaching' and s.state = 'held' and c.teacher_id = $1 order by s.day desc limit 1`,
    [t.demo.users.teacher],
  );
  const roll = await get(`rollCall?session_id=${rows[0].id}`, 'teacher');
  expect(roll.students.length).toBe(6);
  expect(roll.students.every((s: { status: string | null }) => s.status)).toBe(true);
  expect((await get('classHomeWorks', 'teacher')).list.length).toBeGreaterThan(0);
  expect((await get('prepareLessonsList', 'teacher')).list.length).toBe(2);
  expect((await get('storeOrderList', 'operator')).list.length).toBe(3);
  // the points ledger replays to the balances, the stock moves to the stock
  const check = await t.sql.query(
    `select (select count(*)::int from points_accounts a where a.balance <> (select coalesce(sum(delta), 0) from points_ledger l where l.student_id = a.student_id)) as bad_points,
            (select count(*)::int from points_goods g where g.stock <> (select sum(delta) from points_stock_moves m where m.goods_id = g.id)) as bad_stock,
            (select count(*)::int from meal_counts k where k.booked <> (select count(*) from meal_bookings b where b.school_id = k.school_id and b.day = k.day and b.goods_id = k.goods_id and b.status = 'booked')) as bad_counts`,
  );
  expect(check.rows[0]).toEqual({ bad_points: 0, bad_stock: 0, bad_counts: 0 });
});
