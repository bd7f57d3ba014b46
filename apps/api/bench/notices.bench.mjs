// Notices benchmark (issue 14: "a notice to a school of 10,000 guardians creates its receipts and queues its SMS
// set-based (≤ 2 s; the SMS jobs added in bulk)"):
//   a. the admin publishes an important notice to the whole school (10,000 extra guardians: 8,000 with one child,
//      2,000 with two, in 50 classes; plus the demo's): POST /api/index/teacherAddInform over HTTP, three times. Each
//      answer covers the recipients resolved, the notice and one receipt per guardian written in one statement, and
//      the texts queued on the BullMQ `sms` queue in one addBulk: `sms.fanout` jobs of 500 mobiles (delayed to 07:00
//      when the bench runs in the school's quiet hours). Target: ≤ 2 s each.
//   (the worker's side, the texts written, batched and handed to a gateway, is apps/api/bench/sms.bench.mjs)
//   b. the receipts of that notice: adminInformInfo (unread first page, with the total) p50/p99 over 50 requests.
//   c. remindInform on a 10,000-unread notice (the unread resolved and queued) and a second one at once (refused).
// Checks: receipts = recipients = the distinct guardians, one per guardian however many children; the fan-out jobs
// carry one mobile per distinct mobile. Runs the built API (dist/main.js) with Redis
// (REDIS_URL, default local) and no worker, so the jobs stay queued to be counted; its own database and queue prefix,
// both removed afterwards (NOTICES_BENCH_KEEP=1 keeps the database). Appends a dated section to BENCHMARKS.md
// (NOTICES_BENCH_NO_WRITE=1 only prints it); exits 1 when a check or the target is missed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { admin, appendSection, benchDatabase, fmt, freePort, machineLoad, pct, seedGuardians, waitFor } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const tag = Date.now().toString(36);
const { dbName, dbUrl } = benchDatabase('wantuo_noticesbench');
const KEEP = process.env.NOTICES_BENCH_KEEP === '1';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `bench:notices:${tag}`;

const GUARDIANS = 10_000;
const TWO_CHILDREN = 2_000;
const CLASSES = 50;
const RUNS = 3;
const TARGET_MS = 2_000;
const INFO_REQUESTS = 50;
const NO_WRITE = process.env.NOTICES_BENCH_NO_WRITE === '1';

/** The fan-out jobs whose key starts with `prefix` (a notice's: `n<id>-`, its reminders': `n<id>-r`): how many, and the mobiles they carry. */
async function fanouts(queue, prefix) {
  const jobs = (await queue.getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j.name === 'sms.fanout' && j.data.key.startsWith(prefix));
  return { jobs, mobiles: jobs.reduce((n, j) => n + j.data.mobiles.length, 0) };
}

async function call(base, token, method, action, body) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/index/${action}${method === 'GET' && body ? `?${new URLSearchParams(body)}` : ''}`, {
    method,
    headers: { 'content-type': 'application/json', token },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());
  return { res, ms: performance.now() - t0 };
}

async function main() {
  if (!existsSync(join(apiDir, 'dist', 'main.js'))) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  const before = machineLoad('notices.bench.mjs');
  await admin(`create database ${dbName}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(apiDir, 'dist', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL,
      QUEUE_PREFIX: PREFIX,
      SEED_DEMO: '1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_FACTOR: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const sql = new pg.Client({ connectionString: dbUrl });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('sms', { connection: redis, prefix: PREFIX });
  const runs = [];
  let info;
  let remind;
  let second;
  let counts;
  try {
    await waitFor(`${base}/api/health`);
    await sql.connect();
    const login = await fetch(`${base}/api/index/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password: 'Demo@2026' }),
    }).then((r) => r.json());
    const token = login.data.userinfo.token;
    const schoolId = login.data.userinfo.school_id;

    await seedGuardians(sql, schoolId, { guardians: GUARDIANS, twoChildren: TWO_CHILDREN, classes: CLASSES });
    const [expected] = (
      await sql.query(
        `select count(distinct g.user_id)::int as guardians, count(distinct u.mobile)::int as mobiles
           from student_guardians g join students s on s.id = g.student_id and s.status = 1 join users u on u.id = g.user_id
          where g.school_id = $1 and u.deleted_at is null`,
        [schoolId],
      )
    ).rows;

    // warm-up (not counted): a notice to one class
    const [klass] = (await sql.query(`select id from care_classes where school_id = $1 order by id limit 1`, [schoolId])).rows;
    await call(base, token, 'POST', 'teacherAddInform', {
      title: '预热',
      content: '<p>预热</p>',
      scope: 'classes',
      class_ids: [klass.id],
      audience: 'guardians',
      request_id: `warm-${tag}`,
    });

    for (let i = 0; i < RUNS; i++) {
      const { res, ms } = await call(base, token, 'POST', 'teacherAddInform', {
        title: `全校重要通知 ${i + 1}`,
        content: '<p>明天下午<b>全校停课</b>，请家长安排接送。</p>',
        scope: 'school',
        audience: 'guardians',
        important: true,
        request_id: `bench-${tag}-${i}`,
      });
      if (res.code !== 200) throw new Error(`publish: ${JSON.stringify(res)}`);
      const f = await fanouts(queue, `n${res.data.id}-`);
      const [r] = (await sql.query(`select count(*)::int as receipts from notice_receipts where notice_id = $1`, [res.data.id])).rows;
      runs.push({
        ms,
        id: res.data.id,
        recipients: res.data.recipients,
        sms: res.data.sms_count,
        held: res.data.held,
        receipts: r.receipts,
        jobs: f.jobs.length,
        mobiles: f.mobiles,
      });
      console.log(
        `a${i + 1}. publish to the school: ${ms.toFixed(0)} ms, ${res.data.recipients} recipients, ${r.receipts} receipts, ${f.jobs.length} sms.fanout jobs for ${f.mobiles} mobiles${res.data.held ? ' (held to 07:00)' : ''}`,
      );
    }

    const times = [];
    for (let i = 0; i < INFO_REQUESTS; i++) {
      const { res, ms } = await call(base, token, 'GET', 'adminInformInfo', { id: runs[0].id, read: 0, page: 1 + (i % 5), limit: 20 });
      if (res.code !== 200) throw new Error(`info: ${JSON.stringify(res)}`);
      times.push(ms);
    }
    times.sort((x, y) => x - y);
    info = { p50: pct(times, 50), p99: pct(times, 99) };
    console.log(`b. adminInformInfo (unread, page of 20): p50 ${info.p50.toFixed(1)} ms, p99 ${info.p99.toFixed(1)} ms`);

    const [r1, r2] = await Promise.all([
      call(base, token, 'POST', 'remindInform', { id: runs[1].id }),
      call(base, token, 'POST', 'remindInform', { id: runs[1].id }),
    ]);
    const ok = [r1, r2].filter((r) => r.res.code === 200);
    remind = ok[0] ?? null;
    second = [r1, r2].find((r) => r.res.code !== 200) ?? null;
    counts = { remindMobiles: (await fanouts(queue, `n${runs[1].id}-r`)).mobiles, remindOk: ok.length };
    console.log(
      `c. remind: ${remind ? `${remind.ms.toFixed(0)} ms, ${remind.res.data.reminded} texts` : 'failed'}; the concurrent second: ${second?.res.msg}; ${counts.remindMobiles} mobiles queued`,
    );
    runs.expected = expected;
  } finally {
    await sql.end().catch(() => {});
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
    const keys = await redis.keys(`${PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    if (KEEP) console.log(`kept database ${dbName}`);
    else await admin(`drop database if exists ${dbName} with (force)`);
  }

  const after = machineLoad('notices.bench.mjs');
  const { expected } = runs;
  const checks = [
    ['a: every publish ≤ 2 s', runs.every((r) => r.ms <= TARGET_MS)],
    ['a: one receipt per distinct guardian', runs.every((r) => r.recipients === expected.guardians && r.receipts === expected.guardians)],
    ['a: one text per distinct mobile in the fan-out jobs', runs.every((r) => r.sms === expected.mobiles && r.mobiles === expected.mobiles)],
    ['c: one remind of two at once, every unread texted', counts.remindOk === 1 && counts.remindMobiles === expected.mobiles],
  ];
  const missed = checks.filter(([, good]) => !good).map(([name]) => name);
  const okText = (good) => (good ? 'ok' : 'MISSED');
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const ms = runs.map((r) => `${r.ms.toFixed(0)} ms`).join(', ');
  const section = [
    '',
    `## API: a notice to a school of ${fmt(GUARDIANS)} guardians (${date})`,
    '',
    `\`npm run bench\` in apps/api (apps/api/bench/notices.bench.mjs): the built API on PostgreSQL (its own database) with Redis, no worker (the jobs stay queued to be counted); ${fmt(GUARDIANS)} extra guardians (${fmt(TWO_CHILDREN)} with two children) of ${fmt(GUARDIANS + TWO_CHILDREN)} students in ${CLASSES} classes, plus the demo school's. Machine: ${machine}. Load average (1/5/15 min) ${before.load} at the start and ${after.load} at the end; ${before.others} other jest/bench processes running at the start, ${after.others} at the end.`,
    '',
    '| measure | result | target |',
    '|---|---|---|',
    `| a. teacherAddInform to the whole school, important (HTTP answer: recipients resolved, notice + receipts in one statement, the texts queued with one addBulk as \`sms.fanout\` jobs of 500 mobiles), ${RUNS} runs | ${ms}; ${fmt(runs[0].recipients)} receipts each (one per guardian: ${fmt(expected.guardians)} distinct), ${runs[0].jobs} fan-out jobs for ${fmt(runs[0].mobiles)} mobiles each${runs[0].held ? ' (delayed to 07:00: the bench ran in the quiet hours)' : ''} | ≤ ${fmt(TARGET_MS)} ms, ${okText(checks[0][1] && checks[1][1] && checks[2][1])} |`,
    `| b. adminInformInfo on that notice (unread receipts, pages 1-5 of 20, with the total), ${INFO_REQUESTS} requests | p50 ${info.p50.toFixed(1)} ms, p99 ${info.p99.toFixed(1)} ms | — |`,
    `| c. remindInform on a notice with ${fmt(expected.guardians)} unread, two at once | ${remind ? `${remind.ms.toFixed(0)} ms, ${fmt(remind.res.data.reminded)} texts queued` : 'failed'}; the other refused (“${second?.res.msg ?? '?'}”) | once, ${okText(checks[3][1])} |`,
    '',
  ].join('\n');
  if (NO_WRITE) console.log(section);
  else appendSection(section);
  if (missed.length) {
    console.error(`missed: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
