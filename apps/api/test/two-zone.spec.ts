import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { addDays, Code, mayCall, Role, ROLES, type LoginResult } from '@wantuo/shared';
import { Workbook } from 'exceljs';
import JSZip from 'jszip';
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createApp, type ResolvedConfig } from '../src/bootstrap';
import { RouteCatalogue, type RouteInfo } from '../src/core/auth/route-catalogue';
import { loadConfig } from '../src/core/config/config';
import { dataSourceOptions } from '../src/core/database/data-source';
import { createLogger } from '../src/core/logging/logger';
import { seedDemoCourseware } from '../src/seed/demo-courseware';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo-seed';
import { seedShowcase } from '../src/seed/demo-showcase';
import { TEMPLATE_DB, urlFor, withAdmin } from './db';
import { buildObject, shapeOf } from './fuzz/schema';

/**
 * Issue 21, defect 3: the process's zone must never reach an answer. The same API runs twice on the SAME database
 * seeded as `npm start` seeds it (the demo, its four weeks of history, the courseware and the showcase of every module),
 * once with TZ=UTC and once with TZ=Asia/Shanghai (test/two-zone/serve.js: child processes running the sources), and
 * every routed GET action of the catalogue is called as every role allowed to call it, with a minimal valid input
 * (the fuzz test's baseline, test/fuzz/schema.ts) whose ids are the demo's and whose date ranges span the showcase.
 * The answers must be identical — JSON bodies, and the cells of every .xlsx export.
 *
 * What may differ, named: VARYING_FIELDS (values that depend on the moment of the request, not on the zone).
 */

/** Fields whose value depends on the instant of the request (each is asked at a slightly different moment). */
const VARYING_FIELDS: Record<string, string> = {
  // a signed courseware file URL: its expiry is computed from now (coursewareFile, coursewarePdf)
  expires_at: 'signed URL expiry, now + TTL',
  url: 'signed URL carrying that expiry',
  // the school's clock now, in minutes (mealSettings): the two calls may straddle a minute
  now_minutes: 'the current minute',
  // an internal error's id is drawn per request (its message carries it too): both zones failing alike is a match here
  // (the fuzz test is the one that refuses a 500)
  errorId: 'random per request',
  // a pick-up code is signed with a fresh nonce each time it is asked (pickupCode, pickupCodeByLink); its window, too,
  // may straddle 30 s, and with it window_ends_at / valid_until
  code: 'a signed pick-up code with a random nonce',
  window_ends_at: 'the end of the 30-second window of the request',
  valid_until: 'when that window stops being accepted',
  // when the staff phone's copy of the school's key and people was read (pickupVerifyKey)
  fetched_at: 'the moment of the request',
};

const USER_OF: Record<Role, string> = {
  [Role.Admin]: 'admin',
  [Role.Teacher]: 'teacher',
  [Role.HeadTeacher]: 'adviser',
  [Role.Parent]: 'parent',
  [Role.Operator]: 'operator',
};
const ZONES = ['UTC', 'Asia/Shanghai'] as const;

interface Zone {
  name: string;
  child: ChildProcess;
  port: number;
  offset: number;
}

let config: ResolvedConfig;
let dbName: string;
let uploadDir: string;
let app: NestExpressApplication | null = null;
let sql: Client;
const zones: Zone[] = [];
const tokens = new Map<Role, string>();

function serve(zone: string): Promise<Zone> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'two-zone', 'serve.js'), [], {
      env: { ...process.env, TZ: zone, TWO_ZONE_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('message', (m: { port: number; offset: number }) => resolve({ name: zone, child, port: m.port, offset: m.offset }));
    child.once('exit', (code) => reject(new Error(`the ${zone} API exited (${code}): ${err}`)));
  });
}

const mark = (what: string, since: number) => {
  if (process.env.TWO_ZONE_VERBOSE === '1') process.stdout.write(`two zones: ${what} ${Date.now() - since} ms\n`);
};

beforeAll(async () => {
  const t0 = Date.now();
  dbName = `wantuo_tz_${process.pid}_${Date.now().toString(36)}`;
  await withAdmin((c) => c.query(`create database ${dbName} template ${TEMPLATE_DB}`));
  uploadDir = mkdtempSync(join(tmpdir(), 'wantuo-tz-'));
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', RATE_LIMIT_FACTOR: '0' });
  config = { ...base, databaseUrl: urlFor(dbName), databasePoolMax: 3, redisUrl: null, queuePrefix: `test:${dbName}`, uploadDir };
  // seeded as `npm start` seeds a new database (runtime.ts prepareDatabase), without printing the accounts
  const ds = new DataSource(dataSourceOptions(config.databaseUrl, 1));
  await ds.initialize();
  try {
    await seedDemo(ds);
    await seedDemoCourseware(ds, uploadDir);
    await seedShowcase(ds, uploadDir);
  } finally {
    await ds.destroy();
  }
  mark('seeded', t0);
  // the two zones' processes start while this one builds the catalogue (the routes and their input schemas)
  const started = Promise.all(ZONES.map(serve));
  app = await createApp(config, createLogger('silent'), { runJobs: false });
  await app.init();
  mark('catalogue', t0);
  zones.push(...(await started));
  mark('zones listening', t0);
  sql = new Client({ connectionString: config.databaseUrl });
  await sql.connect();
  for (const role of ROLES) {
    const res = await call(zones[0], 'POST', '/api/index/login', undefined, { account: USER_OF[role], password: DEMO_PASSWORD });
    const body = res.json as { code: number; data: LoginResult };
    if (body.code !== Code.Ok) throw new Error(`login ${USER_OF[role]}: ${res.text}`);
    tokens.set(role, body.data.userinfo.token);
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(
    zones.map(
      (z) =>
        new Promise<void>((resolve) => {
          z.child.once('exit', () => resolve());
          z.child.send('stop');
          setTimeout(() => z.child.kill(), 5_000).unref();
        }),
    ),
  );
  await app?.close();
  await sql?.end();
  await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  rmSync(uploadDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  type: string;
  disposition: string;
  text: string;
  json?: unknown;
  body: Buffer;
}

async function call(zone: Zone, method: 'GET' | 'POST', path: string, token?: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${zone.port}${path}`, {
    method,
    headers: { ...(token ? { token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const buf = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const text = type.includes('json') || type.startsWith('text/') ? buf.toString('utf8') : '';
  let json: unknown;
  if (type.includes('json')) json = JSON.parse(text) as unknown;
  return { status: res.status, type, disposition: res.headers.get('content-disposition') ?? '', text, json, body: buf };
}

/** The ids of the demo (after the showcase) an input field takes, per route where one field name means different things. */
async function demoIds(
  schoolId: number,
  parentId: number,
  runningClass: number,
): Promise<{ byField: Record<string, unknown>; byRoute: Record<string, Record<string, unknown>> }> {
  const one = async (q: string, params: unknown[] = [schoolId]): Promise<number | string | null> => {
    const { rows } = await sql.query(q, params);
    return (rows[0] ? Object.values(rows[0])[0] : null) as number | string | null;
  };
  const child = await one(
    `select g.student_id from student_guardians g join students s on s.id = g.student_id where g.user_id = $1 and s.status = 1 order by g.student_id limit 1`,
    [parentId],
  );
  const teaching = await one(`select id from teaching_classes where school_id = $1 and deleted_at is null order by id limit 1`);
  const tutoring = await one(`select id from tutoring_classes where school_id = $1 order by id limit 1`);
  const session = await one(`select id from class_sessions where school_id = $1 and kind = 'teaching' order by day, id limit 1`);
  const homework = await one(`select id from homeworks where school_id = $1 order by id limit 1`);
  const courseware = await one(`select id from coursewares where school_id = $1 or school_id is null order by id limit 1`);
  const section = await one(`select id from courseware_sections where courseware_id = $1 order by sort, id limit 1`, [courseware]);
  const ids: Record<string, unknown> = {
    student_id: child,
    class_id: runningClass,
    school_id: schoolId,
    exam_id: await one(`select id from exams where school_id = $1 order by id limit 1`),
    session_id: session,
    homework_id: homework,
    courseware_id: courseware,
    section_id: section,
  };
  const byId = (id: unknown) => ({ id });
  const teachingRoutes = [
    'teachingClassStudent',
    'selectTeachingClassStudent',
    'teachingClassScheduling',
    'teachingClassSection',
    'teachingTaskHomeWorks',
  ];
  const tutoringRoutes = ['tutorialScheduling', 'tutorialStudent', 'tutorialStudentInfo', 'selectTutorialStudent'];
  const byRoute: Record<string, Record<string, unknown>> = {
    ...Object.fromEntries(teachingRoutes.map((r) => [r, { class_id: teaching }])),
    ...Object.fromEntries(tutoringRoutes.map((r) => [r, { class_id: tutoring }])),
    teacherStudentLeaveInfo: byId(await one(`select id from leave_requests where school_id = $1 order by id limit 1`)),
    studentInfo: byId(child),
    studentSettingInfo: byId(child),
    teacherStudentInfo: byId(child),
    wantuoInfo: byId(runningClass),
    wantuoStudent: byId(runningClass),
    contractInfo: byId(await one(`select id from contracts where school_id = $1 order by id limit 1`)),
    contractRefundPreview: byId(await one(`select id from contracts where school_id = $1 and status = 'active' order by id limit 1`)),
    scoreGoodsInfo: byId(await one(`select id from points_goods where school_id = $1 order by id limit 1`)),
    headTeacherInformInfo: byId(await one(`select id from notices where school_id = $1 order by id limit 1`)),
    adminInformInfo: byId(await one(`select id from notices where school_id = $1 order by id limit 1`)),
    mealGoodsPrices: byId(await one(`select id from meal_goods where school_id = $1 order by id limit 1`)),
    teachingClassInfo: byId(teaching),
    teachingClassChangeScheduling: byId(session),
    tutorialInfo: byId(tutoring),
    teachingTaskWorkInfo: byId(homework),
    homeWorkInfo: byId(homework),
    coursewareData: byId(courseware),
    prepareLessonsInfo: byId(await one(`select id from lesson_plans where school_id = $1 order by id limit 1`)),
    goodsInfo: byId(await one(`select id from store_goods order by id limit 1`, [])),
  };
  return { byField: ids, byRoute };
}

/** The query of a route's minimal valid input, with the demo's ids and date ranges spanning the showcase's weeks. */
function inputOf(
  route: RouteInfo,
  ids: { byField: Record<string, unknown>; byRoute: Record<string, Record<string, unknown>> },
  today: string,
): string {
  if (!route.input) return '';
  const base = buildObject(route.input, 'text');
  if (!base.valid) return '';
  const value: Record<string, unknown> = { ...base.value };
  const name = route.path.split('/').pop()!;
  const over = { ...ids.byField, ...(ids.byRoute[name] ?? {}) };
  for (const k of Object.keys(value)) if (over[k] !== undefined && over[k] !== null) value[k] = over[k];
  // ranges over the past four weeks and the next one (the history and the showcase), a single day today
  const shape = shapeOf(route.input) ?? {};
  const widen: Array<[string, string]> = [
    ['date_from', 'date_to'],
    ['from', 'to'],
  ];
  for (const [a, b] of widen) {
    if (a in shape) value[a] = addDays(today, -27);
    if (b in shape && (b in value || a in value)) value[b] = addDays(today, 7);
  }
  const query = (v: Record<string, unknown>) => new URLSearchParams(Object.entries(v).map(([k, x]): [string, string] => [k, String(x)])).toString();
  return query(route.input.safeParse(value).success ? value : base.value);
}

/** A workbook's cells, sheet by sheet (dates as instants). */
async function cellsOf(body: Buffer | Uint8Array): Promise<Array<{ name: string; rows: unknown[] }>> {
  const wb = new Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets.map((ws) => ({
    name: ws.name,
    rows: ws.getSheetValues().map((r) => (Array.isArray(r) ? r.map((c) => (c instanceof Date ? c.toISOString() : c)) : r)),
  }));
}

/** An answer as compared: JSON without the varying fields; an .xlsx as its cells; anything else by its bytes. */
async function comparable(a: Answer): Promise<unknown> {
  if (a.json !== undefined) {
    const text0 = JSON.stringify(a.json);
    const text = JSON.stringify(a.json).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) =>
      text0.includes(`"errorId":"${id}"`) ? '<error id>' : id,
    );
    return JSON.parse(text, (k, v: unknown) => {
      if (k in VARYING_FIELDS) return '<varies>';
      // the school answers now while it is open (conversationInfo's office): `answers_at` is then the moment asked;
      // closed, it is the next opening, which both zones must agree on
      if (v !== null && typeof v === 'object' && (v as { open_now?: unknown }).open_now === true && 'answers_at' in v)
        return { ...v, answers_at: '<now>' };
      return v;
    }) as unknown;
  }
  if (a.type.includes('spreadsheetml')) return { disposition: a.disposition, sheets: await cellsOf(a.body) };
  if (a.type.includes('zip')) {
    // a child's download (childDataExport): each entry as its content (a workbook as its cells: the zip's and the
    // workbook's own timestamps are the moment of writing), the access-log sheet left out (the other zone's download of
    // the same child, at the same moment, is in it or not)
    const zip = await JSZip.loadAsync(a.body);
    const entries: Array<[string, unknown]> = [];
    for (const [name, file] of Object.entries(zip.files)) {
      if (file.dir) continue;
      const bytes = await file.async('nodebuffer');
      entries.push([
        name,
        name.endsWith('.xlsx') ? (await cellsOf(bytes)).filter((ws) => ws.name !== '访问记录') : createHash('sha256').update(bytes).digest('hex'),
      ]);
    }
    return { disposition: a.disposition, entries };
  }
  return { status: a.status, type: a.type, disposition: a.disposition, text: a.text || createHash('sha256').update(a.body).digest('hex') };
}

it('answers every routed GET action identically under TZ=UTC and TZ=Asia/Shanghai', async () => {
  expect(zones.map((z) => z.offset)).toEqual([0, -480]);
  const [{ rows: school }] = [
    await sql.query(
      `select s.id, (now() at time zone s.timezone)::date::text as today from schools s join users u on u.school_id = s.id where u.username = 'admin'`,
    ),
  ];
  const { rows: people } = await sql.query(`select id, username from users where username in ('parent', 'admin')`);
  const parentId = people.find((p) => p.username === 'parent')!.id as number;
  const { rows: classes } = await sql.query(`select id from care_classes where school_id = $1 and deleted_at is null order by id limit 1`, [
    school[0].id,
  ]);
  const today = school[0].today as string;
  const ids = await demoIds(school[0].id as number, parentId, classes[0].id as number);

  const routes = app!
    .get(RouteCatalogue)
    .all()
    .filter((r) => r.action !== null && r.method === 'GET');
  expect(routes.length).toBeGreaterThan(100);
  const differences: string[] = [];
  let calls = 0;
  let ok = 0;
  for (const route of routes) {
    const callers: Array<Role | undefined> = route.access.kind === 'public' ? [undefined] : ROLES.filter((r) => mayCall(route.access, r));
    const query = inputOf(route, ids, today);
    const path = query ? `${route.path}?${query}` : route.path;
    for (const role of callers) {
      const token = role === undefined ? undefined : tokens.get(role);
      // the same request to each zone's process at once (a GET that writes, like a school's default tutoring types on
      // its first read, is safe against a concurrent first read)
      const [utc, shanghai] = await Promise.all([call(zones[0], 'GET', path, token), call(zones[1], 'GET', path, token)]);
      calls++;
      if ((utc.json as { code?: number } | undefined)?.code === Code.Ok || utc.disposition) ok++;
      const [a, b] = await Promise.all([comparable(utc), comparable(shanghai)]);
      const sa = JSON.stringify(a);
      const sb = JSON.stringify(b);
      if (sa !== sb)
        differences.push(
          `GET ${path} as ${role === undefined ? 'anonymous' : USER_OF[role]}:\n  UTC:      ${firstDifference(sa, sb)[0]}\n  Shanghai: ${firstDifference(sa, sb)[1]}`,
        );
    }
  }
  if (process.env.TWO_ZONE_VERBOSE === '1')
    process.stdout.write(`two zones: ${routes.length} GET routes, ${calls} calls per zone, ${ok} answered with data\n`);
  // most calls reach data (the ids are the demo's), so the comparison is of real answers, not of refusals
  expect(ok / calls).toBeGreaterThan(0.8);
  expect(differences).toEqual([]);
}, 120_000);

/** Where two serialisations part, with some context. */
function firstDifference(a: string, b: string): [string, string] {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 120);
  return [a.slice(from, i + 120), b.slice(from, i + 120)];
}
