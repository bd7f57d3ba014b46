// Typed data layer benchmark (issue 38): what Kysely adds to a statement when the repositories build their SQL with it
// (kdb over TypeORM's connection, src/core/database/kysely.ts) instead of handing TypeORM a hand-written string.
//   a. one request's read (the leave request by id: 5 joins, 18 columns, as LeaveRepository.row) 20,000 times,
//      once as the SQL text through DataSource.query and once built, compiled and run through kdb(ds), one client and
//      then 8 concurrent, two rounds each, alternating;
//   b. build + compile alone: the same read, and a 30-student set-based insert of 11 columns (the size of a class's
//      flow append), 50,000 times each.
// Runs the built API's modules (dist/, `npm run build -w @wantuo/api` first) on a migrated database of its own, dropped
// afterwards. Appends a dated section with the machine's load to BENCHMARKS.md.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admin, appendSection, benchDatabase, machineLoad } from './bench-lib.mjs';

const require = createRequire(import.meta.url);
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { DataSource } = require('typeorm');
const { dataSourceOptions, migrate } = require(join(dist, 'core/database/data-source.js'));
const { kdb } = require(join(dist, 'core/database/kysely.js'));
const { sql } = require('kysely');

const CALLS = 20_000;
const COMPILES = 50_000;
const { dbName, dbUrl } = benchDatabase('wantuo_typedbench');

const read = (on, id) =>
  kdb(on)
    .selectFrom('leave_requests as l')
    .innerJoin('students as s', 's.id', 'l.student_id')
    .leftJoin('care_class_students as ccs', 'ccs.student_id', 's.id')
    .leftJoin('care_classes as cc', (j) => j.onRef('cc.id', '=', 'ccs.class_id').on('cc.deleted_at', 'is', null))
    .innerJoin('users as ru', 'ru.id', 'l.requested_by')
    .leftJoin('users as rv', 'rv.id', 'l.reviewed_by')
    .select((eb) => [
      'l.id',
      'l.student_id',
      's.name as student_name',
      'cc.id as class_id',
      'cc.name as class_name',
      'l.requested_by',
      'ru.name as requested_by_name',
      'l.start_day',
      'l.end_day',
      sql`(${eb.ref('l.end_day')} - ${eb.ref('l.start_day')} + 1)::int`.as('days'),
      'l.reason',
      'l.status',
      'l.reviewed_by',
      'rv.name as reviewed_by_name',
      'l.review_note',
      'l.reviewed_at',
      'l.version',
      'l.created_at',
    ])
    .where('l.id', '=', id)
    .where('l.school_id', '=', 1);

const append = (on, n) =>
  kdb(on)
    .insertInto('flow_events')
    .values(
      Array.from({ length: n }, (_, i) => ({
        event_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        school_id: 1,
        student_id: i + 1,
        day: '2026-12-07',
        version: 3,
        type: 'student.entered',
        payload: JSON.stringify({}),
        class_id: 1,
        state_after: 'in',
        actor_id: 2,
        occurred_at: new Date(),
      })),
    )
    .returning(['student_id', 'version', 'global_position']);

async function timed(concurrency, fn) {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < CALLS) await fn((next++ % 50) + 1);
    }),
  );
  return Number(process.hrtime.bigint() - t0) / 1e3 / CALLS;
}

await admin(`create database ${dbName}`);
let ds;
try {
  await migrate(dbUrl);
  ds = new DataSource(dataSourceOptions(dbUrl, 10));
  await ds.initialize();
  const text = read(ds, 1).compile().sql;
  const rows = [];
  for (const c of [1, 8]) {
    const r = { c, raw: [], kysely: [] };
    for (let round = 0; round < 2; round++) {
      r.raw.push(await timed(c, (id) => ds.query(text, [id, 1])));
      r.kysely.push(await timed(c, (id) => read(ds, id).execute()));
    }
    rows.push(r);
  }
  const compile = (build) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < COMPILES; i++) build(i).compile();
    return Number(process.hrtime.bigint() - t0) / 1e3 / COMPILES;
  };
  compile((i) => read(ds, i));
  const readCompile = compile((i) => read(ds, i));
  const appendCompile = Math.min(
    compile(() => append(ds, 30)),
    compile(() => append(ds, 30)),
  );
  const { load, others } = machineLoad('typed-layer.bench.mjs');
  const f = (v) => v.toFixed(1);
  appendSection(`
## Typed data layer: what Kysely adds per statement (issue 38) — ${new Date().toISOString().slice(0, 16)}Z

Node ${process.version}, load ${load}, ${others} other test/bench processes. The leave request by id (5 joins, 18 columns) ${CALLS.toLocaleString('en-US')} times
on one DataSource (pool 10), the SQL text through \`DataSource.query\` against the same query built with Kysely and run by \`kdb(ds)\`.

| clients | hand-written text, µs/call (round 1 / 2) | Kysely built + run, µs/call (round 1 / 2) | difference |
|---|---|---|---|
${rows
  .map((r) => {
    const raw = Math.min(...r.raw);
    const k = Math.min(...r.kysely);
    return `| ${r.c} | ${r.raw.map(f).join(' / ')} | ${r.kysely.map(f).join(' / ')} | ${f(k - raw)} µs (${f(((k - raw) / raw) * 100)}%) |`;
  })
  .join('\n')}

Build + compile alone: the read ${f(readCompile)} µs; a 30-row insert of 11 columns (a class's flow append) ${f(appendCompile)} µs.
`);
} finally {
  await ds?.destroy();
  await admin(`drop database if exists ${dbName} with (force)`);
}
