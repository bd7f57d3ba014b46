// Daily-flow benchmark (issue "Daily flow", Done when):
//   a. flow events per second through the HTTP API at 32 concurrent clients, each taking students through entering,
//      dinner, tutoring start and end: once with a class's selection of 30 students per request (how the teacher's
//      phone sends them) and once with one student per request; next to pgbench inserting one similar row per
//      transaction into a similar table of the same database on the same machine (target: API >= 40% of pgbench);
//   b. commit-to-client latency p50/p99 with 500 connected board sockets at 100 events/s for 20 s, once on one API
//      process with the in-memory socket.io adapter and once on two API processes joined by the Redis adapter, the
//      sockets split between them and the commands sent to one (target p99 <= 50 ms). The 500 boards are played by
//      a minimal socket.io client on ws (engine.io v4 handshake, auth, pings, event frames) in worker threads, so
//      the bench's own work per message stays small on a machine it shares with the API;
//   c. rebuild of the student_days projection from 1,000,000 events (`node dist/cli.js flow:rebuild`), events/s.
// Runs the built API (dist/main.js, `npm run build` first: `npm run bench` does) on a database of its own, created on
// DATABASE_URL's server (default the local postgres) and dropped afterwards; with Redis (REDIS_URL or the local one)
// under a QUEUE_PREFIX of its own, whose keys are removed afterwards. Only loopback traffic; every loop is bounded in
// count and time. Appends a dated section with the machine to BENCHMARKS.md at the repository root.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Redis } from 'ioredis';
import pg from 'pg';
import { admin, ADMIN_URL, cpuOf, freePort, machineCpu, waitFor } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const root = join(apiDir, '..', '..');
/** the built API: dist/, or the directory of BENCH_API_MAIN (a copy of a build, so that a rebuild meanwhile changes nothing) */
const API_MAIN = process.env.BENCH_API_MAIN ?? join(apiDir, 'dist', 'main.js');
const API_CLI = join(dirname(API_MAIN), 'cli.js');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const tag = Date.now().toString(36);
const dbName = `wantuo_flowbench_${tag}`;
const queuePrefix = `flowbench_${tag}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

/** the API's connection pool (DATABASE_POOL_MAX): above the default 10, so 32 concurrent requests are not queued on 10 */
const POOL_MAX = 20;
const CLIENTS = 32;
const WARMUP_S = 3;
const MEASURE_S = 15;
const SOCKETS = 500;
const SOCKET_WORKERS = 4;
const RATE = 100;
/** the board sockets' process runs at this niceness, so the bench's own clients yield the CPU to the API and Postgres */
const NICE = 10;
/** boards without batches (one flow.event per event): every event delivered, p99 at most this */
const PLAIN_TARGET_MS = 250;
const LIVE_S = 20;
/** part b runs this many times (every run must meet the target), reported run by run with the median */
const RUNS_B = 3;
const LATENCY_TARGET_MS = 50;
const LIVE_WARMUP_S = 2;
/** students per request in the batch run: a class's selection on the teacher's phone */
const BATCH = 30;
/** the steps each client takes its students through, in order (each a flow event per student) */
const CYCLE = ['studentEnter', 'teacherStudentDinner', 'teacherStudentStartTutor', 'teacherStudentEndTutor'];
const STUDENTS = 100_000;
const CLASSES = 200; // capacity is at most 500 per class
const REBUILD_STUDENTS = 50_000;
const REBUILD_DAYS = 4;
const REBUILD_STEPS = 5; // 50,000 students x 4 days x 5 steps = 1,000,000 events
/** parts to run (FLOW_BENCH_PARTS=a,b,c); BENCHMARKS.md is written only when all run. FLOW_BENCH_KEEP=1 keeps the database. (FLOW_BENCH_PROFILE: see startApi) */
const PARTS = new Set((process.env.FLOW_BENCH_PARTS ?? 'a,b,c').split(',').map((x) => x.trim()));

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
/** 'a / b / c, median m' of a figure of each run */
const runsOf = (list, f, digits = 1) => `${list.map((l) => f(l).toFixed(digits)).join(' / ')}, median ${median(list.map(f)).toFixed(digits)}`;
/** the run whose commit-to-client p99 is the median one */
const medianRun = (list) => [...list].sort((x, y) => x.at.p99 - y.at.p99)[Math.floor((list.length - 1) / 2)];

// ---------------------------------------------------------------------------------------------------------------
// socket worker: opens its share of the board sockets, records when each event arrived. A board socket speaks the
// socket.io protocol over a websocket: engine.io open packet '0…' -> namespace connect '40{auth}' -> '40…' (or '44…'
// refused); ping '2' -> pong '3'; events '42["flow.events",[…]]' (batch: true, as the web boards ask) or
// '42["flow.event",{…}]' (batch: false, as clients that do not ask for batches). The websocket itself is read straight
// off the TCP socket (the handshake, then unmasked unfragmented frames from the server; its own frames masked), so the
// bench's work per message is the system call and the parse of the message, on the same cores as the API.
if (isMainThread && process.env.FLOW_BENCH_SOCKET_HOST) {
  // the socket host: a child process of the bench, started under `nice -n ${NICE}` (worker threads share their
  // process's priority), holding the board sockets' worker threads; relays their messages to the bench over IPC
  const specs = JSON.parse(process.env.FLOW_BENCH_SOCKET_HOST);
  const workers = specs.map((data) => new Worker(fileURLToPath(import.meta.url), { workerData: data }));
  workers.forEach((w, i) => {
    w.on('message', (m) => process.send({ i, m }));
    w.on('error', (err) => process.send({ i, m: { type: 'error', message: String(err?.stack ?? err) } }));
  });
  // the bench ends this process once it has every worker's answer (exiting earlier could drop a message being sent)
  process.on('message', ({ i, m }) => workers[i].postMessage(m));
  process.on('disconnect', () => process.exit(0));
} else if (!isMainThread) {
  const { urls, count, token, batch, seconds } = workerData;
  const sockets = [];
  const recv = []; // [student_id, at (ms), received (ms)] flattened
  let messages = 0; // flow.event / flow.events messages received
  let connected = 0;
  let failed = 0;
  const settled = () => {
    if (connected + failed === count) parentPort.postMessage({ type: 'ready', connected, failed });
  };
  /** a masked text frame (client to server), for the few short packets a board sends */
  const textFrame = (text) => {
    const payload = Buffer.from(text);
    const n = payload.length;
    const head = n < 126 ? 2 : 4;
    const frame = Buffer.allocUnsafe(head + 4 + n);
    frame[0] = 0x81;
    if (n < 126) frame[1] = 0x80 | n;
    else {
      frame[1] = 0x80 | 126;
      frame.writeUInt16BE(n, 2);
    }
    const mask = randomBytes(4);
    mask.copy(frame, head);
    for (let i = 0; i < n; i++) frame[head + 4 + i] = payload[i] ^ mask[i & 3];
    return frame;
  };
  for (let i = 0; i < count; i++) {
    const url = new URL(urls[i % urls.length]);
    const tcp = connectTcp({ host: url.hostname, port: Number(url.port) });
    tcp.setNoDelay(true);
    let state = 'opening';
    let upgraded = false;
    let buf = Buffer.alloc(0);
    const fail = () => {
      if (state !== 'opening') return;
      state = 'failed';
      failed++;
      settled();
    };
    const onText = (m) => {
      if (m.startsWith('42')) {
        const t = now();
        messages++;
        const [name, e] = JSON.parse(m.slice(2));
        if (name === 'flow.event') recv.push(e.student_id, Date.parse(e.at), t);
        else if (name === 'flow.events') for (const x of e) recv.push(x.student_id, Date.parse(x.at), t);
      } else if (m === '2') tcp.write(textFrame('3'));
      else if (m[0] === '0') tcp.write(textFrame(`40${JSON.stringify({ token, batch })}`));
      else if (m.startsWith('40') && state === 'opening') {
        state = 'open';
        connected++;
        settled();
      } else if (m.startsWith('44') && state === 'opening') {
        state = 'refused';
        failed++;
        settled();
      }
    };
    tcp.on('connect', () => {
      tcp.write(
        `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    tcp.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buf.subarray(0, 12).toString().includes(' 101')) return fail();
        upgraded = true;
        buf = buf.subarray(end + 4);
      }
      while (buf.length >= 2) {
        let n = buf[1] & 0x7f;
        let head = 2;
        if (n === 126) {
          if (buf.length < 4) break;
          n = buf.readUInt16BE(2);
          head = 4;
        } else if (n === 127) {
          if (buf.length < 10) break;
          n = Number(buf.readBigUInt64BE(2));
          head = 10;
        }
        if (buf.length < head + n) break;
        const opcode = buf[0] & 0x0f;
        if (opcode === 1) onText(buf.toString('utf8', head, head + n));
        else if (opcode === 8) tcp.end();
        buf = buf.subarray(head + n);
      }
    });
    tcp.on('error', fail);
    sockets.push(tcp);
  }
  const deadline = setTimeout(() => process.exit(2), seconds * 1000).unref();
  parentPort.on('message', (m) => {
    if (m === 'reset') {
      recv.length = 0;
      messages = 0;
    }
    if (m === 'collect') {
      const out = Float64Array.from(recv);
      for (const tcp of sockets) tcp.destroy();
      clearTimeout(deadline);
      parentPort.postMessage({ type: 'done', recv: out, messages }, [out.buffer]);
      setTimeout(() => process.exit(0), 200);
    }
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** a CPU meter over the given processes (API pids, Postgres backends of the bench database) and the machine */
async function cpuMeter(sql, apiPids) {
  const { rows } = await sql.query(`select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [dbName]);
  const pgPids = rows.map((r) => r.pid);
  const t0 = now();
  const api0 = apiPids.map(cpuOf);
  const pg0 = pgPids.map(cpuOf);
  const m0 = machineCpu();
  const self0 = process.cpuUsage();
  return () => {
    const s = (now() - t0) / 1000;
    const m1 = machineCpu();
    const self = process.cpuUsage(self0);
    return {
      seconds: s,
      api: apiPids.map((p, i) => (cpuOf(p) - api0[i]) / s),
      postgres: pgPids.reduce((a, p, i) => a + Math.max(0, cpuOf(p) - pg0[i]), 0) / s,
      bench: (self.user + self.system) / 1e6 / s,
      machine: ((m1.busy - m0.busy) / (m1.total - m0.total)) * cpus().length,
    };
  };
}
const cores = (v) => `${(v * 100).toFixed(0)}%`;

function startApi(port, redis) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'REDIS_URL'));
  Object.assign(env, {
    DATABASE_URL: dbUrl,
    DATABASE_POOL_MAX: String(POOL_MAX),
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // production needs the key sealing the pick-up keys (PICKUP_KEYS_ENCRYPTION_KEYS): a fixed one of the bench's
    PICKUP_KEYS_ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 2).toString('base64')}`,
    // production refuses to start without the merchant's WeChat Pay settings: the bench pays nothing, the sandbox will do
    WECHATPAY_SANDBOX: '1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '1',
    QUEUE_PREFIX: queuePrefix,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'flowbench-')),
  });
  // production requires Redis (its jobs must survive a restart), so every API of the bench has it, under the bench's
  // queue prefix. `redis` (b's two-process half) therefore no longer changes anything: b's one-process half now runs
  // with Redis too, so its "in-memory adapter" figures of earlier runs are not comparable with new ones
  env.REDIS_URL = REDIS_URL;
  void redis;
  // FLOW_BENCH_PROFILE=<dir>: a V8 CPU profile of each API process, written there when it stops
  const profile = process.env.FLOW_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.FLOW_BENCH_PROFILE] : [];
  const child = spawn(process.execPath, [...profile, API_MAIN], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  return { child, base: `http://127.0.0.1:${port}`, port, dataDir: env.DATA_DIR };
}
async function stopApi(api) {
  if (api.child.exitCode === null) {
    const exited = new Promise((r) => api.child.once('exit', r));
    api.child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (api.child.exitCode === null) api.child.kill('SIGKILL');
  }
  rmSync(api.dataDir, { recursive: true, force: true });
}

async function post(base, path, token, body) {
  const r = await fetch(`${base}/api/index/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return r.json();
}
async function login(base, account) {
  const res = await post(base, 'login', null, { account, password: 'Demo@2026' });
  if (res.code !== 200) throw new Error(`login ${account}: ${JSON.stringify(res)}`);
  return res.data.userinfo;
}

/** hands out each bench student once: `take(n)` answers n students of one class (the classes in turn) */
function studentPool(rows) {
  const classes = new Map();
  for (const r of rows) (classes.get(r.class_id) ?? classes.set(r.class_id, []).get(r.class_id)).push(r.id);
  const lists = [...classes.values()];
  let turn = 0;
  return (n = 1) => {
    for (let tries = 0; tries < lists.length; tries++) {
      const list = lists[turn++ % lists.length];
      if (list.length >= n) return list.splice(0, n);
    }
    throw new Error('the bench ran out of students');
  };
}

// (a) -----------------------------------------------------------------------------------------------------------
async function apiThroughput(api, token, take, sql, size) {
  let phase = 'warmup';
  let events = 0;
  let requests = 0;
  let refused = 0;
  let failed = 0;
  const times = [];
  const stopAt = Date.now() + (WARMUP_S + MEASURE_S) * 1000;
  const client = async () => {
    while (Date.now() < stopAt) {
      const ids = take(size);
      for (const step of CYCLE) {
        if (Date.now() >= stopAt) break;
        const t0 = performance.now();
        try {
          const res = await post(api.base, step, token, { student_ids: ids, event_id: randomUUID() });
          const good = res.code === 200 ? res.data.results.filter((r) => r.ok).length : 0;
          if (phase === 'measure') {
            requests++;
            events += good;
            if (res.code !== 200) failed += ids.length;
            else refused += ids.length - good;
            times.push(performance.now() - t0);
          }
          if (good < ids.length && failed + refused < 3) console.error(`${step}:`, JSON.stringify(res).slice(0, 300));
        } catch (err) {
          if (phase === 'measure') failed += ids.length;
          if (failed < 3) console.error(err);
        }
      }
    }
  };
  const runs = Array.from({ length: CLIENTS }, client);
  await sleep(WARMUP_S * 1000);
  const meter = await cpuMeter(sql, [api.child.pid]);
  phase = 'measure';
  const t0 = now();
  await sleep(MEASURE_S * 1000);
  phase = 'done';
  const seconds = (now() - t0) / 1000;
  const cpu = meter();
  const load = loadavg()[0];
  await Promise.all(runs);
  times.sort((a, b) => a - b);
  const r = {
    size,
    perSecond: events / seconds,
    requests,
    ok: events,
    refused,
    failed,
    seconds,
    p50: pct(times, 50),
    p99: pct(times, 99),
    cpu,
    load,
  };
  console.log(
    `API at ${CLIENTS} clients, ${size} student(s) per request: ${r.perSecond.toFixed(0)} events/s (${r.requests} requests, ${r.ok} events, ${r.refused} refused, ${r.failed} failed in ${seconds.toFixed(1)} s), ` +
      `request p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms; CPU API ${cores(cpu.api[0])}, postgres ${cores(cpu.postgres)}, bench ${cores(cpu.bench)}, machine ${cores(cpu.machine)} of ${cpus().length * 100}%; load average ${load.toFixed(2)}`,
  );
  return r;
}

function pgbench() {
  const u = new URL(ADMIN_URL);
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-pgbench-'));
  const script = join(dir, 'insert.sql');
  // one row like a flow event per transaction (autocommit), on a table with the same columns, keys and index as flow_events
  writeFileSync(
    script,
    `insert into pgbench_flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at)
values (gen_random_uuid(), 1, nextval('pgbench_flow_student'), current_date, 1, 'student.entered', '{}', 1, 'in_centre', 1, now());\n`,
  );
  try {
    const out = execFileSync(
      '/usr/bin/pgbench',
      [
        '-h',
        u.hostname,
        '-p',
        u.port || '5432',
        '-U',
        decodeURIComponent(u.username || 'postgres'),
        '-n',
        '-M',
        'prepared',
        '-c',
        String(CLIENTS),
        '-j',
        '2',
        '-T',
        String(MEASURE_S),
        '-f',
        script,
        dbName,
      ],
      { encoding: 'utf8', env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password ?? '') }, timeout: (MEASURE_S + 60) * 1000 },
    );
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
    const lat = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
    if (!Number.isFinite(tps)) throw new Error(`pgbench: no tps in\n${out}`);
    return { tps, lat, failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// (b) -----------------------------------------------------------------------------------------------------------
async function liveLatency(label, apis, token, boardToken, take, sql, batch = true) {
  const per = SOCKETS / SOCKET_WORKERS;
  // the sockets are split evenly between the API processes
  const specs = Array.from({ length: SOCKET_WORKERS }, (_, i) => ({
    urls: apis.length === 1 ? [apis[0].base] : [apis[i % apis.length].base],
    count: per,
    token: boardToken,
    batch,
    seconds: LIVE_S + 120,
  }));
  // the worker threads live in a child process under nice (lower priority than the API and Postgres)
  const host = spawn('nice', ['-n', String(NICE), process.execPath, fileURLToPath(import.meta.url)], {
    env: { ...process.env, FLOW_BENCH_SOCKET_HOST: JSON.stringify(specs) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // structured clone over IPC: the received times come back as a Float64Array
    serialization: 'advanced',
  });
  const hostExit = new Promise((r) => host.once('exit', r));
  const workers = specs.map((_, i) => {
    const listeners = new Set();
    return {
      postMessage: (m) => host.connected && host.send({ i, m }),
      on: (ev, fn) => ev === 'message' && listeners.add(fn),
      off: (ev, fn) => listeners.delete(fn),
      once: (ev, fn) => {
        if (ev === 'exit') hostExit.then(fn);
      },
      listeners,
    };
  });
  host.on('message', ({ i, m }) => {
    if (m?.type === 'error') console.error(`socket worker ${i}:`, m.message);
    for (const fn of [...workers[i].listeners]) fn(m);
  });
  const message = (w, type) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`socket worker: no ${type} within 60 s`)), 60_000);
      const on = (m) => {
        if (m.type !== type) return;
        clearTimeout(t);
        w.off('message', on);
        resolve(m);
      };
      w.on('message', on);
      w.once('error', reject);
    });
  const ready = await Promise.all(workers.map((w) => message(w, 'ready')));
  const connected = ready.reduce((a, r) => a + r.connected, 0);
  if (connected !== SOCKETS) throw new Error(`${label}: ${connected} of ${SOCKETS} sockets connected`);

  const answered = new Map(); // student -> HTTP answer time
  const sendAt = new Map(); // student -> request sent
  let errors = 0;
  const inflight = new Set();
  let driven = 0;
  const drive = async (seconds, record) => {
    const start = now();
    const n = Math.round(seconds * RATE);
    for (let i = 0; i < n; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      const [id] = take(1);
      const t0 = now();
      const p = post(apis[0].base, 'studentEnter', token, { student_ids: [id] }).then(
        (res) => {
          if (res.code !== 200 || !res.data.results[0]?.ok) errors++;
          else if (record) {
            answered.set(id, now());
            sendAt.set(id, t0);
          }
        },
        () => errors++,
      );
      inflight.add(p);
      p.finally(() => inflight.delete(p));
      if (inflight.size > 200) await Promise.race(inflight);
    }
    await Promise.all(inflight);
    driven = n / ((now() - start) / 1000);
  };
  await drive(LIVE_WARMUP_S, false);
  await sleep(500);
  for (const w of workers) w.postMessage('reset');
  await sleep(100);
  const meter = await cpuMeter(
    sql,
    apis.map((a) => a.child.pid),
  );
  const host0 = cpuOf(host.pid);
  await drive(LIVE_S, true);
  await sleep(1000); // the last deliveries
  const cpu = meter();
  cpu.bench += (cpuOf(host.pid) - host0) / cpu.seconds;
  const load = loadavg()[0];
  const done = await Promise.all(
    workers.map((w) => {
      const p = message(w, 'done');
      w.postMessage('collect');
      return p;
    }),
  );
  host.disconnect();
  await Promise.race([hostExit, sleep(5000)]);
  if (host.exitCode === null) host.kill();

  const fromAt = [];
  const fromAnswer = [];
  const atOf = new Map(); // student -> the event's `at`
  let received = 0;
  for (const { recv } of done) {
    for (let i = 0; i < recv.length; i += 3) {
      const id = recv[i];
      if (!answered.has(id)) continue; // a warm-up event
      received++;
      atOf.set(id, recv[i + 1]);
      fromAt.push(recv[i + 2] - recv[i + 1]);
      fromAnswer.push(recv[i + 2] - answered.get(id));
    }
  }
  fromAt.sort((a, b) => a - b);
  fromAnswer.sort((a, b) => a - b);
  const http = [...answered].map(([id, t]) => t - sendAt.get(id)).sort((a, b) => a - b);
  // the command's own part: from `at` (set in the API before the append) to its HTTP answer at the bench
  const command = [...atOf].map(([id, at]) => answered.get(id) - at).sort((a, b) => a - b);
  const messages = done.reduce((a, d) => a + d.messages, 0);
  const expected = answered.size * SOCKETS;
  const apiCpuMs = cpu.api.reduce((a, x) => a + x, 0) * cpu.seconds * 1000;
  const r = {
    label,
    events: answered.size,
    rate: driven,
    errors,
    received,
    expected,
    messages,
    /** API CPU (all processes) per message a board received, ms */
    cpuPerMessage: apiCpuMs / messages,
    at: { p50: pct(fromAt, 50), p99: pct(fromAt, 99), max: fromAt[fromAt.length - 1] },
    answer: { p50: pct(fromAnswer, 50), p99: pct(fromAnswer, 99) },
    command: { p50: pct(command, 50), p99: pct(command, 99) },
    http: { p50: pct(http, 50), p99: pct(http, 99) },
    cpu,
    load,
  };
  console.log(
    `${label}: ${r.events} events (${r.rate.toFixed(0)}/s achieved) x ${SOCKETS} sockets, ${received}/${expected} deliveries in ${messages} messages; commit(at)->client p50 ${r.at.p50.toFixed(1)} ms p99 ${r.at.p99.toFixed(1)} ms; ` +
      `at->HTTP answer p50 ${r.command.p50.toFixed(1)} p99 ${r.command.p99.toFixed(1)}; HTTP answer->client p50 ${r.answer.p50.toFixed(1)} p99 ${r.answer.p99.toFixed(1)}; ` +
      `API CPU ${r.cpuPerMessage.toFixed(4)} ms per delivered message; CPU API ${r.cpu.api.map(cores).join('+')}, postgres ${cores(r.cpu.postgres)}, bench ${cores(r.cpu.bench)}, machine ${cores(r.cpu.machine)}; load average ${load.toFixed(2)}`,
  );
  return r;
}

// ---------------------------------------------------------------------------------------------------------------
async function main() {
  if (!existsSync(API_MAIN)) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  await admin(`create database ${dbName}`);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const apis = [];
  const sql = new pg.Client({ connectionString: dbUrl });
  try {
    let api = startApi(await freePort(), false);
    apis.push(api);
    await waitFor(`${api.base}/api/health`);
    await sql.connect();
    const adviser = await login(api.base, 'adviser');
    const adminUser = await login(api.base, 'admin');
    const schoolId = adviser.school_id;
    const {
      rows: [{ id: adviserId }],
    } = await sql.query(`select id from users where username = 'adviser'`);

    // 100,000 students (no shuttle: entering is their first step) in 200 care classes headed by the head teacher
    await sql.query('begin');
    await sql.query(
      `insert into care_classes (school_id, name, capacity, head_teacher_id) select $1, '流程压测班' || g, 500, $2 from generate_series(1, $3) g`,
      [schoolId, adviserId, CLASSES],
    );
    await sql.query(
      `insert into students (school_id, name, gender, birthday, day_school, grade, class_name, needs_shuttle, needs_dinner)
       select $1, '流程压测生' || g, 1 + g % 2, date '2016-01-01' + (g % 1500), '实验小学', '三年级', (1 + g % 8) || '班', false, true
         from generate_series(1, $2) g`,
      [schoolId, STUDENTS],
    );
    await sql.query(
      `insert into care_class_students (school_id, class_id, student_id)
       select $1, c.id, s.id
         from (select id, row_number() over (order by id) rn from students where school_id = $1 and name like '流程压测生%') s
         join (select id, row_number() over (order by id) rn from care_classes where name like '流程压测班%') c on c.rn = 1 + s.rn % $2`,
      [schoolId, CLASSES],
    );
    await sql.query(`create table pgbench_flow_events (like flow_events including defaults including constraints including indexes)`);
    await sql.query(`create sequence pgbench_flow_student`);
    await sql.query('commit');
    await sql.query('analyze');
    const { rows: students } = await sql.query(
      `select s.id, ccs.class_id from students s join care_class_students ccs on ccs.student_id = s.id where s.name like '流程压测生%' order by random()`,
    );
    const take = studentPool(students);
    const {
      rows: [{ setting: syncCommit }],
    } = await sql.query(`select setting from pg_settings where name = 'synchronous_commit'`);

    // (a) throughput: the API with a class's selection per request, then one student per request, then pgbench
    let a = null;
    if (PARTS.has('a')) {
      const batch = await apiThroughput(api, adviser.token, take, sql, BATCH);
      const single = await apiThroughput(api, adviser.token, take, sql, 1);
      const m0 = machineCpu();
      const b = pgbench();
      const m1 = machineCpu();
      b.load = loadavg()[0];
      const pgbenchMachine = ((m1.busy - m0.busy) / (m1.total - m0.total)) * cpus().length;
      a = { batch, single, pgbench: b, pgbenchMachine, ratio: batch.perSecond / b.tps, singleRatio: single.perSecond / b.tps };
      console.log(
        `pgbench one-row insert transactions at ${CLIENTS} clients: ${b.tps.toFixed(0)} tps (latency ${b.lat} ms, machine CPU ${cores(pgbenchMachine)}); ` +
          `API/pgbench ${(a.ratio * 100).toFixed(0)}% (${BATCH} per request), ${(a.singleRatio * 100).toFixed(0)}% (1 per request)`,
      );
    }

    // (b) live latency, one process with the in-memory adapter, then two processes with the Redis adapter (sockets
    // split, commands to the first)
    // RUNS_B times, each on API processes started afresh after the first: one process with the in-memory adapter (boards
    // with batches, then without), then two processes joined by the Redis adapter (sockets split, commands to the first)
    const b = { one: [], plain: [], two: [] };
    if (PARTS.has('b')) {
      for (let run = 1; run <= RUNS_B; run++) {
        if (!apis.length) {
          api = startApi(await freePort(), false);
          apis.push(api);
          await waitFor(`${api.base}/api/health`);
        }
        b.one.push(await liveLatency(`run ${run}: one API process, in-memory adapter`, [api], adviser.token, adminUser.token, take, sql));
        b.plain.push(
          await liveLatency(
            `run ${run}: one API process, in-memory adapter, boards without batches (one flow.event per event)`,
            [api],
            adviser.token,
            adminUser.token,
            take,
            sql,
            false,
          ),
        );
        for (const x of apis) await stopApi(x);
        apis.length = 0;
        if (redis.status === 'wait') await redis.connect();
        const two = [startApi(await freePort(), true), startApi(await freePort(), true)];
        apis.push(...two);
        await Promise.all(two.map((x) => waitFor(`${x.base}/api/health`)));
        b.two.push(await liveLatency(`run ${run}: two API processes, Redis adapter`, two, adviser.token, adminUser.token, take, sql));
        for (const x of apis) await stopApi(x);
        apis.length = 0;
      }
      for (const [name, list] of [
        ['one API process, in-memory adapter', b.one],
        ['two API processes, Redis adapter', b.two],
        ['one API process, boards without batches', b.plain],
      ]) {
        console.log(`${name}: p99 ${runsOf(list, (l) => l.at.p99)} ms; API CPU per delivered message ${runsOf(list, (l) => l.cpuPerMessage, 4)} ms`);
      }
    }
    for (const x of apis) await stopApi(x);
    apis.length = 0;

    // (c) rebuild from 1,000,000 generated events on past days (valid streams: entered, dinner, tutoring started/ended, left)
    let c = null;
    if (PARTS.has('c')) {
      const tGen = now();
      await sql.query(
        `insert into flow_events (event_id, school_id, student_id, day, version, type, payload, class_id, state_after, actor_id, occurred_at, recorded_at)
         select gen_random_uuid(), $1, s.id, current_date - d, v,
                (array['student.entered','student.dinner_confirmed','student.tutoring_started','student.tutoring_ended','student.left'])[v],
                case when v = 5 then '{"picked_up_by": null, "override": "bench"}'::jsonb else '{}'::jsonb end,
                s.class_id, case when v = 5 then 'left' else 'in_centre' end, $2,
                (current_date - d) + time '16:00' + v * interval '20 minutes', now()
           from (select st.id, ccs.class_id from students st join care_class_students ccs on ccs.student_id = st.id
                  where st.school_id = $1 and st.name like '流程压测生%' order by st.id limit $5) s,
                generate_series(1, $3) d, generate_series(1, $4) v
          order by s.id, d, v`,
        [schoolId, adviserId, REBUILD_DAYS, REBUILD_STEPS, REBUILD_STUDENTS],
      );
      await sql.query('analyze flow_events');
      const genMs = now() - tGen;
      const {
        rows: [{ n: totalEvents }],
      } = await sql.query(`select count(*)::int as n from flow_events`);
      const {
        rows: [{ n: totalDays }],
      } = await sql.query(`select count(*)::int as n from (select distinct student_id, day from flow_events) x`);
      console.log(
        `generated ${REBUILD_STUDENTS * REBUILD_DAYS * REBUILD_STEPS} events in ${(genMs / 1000).toFixed(1)} s (${totalEvents} in flow_events, ${totalDays} student-days)`,
      );
      const tRebuild = now();
      const out = execFileSync(process.execPath, [API_CLI, 'flow:rebuild'], {
        encoding: 'utf8',
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'REDIS_URL')),
          DATABASE_URL: dbUrl,
          LOG_LEVEL: 'info',
          DATA_DIR: tmpdir(),
        },
        timeout: 600_000,
      });
      const wall = now() - tRebuild;
      const logged = out
        .split('\n')
        .map((l) => {
          try {
            return JSON.parse(l);
          } catch {
            return null;
          }
        })
        .find((l) => l && typeof l.ms === 'number');
      const [, replayed, days] = (/flow:rebuild: (\d+) events replayed into (\d+) student-days/.exec(out) ?? []).map(Number);
      const ms = logged?.ms ?? wall;
      const {
        rows: [{ n: projected }],
      } = await sql.query(`select count(*)::int as n from student_days`);
      if (replayed !== totalEvents || projected !== totalDays)
        throw new Error(`rebuild: ${out}; ${projected} rows in student_days, ${totalDays} expected`);
      c = { replayed, days, ms, wall, rate: replayed / (ms / 1000) };
      console.log(
        `flow:rebuild: ${replayed} events into ${days} student-days in ${(ms / 1000).toFixed(1)} s (${c.rate.toFixed(0)} events/s; CLI wall ${(wall / 1000).toFixed(1)} s)`,
      );
    }

    const aMet = !a || a.ratio >= 0.4;
    const bMet = (l) => l.at.p99 <= LATENCY_TARGET_MS && l.received === l.expected;
    const bAllMet = (list) => list.every(bMet);
    const plainMet = (list) => list.every((l) => l.at.p99 <= PLAIN_TARGET_MS && l.received === l.expected);
    if (!aMet || !bAllMet(b.one) || !bAllMet(b.two)) process.exitCode = 1;
    if (!a || !b.one.length || !c) {
      console.log(`FLOW_BENCH_PARTS=${[...PARTS].join(',')}: BENCHMARKS.md is written by a run of all parts`);
      return;
    }

    // the section of BENCHMARKS.md
    const {
      rows: [{ v: pgVersion }],
    } = await sql.query(`select current_setting('server_version') as v`);
    const date = new Date().toISOString().slice(0, 10);
    const machine = `${cpus().length} cores (${cpus()[0].model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${pgVersion}`;
    const met = (yes) => (yes ? 'met' : '**NOT MET**');
    const cpuText = (x) =>
      `API ${x.api.map(cores).join(' + ')}, Postgres backends ${cores(x.postgres)}, bench client ${cores(x.bench)}, whole machine ${cores(x.machine)} of ${cpus().length * 100}%${x.load === undefined ? '' : `; load average ${x.load.toFixed(2)}`}`;
    const aRow = (x, what) =>
      `| a. flow events/s through the HTTP API, ${CLIENTS} concurrent clients, ${what}; each client takes its students through entering, dinner, tutoring start and end (head teacher token), ${MEASURE_S} s after ${WARMUP_S} s warm-up | ${x.perSecond.toFixed(0)} events/s (${x.requests} requests, ${x.ok} events, ${x.refused} refused, ${x.failed} failed), request p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms; CPU ${cpuText({ ...x.cpu, load: x.load })} | |`;
    const liveRow = (what, list, target = true) => {
      const mid = medianRun(list);
      return (
        `| b. commit-to-client latency, ${SOCKETS} board sockets (admin), ${RATE} events/s for ${LIVE_S} s, one student per command, ${what}; ${list.length} runs | ` +
        `p99 ${runsOf(list, (l) => l.at.p99)} ms; p50 ${runsOf(list, (l) => l.at.p50)} ms; ` +
        `API CPU per delivered message ${runsOf(list, (l) => l.cpuPerMessage, 4)} ms (${(mid.received / mid.messages).toFixed(1)} events per message); ` +
        `deliveries ${list.map((l) => `${l.received}/${l.expected}`).join(', ')}, failed commands ${list.map((l) => l.errors).join(', ')}. ` +
        `Median run: max ${mid.at.max.toFixed(0)} ms; at -> HTTP answer p50 ${mid.command.p50.toFixed(1)} ms, p99 ${mid.command.p99.toFixed(1)} ms; HTTP answer -> client p50 ${mid.answer.p50.toFixed(1)} ms, p99 ${mid.answer.p99.toFixed(1)} ms; ` +
        `HTTP p50 ${mid.http.p50.toFixed(1)} ms, p99 ${mid.http.p99.toFixed(1)} ms; ${mid.rate.toFixed(0)} events/s achieved; CPU ${cpuText(mid.cpu)}; ` +
        `load average (1 min) at the end of each run ${list.map((l) => l.load.toFixed(2)).join(' / ')} | ` +
        `${target ? `p99 <= ${LATENCY_TARGET_MS} ms in each run: ${met(bAllMet(list))}` : `every event delivered, p99 <= ${PLAIN_TARGET_MS} ms in each run: ${met(plainMet(list))}`} |`
      );
    };
    const perEvent = (x) =>
      `${((x.cpu.api[0] * 1000) / x.perSecond).toFixed(3)} ms of API CPU and ${((x.cpu.postgres * 1000) / x.perSecond).toFixed(3)} ms of Postgres backend CPU`;
    const section = [
      '',
      `## API: daily flow throughput, live latency, rebuild (${date})`,
      '',
      `\`npm run bench\` in apps/api (apps/api/bench/flow.bench.mjs): the built API (\`node dist/main.js\`, NODE_ENV=production, LOG_LEVEL=warn, DATABASE_POOL_MAX=${POOL_MAX} instead of the default 10) on PostgreSQL (synchronous_commit ${syncCommit}), a database of its own; all traffic on loopback, the bench client on the same machine. Machine: ${machine}.`,
      '',
      '| measure | result | target |',
      '|---|---|---|',
      aRow(a.batch, `${BATCH} students of one class per request (a teacher's selection)`),
      aRow(a.single, 'one student per request'),
      `| a. pgbench, same database: \`pgbench -n -M prepared -c ${CLIENTS} -j 2 -T ${MEASURE_S}\`, one insert of a flow_events-like row per transaction (a copy of flow_events with its keys and indexes, no foreign keys), synchronous_commit ${syncCommit} | ${a.pgbench.tps.toFixed(0)} tps (latency ${a.pgbench.lat} ms, ${a.pgbench.failed} failed), whole machine CPU ${cores(a.pgbenchMachine)}; load average ${a.pgbench.load.toFixed(2)} | |`,
      `| a. API / pgbench | ${(a.ratio * 100).toFixed(0)}% with ${BATCH} students per request; ${(a.singleRatio * 100).toFixed(0)}% with one | >= 40% with ${BATCH}: ${met(a.ratio >= 0.4)}; >= 20% with one: ${met(a.singleRatio >= 0.2)} |`,
      liveRow('one API process, in-memory adapter', b.one),
      liveRow('two API processes, Redis adapter', b.two),
      liveRow('one API process, in-memory adapter, boards without batches (one flow.event per event)', b.plain, false),
      `| c. flow:rebuild of student_days from ${c.replayed} events (${(REBUILD_STUDENTS * REBUILD_DAYS * REBUILD_STEPS).toLocaleString('en')} generated with SQL: ${REBUILD_STUDENTS.toLocaleString('en')} students x ${REBUILD_DAYS} days x ${REBUILD_STEPS} steps, plus the bench's own) into ${c.days} student-days | ${(c.ms / 1000).toFixed(1)} s, ${c.rate.toFixed(0)} events/s (\`node dist/cli.js flow:rebuild\` wall time ${(c.wall / 1000).toFixed(1)} s with start-up and migration check) | reported |`,
      '',
      `How a command is appended: two round trips whatever the number of students (the session comes from the API's few-second session cache, invalidated through Redis pub/sub; one prepared statement reads the students with the school's day and their streams of that day; one statement inserts every event and upserts every student-day from unnest() arrays, atomic on its own). Optimistic concurrency is the stream key (student_id, day, version): when the statement loses a race nothing of it is written and each student is tried again alone. Per event, ${BATCH} per request: ${perEvent(a.batch)}; one per request: ${perEvent(a.single)}; pgbench: ${((a.pgbenchMachine * 1000) / a.pgbench.tps).toFixed(3)} ms of whole-machine CPU per transaction.`,
      '',
      `Commit-to-client latency is the time a board socket received the event minus the event's \`at\` (set in the API before the append statement, so it includes the insert and commit: an upper bound); the second figure is from the time the HTTP answer reached the bench (a lower bound: the API answers before it writes to the sockets). The API writes to the sockets after the command's answer: a flush goes out on the next turn of the event loop after a quiet moment and at most every 20 ms (FLUSH_MS) under load, with one Redis message per flush to the other process. The boards ask for batches (\`auth.batch: true\`, as the web app's boards do) and get one \`flow.events\` message per flush; the last row shows the same load for clients that take one \`flow.event\` per event: they get the same messages, but all of a flush's in one write per socket (the fan-out is one system call per socket per flush, most of the API's CPU at ${SOCKETS} sockets on loopback). The ${SOCKETS} boards are a minimal socket.io client on ws in ${SOCKET_WORKERS} worker threads (the same frames as socket.io-client without its per-message work), in a child process of the bench run under \`nice -n ${NICE}\` so that the bench's own clients yield the two cores to the API and Postgres; their CPU is counted in the bench client's figure.`,
      '',
    ].join('\n');
    const file = join(root, 'BENCHMARKS.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    appendFileSync(file, current.endsWith('\n') ? section : `\n${section}`);
    console.log(section);
  } finally {
    await sql.end().catch(() => {});
    for (const x of apis) await stopApi(x).catch(() => {});
    if (process.env.FLOW_BENCH_KEEP) console.log(`FLOW_BENCH_KEEP: database ${dbName} kept`);
    else await admin(`drop database if exists ${dbName} with (force)`).catch((err) => console.error('drop database:', err.message));
    try {
      if (redis.status !== 'ready') await redis.connect();
      let cursor = '0';
      let removed = 0;
      for (let i = 0; i < 10_000; i++) {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}:*`, 'COUNT', 1000);
        if (keys.length) removed += await redis.del(...keys);
        cursor = next;
        if (cursor === '0') break;
      }
      if (removed) console.log(`removed ${removed} Redis keys under ${queuePrefix}:`);
    } catch (err) {
      console.error('redis cleanup:', err.message);
    }
    redis.disconnect();
  }
}
