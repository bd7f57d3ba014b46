// Students benchmark (issue "People and after-school-care classes", Done when):
//   1. importing 2,000 students with guardians from one .xlsx (wall time of the request, budget 10 s);
//   2. studentList with a filter over a school of 10,000 students: 500 sequential requests after warm-up,
//      p50/p99 (budget p99 < 50 ms).
// Runs the built API (dist/main.js, `npm run build` first: `npm run bench` does) on a database of its own,
// created on DATABASE_URL's server (default the local postgres) and dropped afterwards. Appends a dated
// section with the machine to BENCHMARKS.md at the repository root.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { admin, ADMIN_URL, freePort, waitFor } from './bench-lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const apiDir = join(here, '..');
const root = join(apiDir, '..', '..');
const dbName = `wantuo_bench_${Date.now().toString(36)}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const COLUMNS = [
  '姓名',
  '性别',
  '出生日期',
  '就读学校',
  '年级',
  '班级',
  '过敏信息',
  '备注',
  '监护人姓名',
  '监护人手机',
  '与学生关系',
  '需要接送',
  '需要晚餐',
];
const GRADES = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级'];
const cn = (n) => String(n).replace(/\d/g, (d) => '零一二三四五六七八九'[Number(d)]);

/** the API runs its jobs in-process: no queue traffic in the figures */
const withoutRedis = (env) => Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'REDIS_URL'));

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  if (!existsSync(join(apiDir, 'dist', 'main.js'))) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  await admin(`create database ${dbName}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(apiDir, 'dist', 'main.js')], {
    env: { ...withoutRedis(process.env), DATABASE_URL: dbUrl, SEED_DEMO: '1', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const sql = new pg.Client({ connectionString: dbUrl });
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

    // 1. import 2,000 students from one .xlsx
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('学生');
    ws.addRow(COLUMNS);
    for (let i = 0; i < 2000; i++) {
      ws.addRow([
        `导入生${cn(i)}`,
        i % 2 ? '男' : '女',
        '2017-09-01',
        '实验小学',
        GRADES[i % 6],
        `${(i % 8) + 1}班`,
        '',
        '',
        `家长${cn(i)}`,
        `1330${String(i).padStart(7, '0')}`,
        '母亲',
        i % 3 ? '是' : '否',
        '是',
      ]);
    }
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const importOnce = async (dryRun) => {
      const form = new FormData();
      form.append('dry_run', dryRun);
      form.append('file', new Blob([xlsx]), 'students.xlsx');
      const t0 = performance.now();
      const res = await fetch(`${base}/api/index/studentImport`, { method: 'POST', headers: { token }, body: form }).then((r) => r.json());
      const ms = performance.now() - t0;
      if (res.code !== 200) throw new Error(`import failed: ${JSON.stringify(res).slice(0, 500)}`);
      return { ms, data: res.data };
    };
    const dry = await importOnce('1');
    const real = await importOnce('0');
    if (real.data.imported !== 2000) throw new Error(`imported ${real.data.imported}`);
    console.log(`import 2,000 rows: dry run ${dry.ms.toFixed(0)} ms, import ${real.ms.toFixed(0)} ms`);

    // 2. a school of 10,000 students (bulk SQL), each with a parent account and a guardian row, in care classes
    const {
      rows: [{ n: have }],
    } = await sql.query(`select count(*)::int as n from students where school_id = $1`, [schoolId]);
    const extra = 10_000 - have;
    await sql.query('begin');
    await sql.query(
      `insert into users (school_id, role, username, name, nickname, mobile)
       select $1, 6, 'bench_p' || g, '家长' || g, '家长' || g, '132' || lpad(g::text, 8, '0') from generate_series(1, $2) g`,
      [schoolId, extra],
    );
    await sql.query(`insert into care_classes (school_id, name, capacity) select $1, '压测班' || g, 500 from generate_series(1, 20) g`, [schoolId]);
    await sql.query(
      `insert into students (school_id, name, gender, birthday, day_school, grade, class_name, needs_shuttle, needs_dinner, created_at)
       select $1, '压测生' || g, 1 + g % 2, date '2016-01-01' + (g % 1500), (array['实验小学','第二小学','育才小学'])[1 + g % 3],
              (array['一年级','二年级','三年级','四年级','五年级','六年级'])[1 + g % 6], (1 + g % 8) || '班', g % 3 > 0, true,
              now() - make_interval(secs => $2 - g)
         from generate_series(1, $2) g`,
      [schoolId, extra],
    );
    await sql.query(
      `insert into student_guardians (school_id, student_id, user_id, relation, is_primary)
       select $1, s.id, u.id, '母亲', true
         from (select id, row_number() over (order by id) rn from students where school_id = $1 and name like '压测生%') s
         join (select id, row_number() over (order by id) rn from users where username like 'bench_p%') u using (rn)`,
      [schoolId],
    );
    await sql.query(
      `insert into care_class_students (school_id, class_id, student_id)
       select $1, c.id, s.id
         from (select id, row_number() over (order by id) rn from students where school_id = $1 and name like '压测生%') s
         join (select id, row_number() over (order by id) rn from care_classes where name like '压测班%') c on c.rn = 1 + s.rn % 20`,
      [schoolId],
    );
    await sql.query('commit');
    await sql.query('analyze');
    const {
      rows: [{ n: total }],
    } = await sql.query(`select count(*)::int as n from students where school_id = $1 and status = 1`, [schoolId]);

    const measure = async (label, query) => {
      const url = `${base}/api/index/studentList?${query}`;
      for (let i = 0; i < 50; i++) await fetch(url, { headers: { token } }).then((r) => r.json());
      const times = [];
      let rows = 0;
      for (let i = 0; i < 500; i++) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { token } }).then((r) => r.json());
        times.push(performance.now() - t0);
        if (res.code !== 200) throw new Error(JSON.stringify(res));
        rows = res.data.total;
      }
      times.sort((a, b) => a - b);
      const r = { label, query, matches: rows, p50: pct(times, 50), p99: pct(times, 99) };
      console.log(`studentList ${label} (${rows} matches): p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`);
      return r;
    };
    const lists = [
      await measure('grade filter', `grade=${encodeURIComponent('三年级')}&page=1&limit=20`),
      await measure('grade + class, page 10', `grade=${encodeURIComponent('三年级')}&class_name=${encodeURIComponent('3班')}&page=10&limit=20`),
      await measure('keyword: part of a name', `keyword=${encodeURIComponent('压测生12')}&limit=20`),
      await measure('keyword: a full guardian mobile', 'keyword=13200004321&limit=20'),
      await measure('keyword: a short mobile prefix (worst case)', 'keyword=1320000&limit=20'),
      await measure(
        'care class, 100 rows',
        `class_id=${(await sql.query(`select id from care_classes where name = '压测班1'`)).rows[0].id}&limit=100`,
      ),
    ];

    const date = new Date().toISOString().slice(0, 10);
    const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
    const ok = (v, budget) => (v < budget ? 'ok' : 'OVER BUDGET');
    const section = [
      '',
      `## API: students import and list (${date})`,
      '',
      `\`npm run bench\` in apps/api (apps/api/bench/students.bench.mjs): the built API on PostgreSQL, its own database. Machine: ${machine}.`,
      '',
      '| measure | result | budget |',
      '|---|---|---|',
      `| import 2,000 students with guardians from one .xlsx (wall time) | ${real.ms.toFixed(0)} ms (dry run ${dry.ms.toFixed(0)} ms) | < 10 s, ${ok(real.ms, 10_000)} |`,
      ...lists.map(
        (l) =>
          `| studentList, ${l.label}, school of ${total} active students (${l.matches} matches), 500 sequential requests | p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms | p99 < 50 ms, ${ok(l.p99, 50)} |`,
      ),
      '',
    ].join('\n');
    const file = join(root, 'BENCHMARKS.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    appendFileSync(file, current.endsWith('\n') ? section : `\n${section}`);
    console.log(section);
    if (real.ms >= 10_000 || lists.some((l) => l.p99 >= 50)) process.exitCode = 1;
  } finally {
    await sql.end().catch(() => {});
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await admin(`drop database if exists ${dbName} with (force)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
