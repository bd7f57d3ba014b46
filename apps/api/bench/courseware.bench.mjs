// Courseware benchmark (issue 15): `coursewareCenter` p99 ≤ 50 ms with 10,000 courseware and every filter.
//   10,000 platform courseware spread over the seeded dictionaries (subject, stage, grade, term, series, edition), 3
//   sections each, the demo school owning 500 of them; then GET /api/index/coursewareCenter as the admin, 300 requests
//   per case after 20 not counted, as many in flight as the machine has cores: no filter, each dictionary alone (a different entry on each request), all six together, a
//   keyword, owned / not owned, and a deep page. Target: p99 of every case ≤ 50 ms.
// Runs the built API (dist/main.js, `npm run build` first: `npm run bench` does) on a database of its own created on
// DATABASE_URL's server and dropped afterwards (COURSEWARE_BENCH_KEEP=1 keeps it); appends a dated section with the
// machine and its load to BENCHMARKS.md; exits 1 when a target is missed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admin, appendSection, benchDatabase, fmt, machineLoad, pct, startDemoApi } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const { dbName, dbUrl } = benchDatabase('wantuo_cwbench');
const KEEP = process.env.COURSEWARE_BENCH_KEEP === '1';

const COURSEWARE = 10_000;
const OWNED = 500;
const PER_CASE = 300;
/** requests in flight: as many as the machine has cores (latency, not a queue behind a saturated CPU) */
const CONCURRENCY = Math.max(2, cpus().length);
const WARM_PER_CASE = 20;
const TARGET_P99_MS = 50;

/** Sends `n` requests (query strings from `make(i)`) `CONCURRENCY` at a time; answers the sorted times and the checks. */
async function measure(base, token, n, make) {
  const times = [];
  let next = 0;
  let errors = 0;
  let total = -1;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      const s = performance.now();
      const res = await fetch(`${base}/api/index/coursewareCenter?${make(i)}`, { headers: { token } }).then((r) => r.json());
      times.push(performance.now() - s);
      if (res.code !== 200) errors++;
      else if (i === 0) total = res.data.total;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), max: times[times.length - 1], errors, total };
}

async function main() {
  if (!existsSync(join(apiDir, 'dist', 'main.js'))) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  const before = machineLoad('courseware.bench.mjs');
  const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-cwbench-'));
  const api = await startDemoApi({ dbName, dbUrl, keep: KEEP, env: { DATA_DIR: dataDir }, healthMs: 120_000 });
  const { base, sql } = api;
  const cases = [];
  let dicts;
  try {
    const login = await fetch(`${base}/api/index/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password: 'Demo@2026' }),
    }).then((r) => r.json());
    const token = login.data.userinfo.token;
    const schoolId = login.data.userinfo.school_id;

    // 10,000 courseware over the dictionaries (each id drawn from its own dictionary), 3 sections each, 500 owned
    const byKind = {};
    for (const r of (await sql.query(`select kind, array_agg(id order by id) as ids from courseware_dicts group by kind`)).rows)
      byKind[r.kind] = r.ids;
    dicts = byKind;
    const op = (await sql.query(`select id from users where username = 'operator'`)).rows[0].id;
    await sql.query('begin');
    const pick = (kind) =>
      `(($${Object.keys(byKind).indexOf(kind) + 1}::int[])[1 + (random() * (array_length($${Object.keys(byKind).indexOf(kind) + 1}::int[], 1) - 1))::int])`;
    const kinds = Object.keys(byKind);
    await sql.query(
      `insert into coursewares (title, subject_id, discipline_id, grade_id, term_id, tixi_id, edition_id, description, price_fen, created_by)
       select '压测课件 ' || g, ${pick('subject')}, ${pick('discipline')}, ${pick('grade')}, ${pick('term')}, ${pick('tixi')}, ${pick('edition')},
              '压测用课件', 100 + (g % 500) * 100, $${kinds.length + 1}
         from generate_series(1, $${kinds.length + 2}) g`,
      [...kinds.map((k) => byKind[k]), op, COURSEWARE],
    );
    await sql.query(
      `insert into courseware_sections (courseware_id, title, sort) select c.id, '第 ' || n || ' 节', n * 10 from coursewares c, generate_series(1, 3) n where c.title like '压测课件%'`,
    );
    await sql.query(
      `insert into courseware_purchases (school_id, courseware_id, price_fen, method, out_trade_no)
       select $1, id, price_fen, 'balance', 'BENCH' || id from coursewares where title like '压测课件%' order by id limit $2`,
      [schoolId, OWNED],
    );
    await sql.query('commit');
    await sql.query('analyze');

    // warm up
    for (let i = 0; i < 30; i++) await fetch(`${base}/api/index/coursewareCenter?page=1&limit=20`, { headers: { token } });

    const of = (kind, i) => byKind[kind][i % byKind[kind].length];
    const defs = [
      ['no filter, first page', () => 'page=1&limit=20'],
      ...['subject', 'discipline', 'grade', 'term', 'tixi', 'edition'].map((k) => [`${k}_id alone`, (i) => `${k}_id=${of(k, i)}&page=1&limit=20`]),
      ['all six filters', (i) => kinds.map((k) => `${k}_id=${of(k, i * 7 + k.length)}`).join('&') + '&page=1&limit=20'],
      [
        'subject + grade + edition',
        (i) => `subject_id=${of('subject', i)}&grade_id=${of('grade', i * 3)}&edition_id=${of('edition', i * 5)}&limit=20`,
      ],
      ['keyword', (i) => `keyword=${encodeURIComponent(`压测课件 ${(i % 90) + 10}`)}&limit=20`],
      ['owned only', () => 'owned=1&limit=20'],
      ['not owned', () => 'owned=0&limit=20'],
      ['page 200 of 500', () => 'page=200&limit=20'],
    ];
    for (const [name, make] of defs) {
      // each case's plan warmed first (not counted)
      await measure(base, token, WARM_PER_CASE, make);
      const r = await measure(base, token, PER_CASE, make);
      cases.push({ name, ...r });
      console.log(
        `${name}: total ${r.total}, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, errors ${r.errors}`,
      );
    }
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const after = machineLoad('courseware.bench.mjs');
  const worst = cases.reduce((m, c) => Math.max(m, c.p99), 0);
  const errors = cases.reduce((n, c) => n + c.errors, 0);
  const passed = worst <= TARGET_P99_MS && errors === 0 && cases.length > 0;
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const section = [
    '',
    `## API: coursewareCenter with ${fmt(COURSEWARE)} courseware (${date})`,
    '',
    `\`npm run bench\` in apps/api (apps/api/bench/courseware.bench.mjs): the built API on PostgreSQL (its own database), ${fmt(COURSEWARE)} platform courseware over the seeded dictionaries (${Object.entries(
      dicts ?? {},
    )
      .map(([k, v]) => `${v.length} ${k}`)
      .join(
        ', ',
      )}), 3 sections each, ${OWNED} owned by the demo school; GET /api/index/coursewareCenter as the admin, ${PER_CASE} requests per case (after ${WARM_PER_CASE} not counted), ${CONCURRENCY} in flight. Machine: ${machine}. Load average (1/5/15 min) ${before.load} at the start and ${after.load} at the end; ${before.others} other jest/bench processes running at the start, ${after.others} at the end.`,
    '',
    '| case | matches (first request) | p50 | p99 | max |',
    '|---|---|---|---|---|',
    ...cases.map((c) => `| ${c.name} | ${fmt(c.total)} | ${c.p50.toFixed(1)} ms | ${c.p99.toFixed(1)} ms | ${c.max.toFixed(1)} ms |`),
    '',
    `Worst p99 ${worst.toFixed(1)} ms, target ≤ ${TARGET_P99_MS} ms: ${passed ? 'ok' : 'MISSED'}; errors ${errors}.`,
    '',
  ].join('\n');
  appendSection(section);
  if (!passed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
