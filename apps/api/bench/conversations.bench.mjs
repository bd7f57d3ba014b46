// Family conversations benchmark (issue 40, part 3 "Speed": "a message reaches the other side's open page ≤ 1 s p99
// under the peak bench's load"). The peak bench (issue 39) does not exist yet, so this bench builds its own peak-like
// load on one API process:
//   - the daily flow at the same time: FLOW_RPS taps a second (open loop), each a class's selection of 30 students
//     taken through entering, dinner, tutoring start and end (the head teacher's token, as flow.bench.mjs taps), with
//     BOARDS admin board sockets (flow, batches) receiving them;
//   - M guardian sockets (socket.io-client, `auth: { token, flow: false }`: the conversation page's socket, in its
//     user's room only) and the head teachers' sockets (one per class, the staff's conversation page);
//   - messages at R a second (open loop, for MEASURE_S after WARMUP_S): 70% a head teacher to a child of their class
//     (received by the child's guardian), 30% a guardian to the school (received by the child's head teacher, who
//     has the conversation open: read within the last ten minutes, so told outside office hours too), each guardian
//     under the limit of 6 a minute;
//   - conversationInfo (the first page, 30 messages, as a guardian opens the page) at INFO_RPS a second.
// Per message: from the start of the conversationSend request to the other side's socket receiving
// `conversation.message` (p50/p95/p99/max; target p99 ≤ 1 s at every level), the send request's own p50/p99, lost
// messages (not received within 5 s) and errors; conversationInfo p50/p99; CPU of the API, its Postgres backends,
// the bench and the machine. Levels: LEVELS below.
// Runs the built API (dist/main.js; `npx turbo run build --filter=@wantuo/api` first, `npm run bench` does) on a
// database of its own (demo seeded, then the bench's school made with SQL), NODE_ENV=production with Redis
// (REDIS_URL or the local one, a QUEUE_PREFIX of its own, no worker: the notices' jobs stay queued); both removed afterwards (CONVERSATIONS_BENCH_KEEP=1 keeps it). Appends a dated section to BENCHMARKS.md
// (CONVERSATIONS_BENCH_NO_WRITE=1 only prints it); exits 1 when a level misses the target.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { io } from 'socket.io-client';
import { appendSection, benchDatabase, cpuOf, fmt, machineCpu, machineLoad, pct, seedGuardians, startDemoApi } from './bench-lib.mjs';

const GUARDIANS = 500;
const CLASSES = 25; // one head teacher each: 20 children a head teacher
const HISTORY = 40; // messages already in each conversation (so that the first page is a full 30)
const LEVELS = [
  { sockets: 200, rate: 20 },
  { sockets: 500, rate: 50 },
  { sockets: 500, rate: 100 },
];
const FAMILY_SHARE = 0.3;
const WARMUP_S = 5;
const MEASURE_S = 30;
const LOST_MS = 5_000;
const TARGET_MS = 1_000;
const INFO_RPS = 5;
const FLOW_RPS = 10;
const FLOW_BATCH = 30;
const FLOW_STUDENTS = 30_000;
const FLOW_CLASSES = 60;
const BOARDS = 10;
const CYCLE = ['studentEnter', 'teacherStudentDinner', 'teacherStudentStartTutor', 'teacherStudentEndTutor'];
const GUARDIAN_PER_MINUTE = 5; // under the API's 6
const POOL_MAX = 20;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE_PREFIX = `convbench_${Date.now().toString(36)}`;
const KEEP = process.env.CONVERSATIONS_BENCH_KEEP === '1';
const NO_WRITE = process.env.CONVERSATIONS_BENCH_NO_WRITE === '1';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** one action over keep-alive node:http (lighter than fetch on cores shared with the API): its JSON answer */
function call(base, method, action, token, body) {
  return new Promise((resolve, reject) => {
    const u = new URL(`${base}/api/index/${action}`);
    const data = method === 'POST' ? JSON.stringify(body) : null;
    if (method === 'GET' && body) u.search = new URLSearchParams(body).toString();
    const req = http.request(
      {
        agent,
        hostname: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        headers: { 'content-type': 'application/json', token, ...(data ? { 'content-length': Buffer.byteLength(data) } : {}) },
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
    req.end(data ?? undefined);
  });
}

/** a session of the user's, written as the API writes one (only its SHA-256 stored) */
async function tokensFor(sql, userIds) {
  const tokens = userIds.map(() => randomBytes(32).toString('base64url'));
  await sql.query(
    `insert into user_tokens (user_id, token_hash, expires_at, ip, user_agent)
     select u, h, now() + interval '12 hours', '127.0.0.1', 'conversations.bench' from unnest($1::int[], $2::bytea[]) as t(u, h)`,
    [userIds, tokens.map((t) => createHash('sha256').update(t).digest())],
  );
  return tokens;
}

function connect(base, token, flow) {
  return new Promise((resolve, reject) => {
    const s = io(base, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: flow ? { token, batch: true } : { token, flow: false },
      reconnection: false,
    });
    const t = setTimeout(() => reject(new Error('socket: not connected within 30 s')), 30_000);
    s.once('connect', () => {
      clearTimeout(t);
      resolve(s);
    });
    s.once('connect_error', (err) => {
      clearTimeout(t);
      reject(err);
    });
  });
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? { n: s.length, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s[s.length - 1] }
    : { n: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN };
};
const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : '—');
const pc = (v) => `${Math.round(v * 100)}%`;

async function main() {
  const before = machineLoad('conversations.bench.mjs');
  const { dbName, dbUrl } = benchDatabase('wantuo_convbench');
  const dataDir = mkdtempSync(join(tmpdir(), 'convbench-'));
  const api = await startDemoApi({
    dbName,
    dbUrl,
    keep: KEEP,
    redis: REDIS_URL,
    env: { QUEUE_PREFIX, NODE_ENV: 'production', WECHATPAY_SANDBOX: '1', HOST: '127.0.0.1', DATABASE_POOL_MAX: String(POOL_MAX), DATA_DIR: dataDir },
  });
  const { sql, base } = api;
  const sockets = [];
  try {
    const adviser = await api.login('adviser');
    const adminUser = await api.login('admin');
    const schoolId = adviser.school_id;
    const {
      rows: [{ id: adviserId }],
    } = await sql.query(`select id from users where username = 'adviser'`);

    // the bench's families: GUARDIANS guardians with one child each in CLASSES classes, a head teacher per class
    await seedGuardians(sql, schoolId, { guardians: GUARDIANS, twoChildren: 0, classes: CLASSES });
    await sql.query('begin');
    const teachers = (
      await sql.query(
        `insert into users (school_id, role, username, name, nickname, mobile)
         select $1, 5, 'cb_head_' || g, '班主任' || g, '班主任' || g, '1390' || lpad(g::text, 7, '7') from generate_series(1, $2) g returning id`,
        [schoolId, CLASSES],
      )
    ).rows.map((r) => r.id);
    await sql.query(
      `update care_classes c set head_teacher_id = t.ids[x.n]
         from (select id, row_number() over (order by id) as n from care_classes where school_id = $1 and name like '压测班%') x,
              (select $2::int[] as ids) t
        where c.id = x.id`,
      [schoolId, teachers],
    );
    // the guardians have consented (the current privacy and children's documents)
    await sql.query(
      `update student_guardians g set privacy_version = (select max(version) from privacy_policies where kind = 'privacy'),
              children_version = (select max(version) from privacy_policies where kind = 'children')
        where g.user_id in (select id from users where username like 'nb_%')`,
    );
    // the families: guardian i, child i, the head teacher of the child's class
    const { rows: families } = await sql.query(
      `select u.id as guardian_id, g.student_id, c.head_teacher_id as teacher_id
         from users u join student_guardians g on g.user_id = u.id
         join care_class_students r on r.student_id = g.student_id join care_classes c on c.id = r.class_id
        where u.username like 'nb_%' order by u.id`,
    );
    // each conversation with HISTORY messages of the last days, alternately the school's and the family's
    await sql.query(`insert into family_conversations (school_id, student_id) select $1, s from unnest($2::int[]) s`, [
      schoolId,
      families.map((f) => f.student_id),
    ]);
    await sql.query(
      `insert into family_messages (conversation_id, school_id, student_id, side, sender_id, sender_role, sender_name, body, request_id, sent_at)
       select fc.id, $1, f.s, case when k % 2 = 0 then 'school' else 'family' end, case when k % 2 = 0 then f.t else f.g end,
              case when k % 2 = 0 then 5 else 6 end, case when k % 2 = 0 then '班主任' else '母亲' end,
              '历史消息 ' || k || '：今天作业已完成，明天记得带水彩笔。', 'hist-' || f.s || '-' || k,
              now() - (($3 - k) * interval '2 hours') - interval '1 hour'
         from unnest($2::int[], $4::int[], $5::int[]) as f(s, g, t) join family_conversations fc on fc.student_id = f.s,
              generate_series(1, $3) k
        order by fc.id, k`,
      [schoolId, families.map((f) => f.student_id), HISTORY, families.map((f) => f.guardian_id), families.map((f) => f.teacher_id)],
    );
    await sql.query(
      `update family_conversations fc set last_message_id = m.id, last_message_at = m.sent_at
         from (select distinct on (conversation_id) conversation_id, id, sent_at from family_messages order by conversation_id, id desc) m
        where m.conversation_id = fc.id`,
    );
    // the daily flow's students (no shuttle: entering is their first step), their classes headed by the demo's head teacher
    await sql.query(
      `insert into care_classes (school_id, name, capacity, head_teacher_id) select $1, '会话流程班' || g, 500, $2 from generate_series(1, $3) g`,
      [schoolId, adviserId, FLOW_CLASSES],
    );
    await sql.query(
      `insert into students (school_id, name, gender, birthday, day_school, grade, class_name, needs_shuttle, needs_dinner)
       select $1, '会话流程生' || g, 1 + g % 2, date '2016-01-01' + (g % 1500), '实验小学', '三年级', (1 + g % 8) || '班', false, true
         from generate_series(1, $2) g`,
      [schoolId, FLOW_STUDENTS],
    );
    await sql.query(
      `insert into care_class_students (school_id, class_id, student_id)
       select $1, c.id, s.id
         from (select id, row_number() over (order by id) rn from students where school_id = $1 and name like '会话流程生%') s
         join (select id, row_number() over (order by id) rn from care_classes where name like '会话流程班%') c on c.rn = 1 + s.rn % $2`,
      [schoolId, FLOW_CLASSES],
    );
    await sql.query('commit');
    await sql.query('analyze');
    const { rows: flowRows } = await sql.query(
      `select s.id, r.class_id from students s join care_class_students r on r.student_id = s.id where s.name like '会话流程生%' order by random()`,
    );
    const byClass = new Map();
    for (const r of flowRows) (byClass.get(r.class_id) ?? byClass.set(r.class_id, []).get(r.class_id)).push(r.id);
    const flowLists = [...byClass.values()];
    let turn = 0;
    const takeFlow = () => {
      for (let i = 0; i < flowLists.length; i++) {
        const l = flowLists[turn++ % flowLists.length];
        if (l.length >= FLOW_BATCH) return l.splice(0, FLOW_BATCH);
      }
      return null;
    };

    const guardianTokens = await tokensFor(
      sql,
      families.map((f) => f.guardian_id),
    );
    const teacherTokens = new Map((await tokensFor(sql, teachers)).map((t, i) => [teachers[i], t]));
    families.forEach((f, i) => (f.token = guardianTokens[i]));
    const probe = await call(base, 'GET', 'conversationInfo', families[0].token, { student_id: families[0].student_id, limit: 30 });
    if (probe.code !== 200 || probe.data.messages.length !== 30)
      throw new Error(`conversationInfo as a bench guardian: ${JSON.stringify(probe).slice(0, 300)}`);

    // the sockets: the head teachers', the boards', then the guardians' as the levels need them
    const inbox = new Map(); // tag -> { t0, to, at }
    const onMessage = (userId) => (msg) => {
      const t = now();
      const m = /^b(\d+) /.exec(msg?.message?.text ?? '');
      if (!m) return;
      const rec = inbox.get(m[1]);
      if (rec && rec.to === userId && rec.at === undefined) rec.at = t;
    };
    for (const id of teachers) {
      const s = await connect(base, teacherTokens.get(id), false);
      s.on('conversation.message', onMessage(id));
      sockets.push(s);
    }
    let boardEvents = 0;
    for (let i = 0; i < BOARDS; i++) {
      const s = await connect(base, adminUser.token, true);
      s.on('flow.events', (list) => (boardEvents += list.length));
      sockets.push(s);
    }
    let connectedGuardians = 0;
    const connectGuardians = async (n) => {
      for (; connectedGuardians < n; connectedGuardians += 50) {
        const batch = families.slice(connectedGuardians, Math.min(n, connectedGuardians + 50));
        const opened = await Promise.all(batch.map((f) => connect(base, f.token, false)));
        opened.forEach((s, i) => {
          s.on('conversation.message', onMessage(batch[i].guardian_id));
          sockets.push(s);
        });
      }
      connectedGuardians = n;
    };

    const lag = monitorEventLoopDelay({ resolution: 10 });
    const results = [];
    let seq = 0;
    const sentBy = new Map(); // guardian -> send times (the limit of a minute)
    for (const level of LEVELS) {
      await connectGuardians(level.sockets);
      const fams = families.slice(0, level.sockets);
      // the head teachers have their children's conversations open (read just now: told whatever the office hours)
      await sql.query(
        `insert into family_conversation_reads (conversation_id, user_id, side, last_read_id, read_at)
         select fc.id, t, 'school', fc.last_message_id, now() from unnest($1::int[], $2::int[]) as x(s, t) join family_conversations fc on fc.student_id = x.s
         on conflict (conversation_id, user_id) do update set read_at = now()`,
        [fams.map((f) => f.student_id), fams.map((f) => f.teacher_id)],
      );
      const sends = []; // { tag, side, t0, httpMs, ok }
      const infos = [];
      let errors = 0;
      let infoErrors = 0;
      let skipped = 0;
      let flowRequests = 0;
      let flowEvents = 0;
      let flowErrors = 0;
      const flowTimes = [];
      const inflight = new Set();
      const track = (p) => {
        inflight.add(p);
        p.finally(() => inflight.delete(p));
      };
      let measuring = false;
      const stopAt = now() + (WARMUP_S + MEASURE_S) * 1000;
      let fi = 0;
      let ti = 0;
      // messages at level.rate a second
      const sender = (async () => {
        const start = now();
        for (let i = 0; now() < stopAt; i++) {
          const wait = start + (i * 1000) / level.rate - now();
          if (wait > 0) await sleep(wait);
          const family = Math.random() < FAMILY_SHARE;
          let f;
          if (family) {
            // the next guardian under the limit of a minute
            for (let k = 0; k < fams.length && !f; k++) {
              const c = fams[fi++ % fams.length];
              const times = (sentBy.get(c.guardian_id) ?? []).filter((t) => t > now() - 61_000);
              sentBy.set(c.guardian_id, times);
              if (times.length < GUARDIAN_PER_MINUTE) f = c;
            }
            if (!f) {
              skipped++;
              continue;
            }
            sentBy.get(f.guardian_id).push(now());
          } else f = fams[ti++ % fams.length];
          const tag = String(++seq);
          const rec = { t0: now(), to: family ? f.teacher_id : f.guardian_id, at: undefined };
          const measured = measuring;
          if (measured) inbox.set(tag, rec);
          const token = family ? f.token : teacherTokens.get(f.teacher_id);
          const p = call(base, 'POST', 'conversationSend', token, {
            student_id: f.student_id,
            text: `b${tag} ${family ? '老师好，今天孩子由外婆来接，谢谢。' : '今天孩子表现很好，作业已完成。'}`,
            request_id: randomUUID(),
          }).then(
            (res) => {
              if (!measured) return;
              if (res.code !== 200) {
                errors++;
                inbox.delete(tag);
                if (errors <= 3) console.error('conversationSend:', JSON.stringify(res).slice(0, 300));
              } else sends.push({ side: family ? 'family' : 'school', rec, httpMs: now() - rec.t0 });
            },
            (err) => {
              if (measured) {
                errors++;
                inbox.delete(tag);
                if (errors <= 3) console.error('conversationSend:', err.message);
              }
            },
          );
          track(p);
        }
      })();
      // a guardian opening the page: conversationInfo, first page
      const reader = (async () => {
        const start = now();
        for (let i = 0; now() < stopAt; i++) {
          const wait = start + (i * 1000) / INFO_RPS - now();
          if (wait > 0) await sleep(wait);
          const f = fams[Math.floor(Math.random() * fams.length)];
          const t0 = now();
          const measured = measuring;
          track(
            call(base, 'GET', 'conversationInfo', f.token, { student_id: f.student_id, limit: 30 }).then(
              (res) => {
                if (!measured) return;
                if (res.code === 200 && res.data.messages.length === 30) infos.push(now() - t0);
                else infoErrors++;
              },
              () => measured && infoErrors++,
            ),
          );
        }
      })();
      // the daily flow: FLOW_RPS taps a second, a class's selection taken through the cycle
      const flow = (async () => {
        const start = now();
        let ids = null;
        let step = CYCLE.length;
        for (let i = 0; now() < stopAt; i++) {
          const wait = start + (i * 1000) / FLOW_RPS - now();
          if (wait > 0) await sleep(wait);
          if (step === CYCLE.length) {
            ids = takeFlow();
            step = 0;
            if (!ids) throw new Error('the bench ran out of flow students');
          }
          const action = CYCLE[step++];
          const t0 = now();
          const measured = measuring;
          const these = ids;
          const p = call(base, 'POST', action, adviser.token, { student_ids: these, event_id: randomUUID() }).then(
            (res) => {
              if (!measured) return;
              flowRequests++;
              flowTimes.push(now() - t0);
              if (res.code === 200) flowEvents += res.data.results.filter((r) => r.ok).length;
              else flowErrors++;
            },
            () => measured && flowErrors++,
          );
          track(p);
          // one selection's steps in turn: the next step of the same children waits for this one's answer
          if (step < CYCLE.length) await p;
        }
      })();
      await sleep(WARMUP_S * 1000);
      measuring = true;
      lag.reset();
      lag.enable();
      const { rows: pgRows } = await sql.query(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
      const pgPids = pgRows.map((r) => r.pid);
      const t0 = now();
      const api0 = cpuOf(api.pid);
      const pg0 = pgPids.map(cpuOf);
      const m0 = machineCpu();
      const self0 = process.cpuUsage();
      const boards0 = boardEvents;
      await Promise.all([sender, reader, flow]);
      const seconds = (now() - t0) / 1000;
      const m1 = machineCpu();
      const self = process.cpuUsage(self0);
      const cpu = {
        api: (cpuOf(api.pid) - api0) / seconds,
        postgres: pgPids.reduce((a, p, i) => a + Math.max(0, cpuOf(p) - pg0[i]), 0) / seconds,
        bench: (self.user + self.system) / 1e6 / seconds,
        machine: ((m1.busy - m0.busy) / (m1.total - m0.total)) * cpus().length,
      };
      lag.disable();
      const load = loadavg()[0];
      await Promise.all(inflight);
      // the last deliveries
      const until = now() + LOST_MS;
      while (now() < until && sends.some((x) => x.rec.at === undefined)) await sleep(50);
      const delivered = sends.filter((x) => x.rec.at !== undefined);
      const lost = sends.length - delivered.length;
      const e2e = stats(delivered.map((x) => x.rec.at - x.rec.t0));
      // a lost message counts as later than any delivered one in the p99 that decides the target
      const withLost = stats([...delivered.map((x) => x.rec.at - x.rec.t0), ...Array(lost).fill(Infinity)]);
      const r = {
        ...level,
        seconds,
        sent: sends.length,
        perSecond: sends.length / seconds,
        family: sends.filter((x) => x.side === 'family').length,
        e2e,
        e2eFamily: stats(delivered.filter((x) => x.side === 'family').map((x) => x.rec.at - x.rec.t0)),
        e2eSchool: stats(delivered.filter((x) => x.side === 'school').map((x) => x.rec.at - x.rec.t0)),
        p99WithLost: withLost.p99,
        http: stats(sends.map((x) => x.httpMs)),
        lost,
        errors,
        skipped,
        info: stats(infos),
        infoErrors,
        flow: {
          perSecond: flowRequests / seconds,
          events: flowEvents / seconds,
          errors: flowErrors,
          http: stats(flowTimes),
          boards: boardEvents - boards0,
        },
        cpu,
        lagP99: lag.percentile(99) / 1e6,
        load,
      };
      r.met = r.p99WithLost <= TARGET_MS && errors === 0;
      results.push(r);
      inbox.clear();
      console.log(
        `M=${level.sockets} sockets, R=${level.rate}/s: ${r.sent} messages (${r.perSecond.toFixed(1)}/s, ${r.family} from guardians), send->other side p50 ${ms(e2e.p50)} p95 ${ms(e2e.p95)} p99 ${ms(e2e.p99)} max ${ms(e2e.max)}; ` +
          `send HTTP p50 ${ms(r.http.p50)} p99 ${ms(r.http.p99)}; lost ${lost}, errors ${errors}, skipped ${skipped}; conversationInfo p50 ${ms(r.info.p50)} p99 ${ms(r.info.p99)} (${r.info.n}, ${infoErrors} errors); ` +
          `flow ${r.flow.perSecond.toFixed(1)} taps/s ${r.flow.events.toFixed(0)} events/s p99 ${ms(r.flow.http.p99)} (${flowErrors} errors); CPU API ${pc(cpu.api)} pg ${pc(cpu.postgres)} bench ${pc(cpu.bench)} machine ${pc(cpu.machine)}; bench loop lag p99 ${r.lagP99.toFixed(0)} ms; load ${load.toFixed(2)}`,
      );
    }

    const {
      rows: [{ v: pgVersion }],
    } = await sql.query(`select current_setting('server_version') as v`);
    const after = machineLoad('conversations.bench.mjs');
    const date = new Date().toISOString().slice(0, 10);
    const met = (yes) => (yes ? 'met' : '**NOT MET**');
    const row = (r) =>
      `| ${fmt(r.sockets)} guardian sockets + ${CLASSES} head teachers' + ${BOARDS} boards; ${r.rate} messages/s asked | ${r.sent} messages in ${r.seconds.toFixed(0)} s (${r.perSecond.toFixed(1)}/s; ${r.family} from guardians, ${r.skipped} skipped at the guardians' limit) | ` +
      `p50 ${ms(r.e2e.p50)}, p95 ${ms(r.e2e.p95)}, p99 ${ms(r.e2e.p99)}, max ${ms(r.e2e.max)} (to guardians p99 ${ms(r.e2eSchool.p99)}, to head teachers p99 ${ms(r.e2eFamily.p99)}); lost ${r.lost}, errors ${r.errors} | ` +
      `p50 ${ms(r.http.p50)}, p99 ${ms(r.http.p99)} | p50 ${ms(r.info.p50)}, p99 ${ms(r.info.p99)} (${r.info.n}; ${r.infoErrors} errors) | ` +
      `${r.flow.perSecond.toFixed(1)} taps/s, ${r.flow.events.toFixed(0)} events/s, tap p99 ${ms(r.flow.http.p99)}, ${r.flow.errors} errors, ${fmt(r.flow.boards)} events on the boards | ` +
      `API ${pc(r.cpu.api)}, Postgres backends ${pc(r.cpu.postgres)}, bench ${pc(r.cpu.bench)} (its loop lag p99 ${r.lagP99.toFixed(0)} ms), machine ${pc(r.cpu.machine)} of ${cpus().length * 100}%; load ${r.load.toFixed(2)} | p99 ≤ ${TARGET_MS} ms: ${met(r.met)} |`;
    const section = [
      '',
      `## API: family conversations — a message to the other side's open page under a peak-like load (${date})`,
      '',
      `\`node bench/conversations.bench.mjs\` in apps/api (also in \`npm run bench\`): the built API (one process, NODE_ENV=production with Redis: the socket.io Redis adapter, jobs queued for a worker not running; DATABASE_POOL_MAX=${POOL_MAX}) on PostgreSQL ${pgVersion}, a database of its own: the demo plus ${fmt(GUARDIANS)} guardians with a child each in ${CLASSES} classes, a head teacher per class (${GUARDIANS / CLASSES} children each), ${HISTORY} messages already in each child's conversation; ${fmt(FLOW_STUDENTS)} more children for the daily flow. ` +
        `Machine: ${cpus().length} cores (${cpus()[0].model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load before ${before.load} (${before.others} other bench/test processes), after ${after.load} (${after.others}).`,
      '',
      `The load model (issue 39's peak bench does not exist yet: this is the bench's own, "peak-like"): at each level, for ${MEASURE_S} s after ${WARMUP_S} s of warm-up, messages at a fixed rate (open loop), ${Math.round((1 - FAMILY_SHARE) * 100)}% a head teacher to a child of their class (received by the child's guardian's socket), ${Math.round(FAMILY_SHARE * 100)}% a guardian to the school (received by the head teacher's socket, the conversation open on their page: read in the last ten minutes, so told outside office hours), each guardian at most ${GUARDIAN_PER_MINUTE} a minute (the API's limit is 6); at the same time a guardian opens a conversation (conversationInfo, first page of 30) ${INFO_RPS} times a second, and the daily flow runs: ${FLOW_RPS} taps a second (open loop), each a class's selection of ${FLOW_BATCH} children taken through entering, dinner, tutoring start and end (as flow.bench.mjs taps) with ${BOARDS} admin board sockets receiving the events. The sockets are socket.io-client over websocket in the bench's process, \`auth: { token, flow: false }\` (the conversation page's: its user's room only). A message's time: from the start of its conversationSend request to the other side's socket receiving its \`conversation.message\` (a lost one, not received within ${LOST_MS / 1000} s, counts as later than all in the p99 of the target).`,
      '',
      `A head teacher's sends are serialised (conversationSend takes an advisory lock per sender in its transaction): at R messages a second each of the ${CLASSES} head teachers sends ${(1 - FAMILY_SHARE).toFixed(1)} × R / ${CLASSES} a second (${(((1 - FAMILY_SHARE) * LEVELS.at(-1).rate) / CLASSES).toFixed(1)} at R = ${LEVELS.at(-1).rate}).`,
      '',
      '| level | messages | send → other side | send request | conversationInfo (first page) | daily flow at the same time | CPU | target |',
      '|---|---|---|---|---|---|---|---|',
      ...results.map(row),
      '',
    ].join('\n');
    if (NO_WRITE) console.log(section);
    else appendSection(section);
    if (!results.every((r) => r.met)) process.exitCode = 1;
  } finally {
    for (const s of sockets) s.disconnect();
    agent.destroy();
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
    // the bench's Redis keys (its queues' jobs, the socket.io adapter's)
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      let cursor = '0';
      for (let i = 0; i < 10_000; i++) {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
        if (cursor === '0') break;
      }
    } catch (err) {
      console.error('redis cleanup:', err.message);
    }
    redis.disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
