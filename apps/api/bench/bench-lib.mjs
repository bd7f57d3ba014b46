// Helpers the benchmarks share: the admin connection, a database of their own, a free loopback port, waiting for the API, percentiles and the machine's load.
import { execSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';

export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function admin(sql, params) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export async function waitFor(url, ms = 60_000) {
  const start = Date.now();
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - start > ms) throw new Error(`the API did not start within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The p-th percentile of sorted numbers (nearest rank). */
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
/** A count with thousands separators, as BENCHMARKS.md writes them. */
export const fmt = (n) => n.toLocaleString('en-US');

/** A database of the bench's own on ADMIN_URL's server: its name and URL (`prefix` + a time tag). */
export function benchDatabase(prefix) {
  const dbName = `${prefix}_${Date.now().toString(36)}`;
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return { dbName, dbUrl: u.toString() };
}

/**
 * What else is running while a bench measures (its figures depend on it): the load average and how many other jest,
 * bench or browser-test processes there are, leaving out the bench `self` (its file name).
 */
export function machineLoad(self) {
  let others = [];
  try {
    others = execSync('ps -eo pid,args', { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /jest|\.bench\.mjs|playwright/.test(l) && !l.includes(self) && !/ps -eo/.test(l))
      .map((l) => l.trim());
  } catch {
    // no ps
  }
  return {
    load: loadavg()
      .map((v) => v.toFixed(1))
      .join(' / '),
    others: others.length,
  };
}

/** BENCHMARKS.md at the repository root. */
const BENCHMARKS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'BENCHMARKS.md');

/** Appends a bench's dated section (its text, blank lines around) to BENCHMARKS.md and prints it. */
export function appendSection(section) {
  const current = existsSync(BENCHMARKS) ? readFileSync(BENCHMARKS, 'utf8') : '# Benchmarks\n';
  appendFileSync(BENCHMARKS, current.endsWith('\n') ? section : `\n${section}`);
  console.log(section);
}

/** The built API: dist/main.js, or BENCH_API_MAIN (a copy of an earlier build, to measure before a change). */
const API_MAIN = process.env.BENCH_API_MAIN ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

/**
 * The built API (`dist/main.js`) on a new database of the bench's own, the demo seeded, per-IP limits off, without
 * Redis (jobs in process) unless `redis` gives its URL (with `env`, more variables): its base URL, a connected pg
 * client on its database, `login(account)` (the demo password) answering the userinfo, and `stop()` (the client
 * closed, the API stopped, the database dropped unless `keep`).
 */
export async function startDemoApi({ dbName, dbUrl, keep = false, redis = null, env = {}, healthMs = 60_000 }) {
  if (!existsSync(API_MAIN)) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  // production requires Redis (its jobs must survive a restart): a production bench without one gets the local Redis
  // under a queue prefix of its own, whose keys are removed at stop
  let ownPrefix = null;
  if (env.NODE_ENV === 'production' && !redis) {
    redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    ownPrefix = env.QUEUE_PREFIX ?? `bench_${dbName}`;
    env = { ...env, QUEUE_PREFIX: ownPrefix };
  }
  await admin(`create database ${dbName}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'REDIS_URL'));
  const server = spawn(process.execPath, [API_MAIN], {
    env: {
      ...inherited,
      ...(redis ? { REDIS_URL: redis } : {}),
      DATABASE_URL: dbUrl,
      SEED_DEMO: '1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_FACTOR: '0',
      // production needs the key sealing the pick-up keys (PICKUP_KEYS_ENCRYPTION_KEYS): a fixed one of the bench's
      PICKUP_KEYS_ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 2).toString('base64')}`,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const sql = new pg.Client({ connectionString: dbUrl });
  const stop = async () => {
    await sql.end().catch(() => {});
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    if (keep) console.log(`kept database ${dbName}`);
    else await admin(`drop database if exists ${dbName} with (force)`);
    if (ownPrefix && !keep) {
      const r = new Redis(redis, { maxRetriesPerRequest: null });
      let cursor = '0';
      do {
        const [next, keys] = await r.scan(cursor, 'MATCH', `${ownPrefix}:*`, 'COUNT', 1000);
        if (keys.length) await r.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await r.quit();
    }
  };
  try {
    await waitFor(`${base}/api/health`, healthMs);
    await sql.connect();
  } catch (err) {
    await stop();
    throw err;
  }
  const login = async (account) =>
    (
      await fetch(`${base}/api/index/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account, password: 'Demo@2026' }),
      }).then((r) => r.json())
    ).data.userinfo;
  return { base, sql, login, stop, pid: server.pid };
}

/**
 * A school of many guardians for the notices' and the texts' benches: `guardians` parent accounts with mobiles
 * (15000000001…), one child each and a second child for the first `twoChildren`, the children spread over `classes`
 * care classes; in one transaction, then analysed.
 */
export async function seedGuardians(sql, schoolId, { guardians: n, twoChildren, classes }) {
  await sql.query('begin');
  await sql.query(`insert into care_classes (school_id, name, capacity) select $1, '压测班' || g, 500 from generate_series(1, $2) g`, [
    schoolId,
    classes,
  ]);
  const guardians = (
    await sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile)
       select $1, 6, 'nb_' || g, '家长' || g, '家长' || g, '15' || lpad(g::text, 9, '0') from generate_series(1, $2) g returning id`,
      [schoolId, n],
    )
  ).rows.map((r) => r.id);
  const students = (
    await sql.query(`insert into students (school_id, name, grade) select $1, '学生' || g, '三年级' from generate_series(1, $2) g returning id`, [
      schoolId,
      n + twoChildren,
    ])
  ).rows.map((r) => r.id);
  // guardian i has child i; the first `twoChildren` guardians also child n + i
  const pairs = students.map((sid, i) => [sid, guardians[i < n ? i : i - n]]);
  await sql.query(
    `insert into student_guardians (school_id, student_id, user_id, relation, is_primary)
     select $1, s, u, '母亲', true from unnest($2::int[], $3::int[]) as t(s, u)`,
    [schoolId, pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  await sql.query(
    `insert into care_class_students (school_id, class_id, student_id)
     select $1, c.ids[1 + (s.n % $3)], s.id from (select id, row_number() over (order by id) as n from unnest($2::int[]) id) s,
          (select array_agg(id order by id) as ids from care_classes where school_id = $1 and name like '压测班%') c`,
    [schoolId, students, classes],
  );
  await sql.query('commit');
  await sql.query('analyze');
}

/** CPU seconds used so far by a process (user + system), 0 when it is gone. */
export function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}
/** busy and total jiffies of the whole machine so far (/proc/stat) */
export function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  return { busy: f.reduce((a, b) => a + b, 0) - idle, total: f.reduce((a, b) => a + b, 0) };
}

/**
 * A closed loop of `clients` clients, each sending `send(client, n)` (answers the action's JSON) again as soon as the
 * last answered, `warmupS` seconds unmeasured then `measureS` seconds measured, through keep-alive connections (the
 * lighter node:http, not fetch: the bench shares the cores with the API). Answers the successes per second, p50/p99 of
 * the measured successes, the refusals by message, the 5xx and failed requests, and the CPU while measuring of the API
 * (`apiPid`), of the bench database's Postgres backends (`sql` connected to it), of the bench and of the whole machine,
 * with the API's and Postgres's CPU milliseconds per success.
 */
export async function closedLoop({ clients, warmupS, measureS, apiPid, sql, send }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients * 2 });
  const post = (base, action, token, body) =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const u = new URL(`${base}/api/index/${action}`);
      const req = http.request(
        {
          agent,
          hostname: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), token },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (err) {
              reject(err);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  let phase = 'warmup';
  let all = 0;
  let measured = 0;
  let errors = 0;
  const refused = {};
  const times = [];
  const stopAt = performance.now() + (warmupS + measureS) * 1000;
  const client = async (c) => {
    for (let n = 0; performance.now() < stopAt; n++) {
      const t0 = performance.now();
      let res;
      try {
        res = await send(post, c, n);
      } catch {
        res = { code: 500, msg: 'request failed' };
      }
      const ms = performance.now() - t0;
      if (res.code === 200) {
        all++;
        if (phase === 'measure') {
          measured++;
          times.push(ms);
        }
      } else if (res.code === 500) errors++;
      else refused[res.msg] = (refused[res.msg] ?? 0) + 1;
    }
  };
  const running = Array.from({ length: clients }, (_, c) => client(c));
  await new Promise((r) => setTimeout(r, warmupS * 1000));
  phase = 'measure';
  const { rows } = await sql.query(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
  const pgPids = rows.map((r) => r.pid);
  const t0 = performance.now();
  const api0 = cpuOf(apiPid);
  const pg0 = pgPids.map(cpuOf);
  const m0 = machineCpu();
  const self0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, measureS * 1000));
  const seconds = (performance.now() - t0) / 1000;
  const done = measured;
  phase = 'done';
  const m1 = machineCpu();
  const self = process.cpuUsage(self0);
  const cpu = {
    api: (cpuOf(apiPid) - api0) / seconds,
    postgres: pgPids.reduce((a, p, i) => a + Math.max(0, cpuOf(p) - pg0[i]), 0) / seconds,
    bench: (self.user + self.system) / 1e6 / seconds,
    machine: ((m1.busy - m0.busy) / (m1.total - m0.total)) * cpus().length,
  };
  await Promise.all(running);
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    ok: all,
    measured: done,
    perSecond: done / seconds,
    p50: pct(times, 50),
    p99: pct(times, 99),
    refused,
    errors,
    cpu,
    apiMsPer: (cpu.api * seconds * 1000) / Math.max(1, done),
    pgMsPer: (cpu.postgres * seconds * 1000) / Math.max(1, done),
  };
}

/** The CPU of a closedLoop as BENCHMARKS.md writes it. */
export const closedLoopCpu = (r) => {
  const pc = (v) => `${Math.round(v * 100)}%`;
  return (
    `CPU API ${pc(r.cpu.api)}, Postgres backends ${pc(r.cpu.postgres)}, bench client ${pc(r.cpu.bench)}, whole machine ${pc(r.cpu.machine)} of ${cpus().length * 100}% ` +
    `(the rest, other work and Postgres's own processes, ${pc(Math.max(0, r.cpu.machine - r.cpu.api - r.cpu.postgres - r.cpu.bench))}); ` +
    `per order ${r.apiMsPer.toFixed(2)} ms API CPU and ${r.pgMsPer.toFixed(2)} ms Postgres backend CPU`
  );
};
