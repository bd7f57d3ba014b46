import { Code, mayCall, Role, ROLES } from '@wantuo/shared';
import { RouteCatalogue, type RouteInfo } from '../src/core/auth/route-catalogue';
import { MULTIPART_FIELD } from '../src/core/http/multipart';
import { buildCases, MARKUP_PROBE, NO_INPUT, POLLUTION_KEY, UNKNOWN, type FuzzCase, type RouteShape } from './fuzz/cases';
import { FuzzDatabase, UNCHECKED_TABLES, type Mark } from './fuzz/database';
import { describeRequest, FuzzClient, type FuzzResponse } from './fuzz/http';
import { DEFAULT_SEED, rngFor, seedFromEnv } from './fuzz/prng';
import { ContractUsageService } from '../src/modules/contracts/usage/usage.service';
import { MealsListener } from '../src/modules/meals/meals-listener';
import { FlowMessagesListener } from '../src/modules/messages/flow-messages.listener';
import { PaymentKinds } from '../src/modules/payments/payment-kinds';
import { ReportsListener } from '../src/modules/reports/reports.listener';
import { startTestApp, type DemoUser, type TestApp } from './harness';

/**
 * Issue 9: a catalogue-wide fuzz test. It walks every routed action of the catalogue (RouteCatalogue.all() at run
 * time, so a new module is covered without writing anything here) as each role allowed to call it, public actions
 * also signed out, with cases derived from the action's zod input schema (test/fuzz/cases.ts). For every answer:
 * never HTTP 5xx, always the envelope, never code 200 for a missing required field or an input the schema refuses,
 * a bad token is 401, no markup probe served back verbatim (in the answer, or by a public read after it was stored),
 * no prototype pollution; and nothing written by a refused request (test/fuzz/database.ts: a write log on every table
 * but those it names, and the upload directory). Every batch and every case after a code 200 start from the same
 * database snapshot, so each case sees the same state and replays alone.
 *
 * Sampling keeps the run well under a minute: the route's first caller sends every key case (test/fuzz/cases.ts), half
 * of the core ones and three extras per field; the other callers the baselines, missing fields, bad tokens and a share
 * of the rest. FUZZ_FULL=1 sends everything (a few minutes).
 *
 * Replay: the failure report prints the seed and each request. FUZZ_SEED=<n> (default 20261123, fixed so CI is
 * deterministic; FUZZ_SEED=random explores and prints the seed it drew), FUZZ_ONLY='POST /api/index/login,GET
 * /api/index/accountList' runs some routes, FUZZ_CASE='<caller> <label>' one case of them, FUZZ_VERBOSE=1 prints the
 * run's figures.
 */

const USER_OF: Record<Role, DemoUser> = {
  [Role.Admin]: 'admin',
  [Role.Teacher]: 'teacher',
  [Role.HeadTeacher]: 'adviser',
  [Role.Parent]: 'parent',
  [Role.Operator]: 'operator',
};
type Caller = Role | 'anonymous';
const callerName = (c: Caller) => (c === 'anonymous' ? 'anonymous' : USER_OF[c]);

const SEED = seedFromEnv();
const ONLY = (process.env.FUZZ_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const ONLY_CASE = process.env.FUZZ_CASE?.trim() || null;
const FULL = process.env.FUZZ_FULL === '1';
/** Extras per field (sampled from the pool by the seed); callers after a route's first get a sample of its cases. */
const EXTRAS_PER_FIELD = FULL ? 1000 : 3;
const OTHER_CALLER_PASSING_SHARE = 0.3;
const OTHER_CALLER_REFUSED_SHARE = 0.08;
const CORE_SHARE = 0.5;
const REPEAT_SHARE = 0.25;
/** field schemas already fuzzed by an earlier action */
const fuzzedFields = new WeakSet<object>();

interface Failure {
  route: string;
  caller: string;
  label: string;
  what: string;
  detail: string;
  req?: FuzzCase['req'];
}

let t: TestApp;
let client: FuzzClient;
let db: FuzzDatabase;
const tokens = new Map<Role, string>();
const failures: Failure[] = [];
const stats = { routes: 0, callers: 0, requests: 0, refused: 0, passed: 0, restores: 0, sendMs: 0 };
const routeMs: Array<[string, number]> = [];
const tierCount = { key: 0, core: 0, extra: 0 };

beforeAll(async () => {
  // per-IP rate limits off (RATE_LIMIT_FACTOR=0): the fuzz test signs in and sends codes far more than anyone would
  t = await startTestApp({ runJobs: false, demoPeople: true, env: { RATE_LIMIT_FACTOR: '0' } });
  for (const role of ROLES) tokens.set(role, await t.login(USER_OF[role]));
  // the snapshot every batch starts from: the demo school (classes, students) and the sessions above
  db = await FuzzDatabase.install(t.sql, t.config.uploadDir);
  client = await FuzzClient.listen(t.app.getHttpServer());
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

/**
 * The work a successful request left to run after its commit (the guardians' messages of a flow step, contract usage,
 * meal counts and bookings, daily reports): done before the snapshot comes back, so none of it lands in the next case's window.
 */
async function afterCommitDone(): Promise<void> {
  await Promise.all([
    t.app.get(FlowMessagesListener).settled(),
    t.app.get(ContractUsageService).settled(),
    t.app.get(MealsListener).settled(),
    t.app.get(PaymentKinds).settled(),
    t.app.get(ReportsListener).settled(),
  ]);
}

async function restoreFixture(): Promise<void> {
  await afterCommitDone();
  if (await db.restore()) stats.restores++;
}

function callersOf(route: RouteInfo): Caller[] {
  const out: Caller[] = route.access.kind === 'public' ? ['anonymous'] : [];
  for (const role of ROLES) if (mayCall(route.access, role)) out.push(role);
  return out;
}

function shapeOf(route: RouteInfo): RouteShape {
  return {
    method: route.method as 'GET' | 'POST',
    path: route.path,
    input: route.input,
    multipart: (Reflect.getMetadata(MULTIPART_FIELD, route.handler) as string | undefined) ?? null,
    signedIn: route.access.kind !== 'public',
  };
}

const short = (s: string, max = 300) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** The answer's code, or null when it is not the envelope (a download counts as 200). */
function codeOf(res: FuzzResponse): number | null {
  const b = res.json as { code?: unknown } | undefined;
  if (b && typeof b === 'object' && typeof b.code === 'number') return b.code;
  if (res.status === 200 && /attachment/i.test(String(res.headers['content-disposition'] ?? ''))) return Code.Ok;
  return null;
}

/** What is wrong with the answer's form: 5xx, not the envelope, an HTTP status that does not go with its code. */
function formProblem(res: FuzzResponse): string | null {
  if (res.error) return `no answer (${res.error})`;
  const ct = String(res.headers['content-type'] ?? '');
  if (res.status >= 500) return `HTTP ${res.status}: ${short(res.text)}`;
  if (res.status === 200 && /attachment/i.test(String(res.headers['content-disposition'] ?? ''))) return null;
  const b = res.json as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object' || Array.isArray(b) || typeof b.code !== 'number' || typeof b.msg !== 'string' || !('data' in b)) {
    return `not the envelope: HTTP ${res.status} ${ct} ${short(res.text)}`;
  }
  if (res.status !== 200 || ![Code.Ok, Code.Error, Code.Untoken].includes(b.code as 200))
    return `HTTP ${res.status} with code ${String(b.code)}: ${short(res.text)}`;
  return null;
}

function fail(route: string, caller: string, c: FuzzCase | null, what: string, detail: string) {
  failures.push({ route, caller, label: c?.label ?? '-', what, detail, req: c?.req });
}

async function runCaller(routeKey: string, caller: Caller, cases: FuzzCase[], publicReads: RouteInfo[]): Promise<void> {
  const who = callerName(caller);
  const token = caller === 'anonymous' ? undefined : tokens.get(caller);
  await restoreFixture();
  let base: Mark = await db.mark();
  let pending: FuzzCase[] = [];

  const send = async (c: FuzzCase) => {
    stats.requests++;
    const t0 = performance.now();
    const res = await client.send(c.req, c.token ?? token);
    stats.sendMs += performance.now() - t0;
    return res;
  };

  /** the refused cases since the last mark: did they write? On a change, find who by sending each one again */
  const flush = async () => {
    if (!pending.length) return;
    const changed = await db.writtenSince(base);
    if (changed.length) {
      // find who wrote: each one again, alone, from the snapshot
      await restoreFixture();
      const culprits: string[] = [];
      for (const c of pending) {
        const before = await db.mark();
        await send(c);
        const diff = await db.writtenSince(before);
        if (diff.length) {
          culprits.push(c.label);
          fail(routeKey, who, c, 'a refused request wrote', `changed: ${diff.join(', ')}`);
          await restoreFixture();
        }
      }
      if (!culprits.length) {
        fail(
          routeKey,
          who,
          pending[0],
          'a refused request wrote',
          `changed: ${changed.join(', ')}; one of (not reproduced alone): ${pending.map((c) => c.label).join(', ')}`,
        );
      }
    }
    base = await db.mark();
    pending = [];
  };

  for (const c of cases) {
    if (c.mayPass) await flush();
    let res = await send(c);
    let code = codeOf(res);
    if (code === Code.Untoken && token && c.expectCode === undefined) {
      // an earlier request of this batch ended the session legitimately (logout, a password change): restore, resend
      await flush();
      await restoreFixture();
      base = await db.mark();
      res = await send(c);
      code = codeOf(res);
      if (code === Code.Untoken) fail(routeKey, who, c, 'the session was refused', short(res.text));
    }
    const problem = formProblem(res);
    if (problem) fail(routeKey, who, c, problem.startsWith('HTTP 5') ? 'HTTP 5xx' : 'not the envelope', problem);
    if ((Object.prototype as Record<string, unknown>)[POLLUTION_KEY] !== undefined) {
      fail(routeKey, who, c, 'prototype pollution', `Object.prototype.${POLLUTION_KEY} was set`);
      delete (Object.prototype as Record<string, unknown>)[POLLUTION_KEY];
    }
    if (c.expectCode !== undefined && code !== c.expectCode)
      fail(routeKey, who, c, `code ${c.expectCode} expected`, `code ${String(code)}: ${short(res.text)}`);
    if (code === Code.Ok) {
      stats.passed++;
      if (c.missing) fail(routeKey, who, c, 'code 200 without a required field', `${c.missing} left out; answer ${short(res.text)}`);
      else if (!c.mayPass && c.parsed !== UNKNOWN) fail(routeKey, who, c, 'code 200 for an input its schema refuses', short(res.text));
      if (res.text.includes(MARKUP_PROBE)) fail(routeKey, who, c, 'markup served back verbatim', short(res.text));
      if (carriesProbe(c)) await checkPublicReads(publicReads, routeKey, who, c);
      // every case starts from the snapshot: what a successful request changed goes back
      await restoreFixture();
      base = await db.mark();
      pending = [];
    } else {
      stats.refused++;
      pending.push(c);
    }
  }
  await flush();
}

/** Public reads that need no input (the home page's config, about us): must never serve the markup probe back. */
const PROBE_BYTES = Buffer.from(MARKUP_PROBE);
const carriesProbe = (c: FuzzCase) => c.req.path.includes(encodeURIComponent(MARKUP_PROBE)) || (c.req.body?.includes(PROBE_BYTES) ?? false);

/** After a request that stored the markup probe: the public reads (home page config, about us) must not serve it back. */
async function checkPublicReads(publicReads: RouteInfo[], routeKey: string, who: string, c: FuzzCase): Promise<void> {
  for (const r of publicReads) {
    stats.requests++;
    const res = await client.send({ method: 'GET', path: r.path, headers: {} });
    if (res.text.includes(MARKUP_PROBE)) fail(routeKey, who, c, `markup served back verbatim by GET ${r.path}`, short(res.text));
  }
}

function report(summary: string): string {
  const lines = [`${failures.length} failure(s). ${summary}`, ''];
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const k = `${f.what} · ${f.route}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  let shown = 0;
  for (const [k, list] of groups) {
    lines.push(`✗ ${k} (${list.length} case${list.length > 1 ? 's' : ''}: ${short(list.map((f) => `${f.caller} ${f.label}`).join(', '), 600)})`);
    for (const f of list.slice(0, shown < 60 ? 2 : 0)) {
      shown++;
      lines.push(`  case "${f.caller} ${f.label}": ${f.detail}`);
      if (f.req) lines.push(describeRequest(f.req, f.caller));
      lines.push(`    replay: FUZZ_SEED=${SEED} FUZZ_ONLY='${f.route}' FUZZ_CASE='${f.caller} ${f.label}' npx jest test/fuzz.spec.ts`);
    }
  }
  return lines.join('\n');
}

it('every routed action, as every role allowed to call it, survives its fuzzed inputs', async () => {
  const started = Date.now();
  const catalogue = t.app.get(RouteCatalogue).all();
  // the actions of the catalogue (/api/index/*, /api/sms/send); health, dev and payment callbacks have their own forms
  const routes = catalogue.filter((r) => r.action !== null && (r.method === 'GET' || r.method === 'POST'));
  expect(routes.length).toBeGreaterThan(50);
  const selected = routes.filter((r) => !ONLY.length || ONLY.some((o) => `${r.method} ${r.path}` === o || `${r.method} ${r.path}`.includes(o)));
  expect(selected.length).toBeGreaterThan(0);
  const publicReads = routes.filter((r) => r.method === 'GET' && r.access.kind === 'public' && (!r.input || r.input.safeParse({}).success));

  for (const route of selected) {
    const key = `${route.method} ${route.path}`;
    const routeStart = Date.now();
    stats.routes++;
    const shape = shapeOf(route);
    const callers = callersOf(route);
    for (const [i, caller] of callers.entries()) {
      const who = callerName(caller);
      const rng = rngFor(SEED, `${key} ${who}`);
      let cases = buildCases(shape, rng, { extrasPerField: EXTRAS_PER_FIELD });
      const sampling = !FULL && !ONLY_CASE;
      if (i === 0 && sampling) {
        // the first caller: every key case, a seeded share of the core ones, the sampled extras; a seeded share only of
        // what never reaches the action (the body parser refuses it) and of the refusals of a field schema that an
        // earlier action shares (paging, ids: refused by the same schema the same way)
        const core = cases.filter((c) => c.tier === 'core');
        const sampled = new Set(rng.sample(core, Math.ceil(core.length * CORE_SHARE)));
        cases = cases.filter((c) => c.tier !== 'core' || sampled.has(c));
        const repeats = cases.filter(
          (c) => !c.heavy && ((c.parsed === NO_INPUT && !c.missing) || (c.field && !c.mayPass && !c.missing && fuzzedFields.has(c.field))),
        );
        const kept = new Set(rng.sample(repeats, Math.ceil(repeats.length * REPEAT_SHARE)));
        cases = cases.filter((c) => !repeats.includes(c) || kept.has(c));
        for (const c of cases) if (c.field) fuzzedFields.add(c.field);
      }
      if (i > 0 && sampling) {
        // callers after the first: the baselines, every missing field and bad token, a seeded share of what gets past
        // the schema (only there can the caller's role make a difference) and a smaller one of the rest; nothing heavy
        const light = cases.filter((c) => !c.heavy);
        const keep = light.filter((c) => c.label.startsWith('baseline') || c.missing || c.expectCode !== undefined);
        const passing = light.filter((c) => !keep.includes(c) && c.mayPass);
        const refused = light.filter((c) => !keep.includes(c) && !c.mayPass);
        const sampled = new Set([
          ...keep,
          ...rng.sample(passing, Math.ceil(passing.length * OTHER_CALLER_PASSING_SHARE)),
          ...rng.sample(refused, Math.ceil(refused.length * OTHER_CALLER_REFUSED_SHARE)),
        ]);
        cases = cases.filter((c) => sampled.has(c));
      }
      if (ONLY_CASE) cases = cases.filter((c) => `${who} ${c.label}` === ONLY_CASE);
      if (!cases.length) continue;
      for (const c of cases) tierCount[c.tier]++;
      stats.callers++;
      await runCaller(key, caller, cases, publicReads);
    }
    routeMs.push([key, Date.now() - routeStart]);
  }

  const elapsed = Date.now() - started;
  const summary = `fuzz seed ${SEED}${SEED === DEFAULT_SEED ? ' (the default)' : ''}: ${stats.routes} routes, ${stats.callers} route × caller batches, ${stats.requests} requests (${stats.passed} code 200, ${stats.refused} refused), ${stats.restores} snapshot restores, ${(elapsed / 1000).toFixed(1)} s (${(stats.sendMs / 1000).toFixed(1)} s waiting for answers); cases by tier ${JSON.stringify(tierCount)}; slowest: ${routeMs
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, ms]) => `${k} ${ms} ms`)
    .join(', ')}; tables not checked: ${Object.keys(UNCHECKED_TABLES).join(', ')}`;
  if (process.env.FUZZ_VERBOSE === '1') process.stdout.write(`${summary}\n`);
  if (failures.length) throw new Error(report(summary));
}, 600_000);
