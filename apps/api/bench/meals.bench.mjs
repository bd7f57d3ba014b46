// Meals benchmark (issue 12 "Meals and the points shop", item 8): orderMealCount and dinnerBookingCount with 10,000
// students booking dinner every school day (Monday to Friday) of a term (20 weeks back from today), generated with
// generate_series in one school (the demo school: 200 care classes of 50, the demo head teacher heading one of them,
// 5 meal items, 1,000,000 bookings with a mix of cancelled ones and served dinners; the counts kept by meal_counts'
// statement triggers while inserting). Each measure: 500 sequential requests (or as many as 15 s allow, at least 50)
// after 20 of warm-up, p50/p99, target p99 <= 50 ms.
// Runs the built API (dist/main.js, `npm run build` first: `npm run bench` does) on a database of its own created on
// DATABASE_URL's server (default the local postgres) and dropped afterwards (MEALS_BENCH_KEEP=1 keeps it). Appends a
// dated section to BENCHMARKS.md at the repository root; exits 1 when a target is missed.
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendSection, benchDatabase, fmt, machineLoad, pct, startDemoApi } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const root = join(apiDir, '..', '..');
const { dbName, dbUrl } = benchDatabase('wantuo_mealsbench');
const KEEP = process.env.MEALS_BENCH_KEEP === '1';
const STUDENTS = 10_000;
const CLASS_SIZE = 50;
const WEEKS = 20;
const P99_BUDGET_MS = 50;

async function seed(sql) {
  const t0 = performance.now();
  const [{ school_id, adviser, today }] = (
    await sql.query(
      `select s.id as school_id, (select id from users where school_id = s.id and role = 5 and mobile = '13800000005') as adviser,
              to_char((now() at time zone s.timezone)::date, 'YYYY-MM-DD') as today from schools s order by s.id limit 1`,
    )
  ).rows;
  const classes = STUDENTS / CLASS_SIZE;
  await sql.query(
    `insert into care_classes (school_id, name, capacity, head_teacher_id) select $1, '订餐压测班' || g, ${CLASS_SIZE}, case when g = 1 then $2::int end from generate_series(1, $3) g`,
    [school_id, adviser, classes],
  );
  await sql.query(`insert into students (school_id, name, grade, class_name) select $1, '订餐生' || g, 3, '三年级' from generate_series(1, $2) g`, [
    school_id,
    STUDENTS,
  ]);
  await sql.query(
    `insert into care_class_students (school_id, class_id, student_id)
     select $1, c.id, s.id from (select id, row_number() over (order by id) rn from students where school_id = $1 and name like '订餐生%') s
       join (select id, row_number() over (order by id) rn from care_classes where school_id = $1 and name like '订餐压测班%') c on c.rn = (s.rn - 1) / ${CLASS_SIZE} + 1`,
    [school_id],
  );
  await sql.query(`insert into meal_goods (school_id, name, price_fen) select $1, '压测餐品' || g, 1000 + g * 100 from generate_series(1, 5) g`, [
    school_id,
  ]);
  // every school day of the term for every student: item by student and day, 1 in 20 cancelled (half of them by a leave),
  // past days' dinners served (1 in 50 of them without a booking: status none)
  const t1 = performance.now();
  const r = await sql.query(
    `with st as (select id, row_number() over (order by id) rn from students where school_id = $1 and name like '订餐生%'),
          gs as (select array_agg(id order by id) ids from meal_goods where school_id = $1),
          d as (select day::date, (day::date - date '2000-01-01') as n from generate_series($2::date - ${WEEKS * 7 - 1}, $2::date, interval '1 day') day where extract(isodow from day) < 6)
     insert into meal_bookings (school_id, student_id, day, goods_id, price_fen, status, cancel_cause, pay_from, booked_at, served_at)
     select $1, st.id, d.day,
            case when (st.rn + d.n) % 50 = 0 then null else gs.ids[1 + (st.rn + d.n) % 5] end,
            case when (st.rn + d.n) % 50 = 0 then 0 else 1100 end,
            case when (st.rn + d.n) % 50 = 0 then 'none' when (st.rn * 7 + d.n) % 20 = 0 then 'cancelled' else 'booked' end,
            case when (st.rn + d.n) % 50 <> 0 and (st.rn * 7 + d.n) % 20 = 0 then case when st.rn % 2 = 0 then 'leave' else 'user' end end,
            case when (st.rn + d.n) % 50 = 0 then null else 'contract' end,
            case when (st.rn + d.n) % 50 = 0 then null else d.day - 1 end,
            case when d.day < $2::date and ((st.rn + d.n) % 50 = 0 or (st.rn * 7 + d.n) % 20 <> 0) then d.day + interval '17 hours' end
       from st cross join d cross join gs`,
    [school_id, today],
  );
  const insertMs = performance.now() - t1;
  await sql.query('analyze');
  const counts = (await sql.query(`select count(*)::int as rows, sum(booked)::int as booked from meal_counts where school_id = $1`, [school_id]))
    .rows[0];
  return { school_id, today, bookings: r.rowCount, counts, insertMs, seedMs: performance.now() - t0 };
}

async function measure(base, token, label, path) {
  const url = `${base}/api/index/${path}`;
  const probe = await fetch(url, { headers: { token } }).then((r) => r.json());
  if (probe.code !== 200) throw new Error(`${label}: ${JSON.stringify(probe).slice(0, 300)}`);
  for (let i = 0; i < 20; i++) await fetch(url, { headers: { token } }).then((r) => r.json());
  const times = [];
  const until = performance.now() + 15_000;
  while (times.length < 500 && (times.length < 50 || performance.now() < until)) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { token } }).then((r) => r.json());
    times.push(performance.now() - t0);
    if (res.code !== 200) throw new Error(`${label}: ${JSON.stringify(res).slice(0, 300)}`);
  }
  times.sort((a, b) => a - b);
  const p50 = pct(times, 50);
  const p99 = pct(times, 99);
  console.log(`${label}: ${times.length} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  return { label, n: times.length, p50, p99, sample: probe.data };
}

const login = async (base, account) =>
  (
    await fetch(`${base}/api/index/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, password: 'Demo@2026' }),
    }).then((r) => r.json())
  ).data.userinfo.token;

async function main() {
  if (!existsSync(join(apiDir, 'dist', 'main.js'))) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  const before = machineLoad('meals.bench.mjs');
  const api = await startDemoApi({ dbName, dbUrl, keep: KEEP });
  const { base, sql } = api;
  let s;
  const results = [];
  try {
    s = await seed(sql);
    console.log(`seeded ${fmt(s.bookings)} bookings in ${(s.insertMs / 1000).toFixed(1)} s (${fmt(s.counts.rows)} count rows)`);
    const adminToken = await login(base, '13800000001');
    const adviserToken = await login(base, '13800000005');
    const from = new Date(Date.parse(`${s.today}T00:00:00Z`) - (WEEKS * 7 - 1) * 86_400_000).toISOString().slice(0, 10);
    const lastSchoolDay = (await sql.query(`select max(day)::text as d from meal_bookings where day < $1::date`, [s.today])).rows[0].d;
    results.push(await measure(base, adminToken, 'orderMealCount, the term by day', `orderMealCount?from=${from}&to=${s.today}&group=day`));
    results.push(await measure(base, adminToken, 'orderMealCount, the term by week', `orderMealCount?from=${from}&to=${s.today}&group=week`));
    results.push(await measure(base, adminToken, 'orderMealCount, the term by month', `orderMealCount?from=${from}&to=${s.today}&group=month`));
    results.push(
      await measure(base, adminToken, 'orderMealCount, one day (the kitchen)', `orderMealCount?from=${lastSchoolDay}&to=${lastSchoolDay}`),
    );
    results.push(
      await measure(base, adviserToken, 'dinnerBookingCount, the head teacher’s class of 50, one day', `dinnerBookingCount?day=${lastSchoolDay}`),
    );
    results.push(
      await measure(
        base,
        adviserToken,
        'dinnerBookingCountInfo, the class, one day, a page of 50',
        `dinnerBookingCountInfo?day=${lastSchoolDay}&limit=50`,
      ),
    );
    const check = results[0].sample.totals;
    console.log('term totals', check);
  } finally {
    await api.stop();
  }
  const after = machineLoad('meals.bench.mjs');
  const missed = results.filter((r) => r.p99 > P99_BUDGET_MS).map((r) => r.label);
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const totals = results[0].sample.totals;
  const section = [
    '',
    `## API: meals counts (${date})`,
    '',
    `\`npm run bench\` in apps/api (apps/api/bench/meals.bench.mjs): the built API on PostgreSQL, its own database. Machine: ${machine}. Load average (1/5/15 min) ${before.load} at the start and ${after.load} at the end; ${before.others} other jest/bench processes running at the start, ${after.others} at the end.`,
    `Data: ${fmt(STUDENTS)} students in ${STUDENTS / CLASS_SIZE} classes booking every school day of ${WEEKS} weeks: ${fmt(s.bookings)} bookings (term totals: ${fmt(totals.booked)} booked, ${fmt(totals.cancelled)} cancelled, ${fmt(totals.served)} served, ${fmt(totals.unbooked_served)} unbooked served), inserted in one statement in ${(s.insertMs / 1000).toFixed(1)} s with the count triggers (${fmt(s.counts.rows)} meal_counts rows).`,
    '',
    '| measure | result | target |',
    '|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.label}, ${r.n} sequential requests | p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms | p99 <= 50 ms, ${r.p99 <= P99_BUDGET_MS ? 'ok' : 'MISSED'} |`,
    ),
    '',
  ].join('\n');
  appendSection(section);
  if (missed.length) {
    console.error(`missed: ${missed.join(', ')}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
