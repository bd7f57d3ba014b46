// Texts benchmark (issue 23: "the bench of a notice to 10,000 guardians reports texts handed to the gateway per
// second"). For each provider (aliyun and tencent through their SDKs against the local fakes, and the outbox as the
// baseline): the built API (dist/main.js, which serves the fakes) and one worker process (dist/worker.js, BullMQ,
// concurrency 5) on a database of their own with Redis; a school of 10,000 extra guardians (2,000 with two children);
// the admin publishes an important notice to the whole school (held fan-out jobs are promoted when the bench runs in
// the school's quiet hours); then, from the publish's answer:
//   handed: every text accepted by the provider (sms_messages sent or delivered) — texts handed to the gateway / s;
//   delivered: every text delivered by the provider's report callback (the fakes report 100 ms after a send).
// Checks: one message per distinct mobile, every one delivered, none failed or sent twice (the fake accepted each
// mobile once), the provider's requests (aliyun: distinct BizIds) no more than the batches (100 / 200 mobiles).
// Appends a dated section to BENCHMARKS.md (SMS_BENCH_NO_WRITE=1 only prints it); exits 1 when a check is missed.
import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { appendSection, benchDatabase, fmt, machineLoad, seedGuardians, startDemoApi, waitFor } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GUARDIANS = Number(process.env.SMS_BENCH_GUARDIANS ?? 10_000);
const TWO_CHILDREN = Math.round(GUARDIANS / 5);
const CLASSES = 50;
const PROVIDERS = (process.env.SMS_BENCH_PROVIDERS ?? 'aliyun,tencent,outbox').split(',');
const NO_WRITE = process.env.SMS_BENCH_NO_WRITE === '1';
const TIMEOUT_MS = 300_000;

/** Counts of the notice's texts by state, and the provider requests they went in. */
async function counts(sql, kind) {
  const { rows } = await sql.query(
    `select count(*)::int as total,
            count(*) filter (where state in ('sent', 'delivered'))::int as handed,
            count(*) filter (where state = 'delivered')::int as delivered,
            count(*) filter (where state = 'failed')::int as failed,
            count(distinct mobile)::int as mobiles,
            count(distinct provider_message_id)::int as ids,
            coalesce(sum(units), 0)::int as units,
            max(tries)::int as tries
       from sms_messages where kind = $1`,
    [kind],
  );
  return rows[0];
}

async function runProvider(provider) {
  const tag = `${provider}-${Date.now().toString(36)}`;
  const { dbName, dbUrl } = benchDatabase(`wantuo_smsbench_${provider}`);
  const prefix = `bench:sms:${tag}`;
  const env = { SMS_PROVIDER: provider, QUEUE_PREFIX: prefix };
  const api = await startDemoApi({ dbName, dbUrl, redis: REDIS_URL, env, keep: process.env.SMS_BENCH_KEEP === '1' });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('sms', { connection: redis, prefix });
  const worker = spawn(process.execPath, [join(apiDir, 'dist', 'worker.js')], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: dbUrl,
      REDIS_URL,
      LOG_LEVEL: 'warn',
      // the worker has no HTTP server: it reaches the API's fakes (the provider's endpoint) by address
      SMS_ALIYUN_ENDPOINT: `${api.base}/api/dev/sms/aliyun`,
      SMS_TENCENT_ENDPOINT: `${api.base}/api/dev/sms/tencent`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    // the worker is up when its heartbeat makes the API ready
    await waitFor(`${api.base}/api/health/ready`, 60_000);
    const admin = await api.login('admin');
    await seedGuardians(api.sql, admin.school_id, { guardians: GUARDIANS, twoChildren: TWO_CHILDREN, classes: CLASSES });
    const {
      rows: [expected],
    } = await api.sql.query(
      `select count(distinct u.mobile)::int as mobiles from student_guardians g join students s on s.id = g.student_id and s.status = 1
         join users u on u.id = g.user_id where g.school_id = $1 and u.deleted_at is null and u.mobile is not null`,
      [admin.school_id],
    );
    const t0 = performance.now();
    const res = await fetch(`${api.base}/api/index/teacherAddInform`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin.token },
      body: JSON.stringify({
        title: '全校重要通知：明天下午全校停课，请家长安排接送',
        content: '<p>明天下午<b>全校停课</b>。</p>',
        scope: 'school',
        audience: 'guardians',
        important: true,
        request_id: `sms-bench-${tag}`,
      }),
    }).then((r) => r.json());
    if (res.code !== 200) throw new Error(`publish: ${JSON.stringify(res)}`);
    const answered = performance.now() - t0;
    let held = false;
    if (res.data.held) {
      // the quiet hours hold a notice's texts to 07:00: the bench sends them now
      held = true;
      for (const j of await queue.getJobs(['delayed'])) if (j.name === 'sms.fanout') await j.promote();
    }
    let handedMs = null;
    let deliveredMs = null;
    let last;
    while (performance.now() - t0 < TIMEOUT_MS) {
      last = await counts(api.sql, 'notice.important');
      if (handedMs === null && last.handed + last.failed >= expected.mobiles && last.total >= expected.mobiles) handedMs = performance.now() - t0;
      if (last.delivered + last.failed >= expected.mobiles && last.total >= expected.mobiles) {
        deliveredMs = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const fake = provider === 'outbox' ? null : await fetch(`${api.base}/api/dev/sms/${provider}/messages?mobile=15000000001`).then((r) => r.json());
    const result = { provider, expected: expected.mobiles, answered, held, handedMs, deliveredMs, ...last, fakeOfOne: fake };
    console.log(
      `${provider}: ${fmt(last.total)} texts; handed in ${handedMs?.toFixed(0)} ms (${handedMs ? fmt(Math.round((expected.mobiles * 1000) / handedMs)) : '?'}/s), delivered in ${deliveredMs?.toFixed(0)} ms; ${last.ids} provider ids, ${last.failed} failed, max tries ${last.tries}`,
    );
    return result;
  } finally {
    if (worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
    }
    await api.stop();
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
}

async function main() {
  const before = machineLoad('sms.bench.mjs');
  const results = [];
  for (const p of PROVIDERS) results.push(await runProvider(p));
  const after = machineLoad('sms.bench.mjs');
  const batch = { aliyun: 100, tencent: 200, outbox: 1000 };
  const checks = results.flatMap((r) => [
    [`${r.provider}: one text per distinct mobile`, r.total === r.expected && r.mobiles === r.expected],
    [`${r.provider}: every text delivered by its report, none failed`, r.deliveredMs !== null && r.delivered === r.expected && r.failed === 0],
    // a fan-out job of 500 mobiles makes ceil(500 / batch) requests
    [
      `${r.provider}: sent in the provider's batches`,
      r.provider !== 'aliyun' || r.ids <= Math.ceil(r.expected / 500) * Math.ceil(500 / batch.aliyun),
    ],
    [`${r.provider}: the fake accepted a mobile once`, !r.fakeOfOne || (Array.isArray(r.fakeOfOne) ? r.fakeOfOne : r.fakeOfOne.data).length === 1],
  ]);
  const missed = checks.filter(([, good]) => !good).map(([name]) => name);
  // the section's date: China's (the schools'), not the UTC date
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const rate = (n, ms) => (ms ? fmt(Math.round((n * 1000) / ms)) : '—');
  const section = [
    '',
    `## API: texts of a notice to ${fmt(GUARDIANS)} guardians through each gateway (${date})`,
    '',
    `\`npm run bench\` in apps/api (apps/api/bench/sms.bench.mjs): the built API (serving the local fakes of Aliyun and Tencent) and one worker process (BullMQ, concurrency 5) with Redis, a database each; an important notice to a school of ${fmt(GUARDIANS)} extra guardians (${fmt(TWO_CHILDREN)} with two children), timed from the publish's answer until every text is handed over (accepted by the provider) and delivered (its report applied). The SDKs are the real ones (ACS3-HMAC-SHA256 / TC3-HMAC-SHA256 signed, the fakes verify each request). Machine: ${machine}. Load average (1/5/15 min) ${before.load} at the start and ${after.load} at the end; ${before.others} other jest/bench processes running at the start, ${after.others} at the end.${results.some((r) => r.held) ? ' The bench ran in the quiet hours: the held fan-out jobs were promoted.' : ''}`,
    '',
    '| provider | texts | publish answer | handed to the gateway | texts handed / s | all delivered (report) | delivered / s | provider requests | units |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.provider} | ${fmt(r.total)} | ${r.answered.toFixed(0)} ms | ${r.handedMs?.toFixed(0) ?? '—'} ms | ${rate(r.expected, r.handedMs)} | ${r.deliveredMs?.toFixed(0) ?? '—'} ms | ${rate(r.expected, r.deliveredMs)} | ${r.provider === 'aliyun' ? fmt(r.ids) : r.provider === 'tencent' ? `≈ ${fmt(Math.ceil(r.expected / 200))} (200 a request)` : '—'} | ${fmt(r.units)} |`,
    ),
    '',
    `Checks: ${checks.map(([n, g]) => `${n}: ${g ? 'ok' : 'MISSED'}`).join('; ')}.`,
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
