// Exams benchmark (issue 14, "Benchmark: examScore with 2,000 scores p99 ≤ 50 ms"):
//   one exam over 20 care classes of 100 students each, 2,000 scores (ties, half points, absent ones), in a school
//   with 60 other exams of 2,000 scores each around it (122,000 scores); GET /api/index/examScore of that exam as the
//   admin (every student with score, class and school rank, per-class statistics and bands), 400 requests one at a
//   time (latency), then 400 with 4 in flight (throughput); also teacherExamScore as the head teacher of one class.
// Runs the built API (dist/main.js, `npm run build` first: `npm run bench` does) on a database of its own created on
// DATABASE_URL's server (default the local postgres) and dropped afterwards (EXAMS_BENCH_KEEP=1 keeps it); appends a
// dated section with the machine and its load to BENCHMARKS.md; exits 1 when the target is missed.
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admin, appendSection, benchDatabase, fmt, machineLoad, pct, startDemoApi } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const { dbName, dbUrl } = benchDatabase('wantuo_examsbench');
const KEEP = process.env.EXAMS_BENCH_KEEP === '1';

const CLASSES = 20;
const PER_CLASS = 100;
const OTHER_EXAMS = 60;
const REQUESTS = 400;
const TARGET_P99_MS = 50;

async function measure(url, token, n, inFlight) {
  const times = [];
  let errors = 0;
  let next = 0;
  let rows = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      next++;
      const s = performance.now();
      const res = await fetch(url, { headers: { token } }).then((r) => r.json());
      times.push(performance.now() - s);
      if (res.code !== 200) errors++;
      else rows = res.data.list.length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const totalMs = performance.now() - t0;
  times.sort((a, b) => a - b);
  return { n, rows, errors, rps: n / (totalMs / 1000), p50: pct(times, 50), p99: pct(times, 99), max: times[times.length - 1] };
}

async function main() {
  if (!existsSync(join(apiDir, 'dist', 'main.js'))) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  const before = machineLoad('exams.bench.mjs');
  const api = await startDemoApi({ dbName, dbUrl, keep: KEEP });
  const { base, sql } = api;
  let a;
  let b;
  let c;
  try {
    const { login } = api;
    const adm = await login('admin');
    const adviser = await login('adviser');
    const schoolId = adm.school_id;

    await sql.query('begin');
    const classes = (
      await sql.query(
        `insert into care_classes (school_id, name, capacity, head_teacher_id) select $1, '压测' || g || '班', 500, case when g = 1 then $3::int end from generate_series(1, $2) g returning id`,
        [schoolId, CLASSES, adviser.id],
      )
    ).rows.map((r) => r.id);
    const students = (
      await sql.query(
        `insert into students (school_id, name, grade) select $1, '考试压测' || g, '四年级' from generate_series(1, $2) g returning id`,
        [schoolId, CLASSES * PER_CLASS],
      )
    ).rows.map((r) => r.id);
    await sql.query(
      `insert into care_class_students (school_id, class_id, student_id) select $1, ($2::int[])[1 + (i - 1) / $4], s from unnest($3::int[]) with ordinality as u(s, i)`,
      [schoolId, classes, students, PER_CLASS],
    );
    const exams = (
      await sql.query(
        `insert into exams (school_id, name, subject, exam_day, full_mark, created_by) select $1, '压测考试' || g, case when g % 2 = 0 then '数学' else '语文' end, date '2026-09-01' + g, 100, $3
           from generate_series(0, $2) g returning id`,
        [schoolId, OTHER_EXAMS, adm.id],
      )
    ).rows.map((r) => r.id);
    await sql.query(
      `insert into exam_classes (exam_id, class_id, school_id) select e, c, $1 from unnest($2::int[]) e cross join unnest($3::int[]) c`,
      [schoolId, exams, classes],
    );
    // scores: 0..200 half-points with many ties, one in 40 absent
    await sql.query(
      `insert into exam_scores (exam_id, student_id, school_id, class_id, score2, absent, entered_by)
       select e, ccs.student_id, $1, ccs.class_id, case when (ccs.student_id + e) % 40 = 0 then null else (ccs.student_id * 7 + e * 13) % 201 end,
              (ccs.student_id + e) % 40 = 0, $3
         from unnest($2::int[]) e cross join care_class_students ccs where ccs.class_id = any($4::int[])`,
      [schoolId, exams, adm.id, classes],
    );
    await sql.query('commit');
    await sql.query('analyze');
    const [{ n: scoreRows }] = (await sql.query(`select count(*)::int as n from exam_scores`)).rows;
    const examId = exams[0];

    const url = `${base}/api/index/examScore?exam_id=${examId}`;
    for (let i = 0; i < 30; i++) await fetch(url, { headers: { token: adm.token } });
    // three rounds: the machine is shared (2 cores), the median round's p99 is the figure held against the target
    const rounds = [];
    for (let r = 0; r < 3; r++) {
      const m = await measure(url, adm.token, REQUESTS, 1);
      rounds.push(m);
      console.log(
        `a${r + 1}. examScore, ${m.rows} rows, one at a time: p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.max.toFixed(1)} ms, errors ${m.errors}`,
      );
    }
    a = [...rounds].sort((x, y) => x.p99 - y.p99)[1];
    a.rounds = rounds;
    b = await measure(url, adm.token, REQUESTS, 4);
    console.log(`b. examScore, 4 in flight: ${b.rps.toFixed(0)} req/s, p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms, errors ${b.errors}`);
    const turl = `${base}/api/index/teacherExamScore?exam_id=${examId}`;
    for (let i = 0; i < 10; i++) await fetch(turl, { headers: { token: adviser.token } });
    c = await measure(turl, adviser.token, REQUESTS, 1);
    console.log(
      `c. teacherExamScore (one own class of ${PER_CLASS}), one at a time: p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms, errors ${c.errors}`,
    );
    a.scoreRows = scoreRows;
  } finally {
    await api.stop();
  }

  const after = machineLoad('exams.bench.mjs');
  const met = a.p99 <= TARGET_P99_MS && a.rounds.every((r) => r.errors === 0 && r.rows === CLASSES * PER_CLASS) && b.errors + c.errors === 0;
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const section = [
    '',
    `## API: exam scores (${date})`,
    '',
    `\`npm run bench\` in apps/api (apps/api/bench/exams.bench.mjs): the built API on PostgreSQL (its own database), one exam over ${CLASSES} care classes of ${PER_CLASS} students with ${fmt(CLASSES * PER_CLASS)} scores (ties, half points, one in 40 absent) among ${fmt(a.scoreRows)} scores of ${OTHER_EXAMS + 1} exams; requests one after another after a warm-up. Machine: ${machine}. Load average (1/5/15 min) ${before.load} at the start and ${after.load} at the end; ${before.others} other jest/bench/browser-test processes running at the start, ${after.others} at the end.`,
    '',
    '| measure | result | target |',
    '|---|---|---|',
    `| a. GET examScore (admin): ${fmt(a.rows)} students with score, class and school rank, per-class statistics, bands; one request at a time, 3 rounds of ${REQUESTS} | p99 per round ${a.rounds.map((r) => `${r.p99.toFixed(1)} ms`).join(', ')} (p50 ${a.rounds.map((r) => r.p50.toFixed(1)).join(', ')} ms); median round: p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms; errors ${a.rounds.reduce((n, r) => n + r.errors, 0)} | p99 ≤ ${TARGET_P99_MS} ms (median round), ${met ? 'ok' : 'MISSED'} |`,
    `| b. the same, 4 in flight | ${b.rps.toFixed(0)} requests/s, p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms; errors ${b.errors} | (throughput) |`,
    `| c. GET teacherExamScore (head teacher of one of the classes: ${c.rows} students shown, ranks over all ${fmt(CLASSES * PER_CLASS)}) | p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99.toFixed(1)} ms; errors ${c.errors} | (no target) |`,
    '',
  ].join('\n');
  appendSection(section);
  if (!met) {
    console.error('missed the examScore target');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
