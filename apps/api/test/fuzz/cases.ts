import { parse as parseQuery } from 'node:querystring';
import type { ZodType } from 'zod';
import type { Rng } from './prng';
import { boundsOf, buildObject, fieldsOf, lengthOf, optionsOf, type Field, type Mode } from './schema';

/**
 * The fuzz test's cases for one route and caller, derived from the route's zod input schema: a valid input (the
 * baseline), then one change at a time — each field left out, of the wrong type, out of range, non-finite, 10,000
 * characters, NUL, lone surrogates, control characters, SQL and HTML fragments — and changes of the whole request:
 * unknown fields, prototype keys, malformed JSON, wrong content types and encodings, an oversized body, a bad token.
 * Every case carries what the server's parsers will hand the action (`parsed`), so the test knows whether the
 * schema accepts it (a request that may succeed and write) or refuses it (must answer code != 200, write nothing).
 */

/** Markup whose verbatim return in an answer means the server stored or echoed unescaped HTML. */
export const MARKUP_PROBE = '<img src=x onerror=alert(1)>';
/** The key a prototype-pollution case tries to plant on Object.prototype (checked in the test process). */
export const POLLUTION_KEY = 'fuzzPolluted';

/** The request never reaches the action (body parser, multer or the HTTP layer refuses it). */
export const NO_INPUT = Symbol('no-input');
/** The test does not model what the server's parsers make of it: no agreement check, treated as "may write". */
export const UNKNOWN = Symbol('unknown');

export interface FuzzRequest {
  method: 'GET' | 'POST';
  /** path and raw query string, exactly as sent */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzCase {
  /** unique within the route and caller; FUZZ_CASE=<caller> <label> replays it */
  label: string;
  req: FuzzRequest;
  /** what the action's input decorator will see */
  parsed: unknown;
  /** the input schema accepts `parsed` (or the test cannot tell): the request may succeed and write */
  mayPass: boolean;
  /** the required field this case leaves out: the answer must not be code 200 */
  missing?: string;
  /** send this token instead of the caller's */
  token?: string;
  /** the answer's code must be this one */
  expectCode?: number;
  /**
   * key: always sent as the route's first caller (a missing field, NUL, lone surrogates, 10,000 characters, markup,
   * SQL, out of range, the wrong type, unknown fields, the baselines); core: a seeded half of them; extra: a seeded
   * few of a larger pool per field. The other callers get their own sample (fuzz.spec.ts).
   */
  tier: Tier;
  /** costly to send: the route's first caller only (every caller with FUZZ_FULL=1) */
  heavy?: boolean;
  /** the schema of the field this case changes (a field schema shared by many actions, like paging, is refused the same way everywhere) */
  field?: ZodType;
}

export type Tier = 'key' | 'core' | 'extra';

/** The mutations every caller sends (see FuzzCase.tier). */
const KEY_MUTATIONS = new Set([
  'nul',
  'lone-surrogate',
  'long10k',
  'html',
  'sql',
  'empty',
  'above-max',
  'int32-overflow',
  'negative',
  'infinity',
  'text',
  'null',
  'repeated',
  'not-an-option',
  'empty-array',
  'too-many-items',
  'wrong-item',
  'empty-object',
]);
const KEY_REQUEST_CASES = new Set([
  'baseline',
  'baseline-rich',
  'body:unknown-field',
  'body:proto-key',
  'query:unknown-field',
  'query:nul-key',
  'form:unknown-field',
  'file:name-nul',
  'file:name-html',
]);

export interface RouteShape {
  method: 'GET' | 'POST';
  path: string;
  input: ZodType | null;
  /** the multipart file field, for upload routes */
  multipart: string | null;
  signedIn: boolean;
}

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Strings that may confuse a query, a template or a renderer (the core set always has NUL, surrogates, SQL, HTML). */
const EXTRA_STRINGS = [
  '1; DROP TABLE users; --',
  "'; select pg_sleep(0); --",
  '%',
  '_',
  '\\',
  "'",
  '"',
  '${7*7}{{7*7}}<%= 7*7 %>',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '\u202egnp.exe',
  '😀👨‍👩‍👧‍👦',
  '\u200b\u200d\ufeff',
  '\u3000\u00a0',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '１２３',
  'a\r\nb',
  '\t',
  ' fuzz ',
  'e\u0301\u0301\u0301',
  '\u2028\u2029',
  'ǅﬁß',
];

const EXTRA_NUMBERS = [2 ** 63, -(2 ** 31) - 1, 0.1 + 0.2, 1e-7, -1e308, 5e-324, 2 ** 32, -(2 ** 53)];

const CHAR_POOLS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  '晚托管理平台学生家长老师班级接送',
  'ÀÉÎÕÜßøåæœ',
  'שלוםمرحبا',
  '\u0301\u0308\u200b\u200d\u2060',
].map((p) => [...p]);
const EMOJI = ['😀', '👨‍👩‍👧', '🇨🇳', '𠀀'];

/** A random string from mixed scripts and symbols (no control characters or lone surrogates: the core has those). */
function randomString(rng: Rng): string {
  const len = rng.chance(0.1) ? rng.int(200, 2000) : rng.int(1, 40);
  let s = '';
  for (let i = 0; i < len; i++) {
    if (rng.chance(0.05)) s += rng.pick(EMOJI);
    else s += rng.pick(rng.pick(CHAR_POOLS));
  }
  return s;
}

function randomNumber(rng: Rng): number {
  switch (rng.int(0, 4)) {
    case 0:
      return rng.int(-(2 ** 31), 2 ** 31);
    case 1:
      return (rng.next() - 0.5) * 10 ** rng.int(-10, 300);
    case 2:
      return rng.int(-1000, 1000) + 0.5;
    case 3:
      return 2 ** rng.int(31, 70) * (rng.chance(0.5) ? 1 : -1);
    default:
      return rng.int(-5, 5);
  }
}

function randomJson(rng: Rng, depth = 0): unknown {
  const k = rng.int(0, depth > 2 ? 3 : 5);
  switch (k) {
    case 0:
      return randomString(rng);
    case 1:
      return randomNumber(rng);
    case 2:
      return rng.chance(0.5);
    case 3:
      return null;
    case 4:
      return Array.from({ length: rng.int(0, 3) }, () => randomJson(rng, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: rng.int(0, 3) }, (_, i) => [`k${i}`, randomJson(rng, depth + 1)]));
  }
}

// ---- how a value is written down ----

/** A mutation: a value for the field, raw JSON text (what JSON.stringify cannot write), or leaving it out. */
interface Mut {
  label: string;
  value?: unknown;
  /** json mode: raw JSON text for the value; text mode: the raw, already percent-encoded value (sent as bytes in a form) */
  raw?: string;
  drop?: boolean;
  extra?: boolean;
  heavy?: boolean;
}

const RAW_MARK = '__fuzz_raw_7f3a__';

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function setPath(target: Record<string, unknown>, path: Array<string | number>, value: unknown, drop: boolean): void {
  let cur: Record<string | number, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[k] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (drop) {
    if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1);
    else delete cur[last];
  } else cur[last] = value;
}

function jsonBody(base: Record<string, unknown>, path: Array<string | number>, m: Mut): string {
  const obj = clone(base);
  if (m.raw !== undefined) {
    setPath(obj, path, RAW_MARK, false);
    return JSON.stringify(obj).replace(JSON.stringify(RAW_MARK), m.raw);
  }
  setPath(obj, path, m.value, !!m.drop);
  return JSON.stringify(obj);
}

/** Parses JSON as express.json does (strict: an object or an array at the top), or NO_INPUT. */
function parseJsonLikeServer(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return NO_INPUT;
  try {
    return JSON.parse(text);
  } catch {
    return NO_INPUT;
  }
}

/** The query part of a URL from string fields, each value percent-encoded unless given raw. */
function queryOf(fields: Array<[string, string, boolean?]>): string {
  return fields.map(([k, v, raw]) => `${encodeURIComponent(k)}=${raw ? v : encodeURIComponent(v)}`).join('&');
}

type TextFields = Array<[string, string | Buffer, boolean?]>;

function textFieldsOf(base: Record<string, unknown>): TextFields {
  const out: TextFields = [];
  for (const [k, v] of Object.entries(base)) {
    if (Array.isArray(v)) for (const item of v) out.push([k, String(item)]);
    else if (v !== undefined && v !== null) out.push([k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  }
  return out;
}

/** What multer makes of text fields: strings, a repeated name becomes an array. */
function multipartFieldsParsed(fields: TextFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of fields) {
    const s = Buffer.isBuffer(v) ? v.toString('utf8') : v;
    if (k in out) out[k] = ([] as unknown[]).concat(out[k], s);
    else out[k] = s;
  }
  return out;
}

interface FilePart {
  field: string;
  /** the filename parameter, raw (UTF-8 bytes), or given as RFC 5987 `filename*` when `star` */
  name: string;
  star?: boolean;
  type: string;
  content: Buffer;
}

const BOUNDARY = '----fuzzBoundary7f3a';

function multipartBody(fields: TextFields, files: FilePart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const [k, v] of fields) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n`));
    chunks.push(Buffer.isBuffer(v) ? v : Buffer.from(v));
    chunks.push(Buffer.from('\r\n'));
  }
  for (const f of files) {
    const name = f.star ? `filename*=UTF-8''${f.name}` : `filename="${f.name}"`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f.field}"; ${name}\r\nContent-Type: ${f.type}\r\n\r\n`));
    chunks.push(f.content);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

// ---- mutations of one field ----

function numberMutations(f: Field, text: boolean): Mut[] {
  const { min, max } = boundsOf(f.schema);
  const out: Mut[] = [
    { label: 'negative', value: -1 },
    { label: 'zero', value: 0 },
    { label: 'fraction', value: 1.5 },
    { label: 'int32-overflow', value: 2 ** 31 },
    { label: 'unsafe-int', value: 2 ** 53 + 2 },
    { label: 'huge', value: 1e308 },
  ];
  if (min !== undefined) out.push({ label: 'below-min', value: min - 1 });
  if (max !== undefined) out.push({ label: 'above-max', value: max + 1 });
  if (text) {
    out.push(
      { label: 'infinity', value: 'Infinity' },
      { label: 'nan', value: 'NaN' },
      { label: 'exp-overflow', value: '1e999' },
      { label: 'hex', value: '0x1F' },
      { label: 'spaces', value: ' 7 ' },
      { label: 'many-digits', value: '9'.repeat(400) },
      { label: 'arabic-digit', value: '٣', extra: true },
      { label: 'exp', value: '1e3', extra: true },
    );
  } else {
    out.push(
      { label: 'infinity', raw: '1e999' },
      { label: 'neg-infinity', raw: '-1e999' },
      { label: 'neg-zero', raw: '-0' },
      { label: 'many-digits', raw: '9'.repeat(400) },
      { label: 'numeric-string', value: '1' },
    );
  }
  for (const n of EXTRA_NUMBERS) out.push({ label: `extra-number(${n})`, value: n, extra: true });
  return out.map((m) => (text && m.value !== undefined && typeof m.value === 'number' ? { ...m, value: String(m.value) } : m));
}

function stringMutations(f: Field, text: boolean): Mut[] {
  const valid = typeof f.valid === 'string' && f.valid ? f.valid : 'fuzz';
  const { max } = lengthOf(f.schema);
  const out: Mut[] = [
    { label: 'empty', value: '' },
    { label: 'blank', value: '   ' },
    { label: 'long10k', value: 'x'.repeat(10_000) },
    { label: 'nul', value: `${valid}\u0000` },
    { label: 'nul-only', value: '\u0000' },
    { label: 'control', value: `${valid}\u0007\u001b[0m` },
    { label: 'sql', value: `${valid}' OR '1'='1' --` },
    { label: 'html', value: MARKUP_PROBE },
  ];
  if (max !== undefined && max < 10_000) out.push({ label: 'max-length+1', value: 'x'.repeat(max + 1) });
  if (text) {
    out.push(
      { label: 'long-cjk', value: '晚'.repeat(1000) },
      { label: 'lone-surrogate', raw: '%ED%A0%80' },
      { label: 'bad-utf8', raw: '%C0%AF%FF' },
      { label: 'bad-escape', raw: '%E4%B8' },
      { label: 'bare-percent', raw: '%' },
    );
  } else {
    out.push(
      { label: 'long10k-cjk', value: '晚'.repeat(10_000) },
      // JSON.stringify would write a lone surrogate escaped ("\ud800") anyway; raw text says exactly what is sent
      { label: 'lone-surrogate', raw: `"${valid.replace(/["\\]/g, '')}\\ud800"` },
      { label: 'lone-low-surrogate', raw: '"\\udc00fuzz"' },
    );
  }
  for (const s of EXTRA_STRINGS) out.push({ label: `extra-string(${JSON.stringify(s)})`, value: s, extra: true });
  return out;
}

function wrongTypes(f: Field, text: boolean, rng: Rng): Mut[] {
  if (text) return [{ label: 'repeated', value: [String(f.valid ?? 'fuzz'), 'fuzz'] }];
  const k = f.kinds;
  const out: Mut[] = [];
  if (!k.has('null')) out.push({ label: 'null', value: null });
  if (!k.has('string') && !k.has('enum')) out.push({ label: 'type-string', value: 'fuzz' });
  if (!k.has('number') && !k.has('enum')) out.push({ label: 'type-number', value: 12345 });
  if (!k.has('boolean')) out.push({ label: 'type-boolean', value: true });
  if (!k.has('array')) out.push({ label: 'type-array', value: [f.valid ?? 'fuzz'] });
  if (!k.has('object')) out.push({ label: 'type-object', value: { fuzz: f.valid ?? 1 } });
  out.push({ label: 'random-json', value: randomJson(rng), extra: true });
  return out;
}

function enumMutations(f: Field, text: boolean): Mut[] {
  const opts = optionsOf(f.schema);
  const first = opts[0];
  const out: Mut[] = [{ label: 'not-an-option', value: 'fuzz-no-such-option' }];
  if (!text && typeof first === 'number') out.push({ label: 'option-as-string', value: String(first) });
  if (!text && typeof first === 'string') out.push({ label: 'option-as-number', value: 1 });
  if (typeof first === 'string' && first.toUpperCase() !== first) out.push({ label: 'option-upper', value: first.toUpperCase(), extra: true });
  if (typeof first === 'number')
    out.push({ label: 'option-plus-one', value: text ? String(Math.max(...(opts as number[])) + 1) : Math.max(...(opts as number[])) + 1 });
  return out;
}

function arrayMutations(f: Field): Mut[] {
  const { max } = lengthOf(f.schema);
  const el = Array.isArray(f.valid) && f.valid.length ? f.valid[0] : 1;
  const over = Math.min((max ?? 1000) + 1, 10_000);
  return [
    { label: 'empty-array', value: [] },
    { label: 'null-item', value: [null] },
    { label: 'wrong-item', value: [typeof el === 'string' ? 12345 : 'fuzz'] },
    { label: 'nested-array', value: [[el]] },
    { label: 'duplicates', value: [el, el] },
    { label: 'too-many-items', value: Array.from({ length: over }, () => el) },
    { label: 'items-10k', value: Array.from({ length: 10_000 }, (_, i) => (typeof el === 'number' ? i + 1 : el)), heavy: true },
  ];
}

function objectMutations(f: Field): Mut[] {
  const valid = f.valid && typeof f.valid === 'object' && !Array.isArray(f.valid) ? f.valid : {};
  return [
    { label: 'empty-object', value: {} },
    { label: 'unknown-key', value: { ...valid, fuzz_unknown: 1 } },
  ];
}

function fieldMutations(f: Field, mode: Mode, rng: Rng): Mut[] {
  const text = mode === 'text';
  const out: Mut[] = [];
  if (f.kinds.has('string') || f.kinds.has('any')) out.push(...stringMutations(f, text));
  else if (text) {
    // a query / form value is always a string: the text cases apply to numbers and flags as well
    out.push(
      { label: 'empty', value: '' },
      { label: 'nul', value: `${String(f.valid ?? 1)}\u0000` },
      { label: 'long10k', value: '9'.repeat(10_000) },
      { label: 'text', value: 'fuzz' },
      { label: 'sql', value: `${String(f.valid ?? 1)}' OR '1'='1' --` },
      { label: 'html', value: MARKUP_PROBE },
      { label: 'lone-surrogate', raw: '%ED%A0%80' },
      { label: 'bare-percent', raw: '%' },
    );
  }
  if (f.kinds.has('number')) out.push(...numberMutations(f, text));
  if (f.kinds.has('enum')) out.push(...enumMutations(f, text));
  if (f.kinds.has('boolean') && !text) out.push({ label: 'bool-as-string', value: 'true' }, { label: 'bool-as-number', value: 2 });
  if (f.kinds.has('array') && !text) out.push(...arrayMutations(f));
  if (f.kinds.has('object') && !text) out.push(...objectMutations(f));
  out.push(...wrongTypes(f, text, rng));
  out.push({ label: 'random-string', value: randomString(rng), extra: true }, { label: 'random-string-2', value: randomString(rng), extra: true });
  if (f.kinds.has('number')) out.push({ label: 'random-number', value: text ? String(randomNumber(rng)) : randomNumber(rng), extra: true });
  return out;
}

// ---- the cases of a route ----

export interface CaseOptions {
  /** extras kept per field (a seeded sample of the extra pool) */
  extrasPerField: number;
}

export function buildCases(route: RouteShape, rng: Rng, opts: CaseOptions): FuzzCase[] {
  const schema = route.input;
  const mode: Mode = route.method === 'GET' || route.multipart ? 'text' : 'json';
  const baseline = schema ? buildObject(schema, mode) : { value: {}, rich: {}, valid: true };
  const fields = schema ? fieldsOf(schema, baseline.rich, mode) : [];
  const cases: FuzzCase[] = [];
  const accepts = (parsed: unknown): boolean => {
    if (parsed === NO_INPUT) return false;
    if (parsed === UNKNOWN || !schema) return true;
    try {
      return schema.safeParse(parsed ?? {}).success;
    } catch {
      // a schema that throws on some input: the server will show what it does with it
      return true;
    }
  };
  const add = (c: Omit<FuzzCase, 'mayPass' | 'tier'> & { mayPass?: boolean; tier?: Tier }) => {
    let label = c.label;
    for (let n = 2; cases.some((x) => x.label === label); n++) label = `${c.label}#${n}`;
    const tier = c.tier ?? (KEY_REQUEST_CASES.has(c.label) || c.expectCode !== undefined ? 'key' : 'core');
    cases.push({ ...c, label, tier, mayPass: c.mayPass ?? accepts(c.parsed) });
  };

  const builders = route.method === 'GET' ? getBuilders(route) : route.multipart ? multipartBuilders(route) : jsonBuilders(route);

  for (const f of fields) {
    const name = f.path.join('.');
    // fields outside the minimal baseline (optional ones, and those nested in them) live in the rich one
    const base = f.path.length === 1 && f.path[0] in baseline.value ? baseline.value : baseline.rich;
    // required: the schema refuses the input without it (a default or a preprocess may make a key optional, a rule
    // of the whole object may require an optional one); a key the schema calls required but takes away is a case too
    const dropped = builders.field(base, f.path, { label: 'missing', drop: true });
    if (!accepts(dropped.parsed)) add({ label: `${name}:missing`, missing: name, tier: 'key', field: f.schema, ...dropped });
    else if (!f.optional) add({ label: `${name}:absent`, tier: 'key', field: f.schema, ...dropped });
    const muts = fieldMutations(f, mode, rng);
    const core = muts.filter((m) => !m.extra);
    const extras = rng.sample(
      muts.filter((m) => m.extra),
      opts.extrasPerField,
    );
    for (const m of [...core, ...extras]) {
      const tier: Tier = m.extra ? 'extra' : KEY_MUTATIONS.has(m.label) ? 'key' : 'core';
      add({ label: `${name}:${m.label}`, tier, heavy: m.heavy, field: f.schema, ...builders.field(base, f.path, m) });
    }
  }

  for (const c of builders.request(baseline.value, fields)) add(c);
  // the baselines last (the minimal valid input, and every optional field filled in): a valid request may change
  // what the others see (delete the row they name)
  add({ label: 'baseline', ...builders.whole(baseline.value) });
  if (JSON.stringify(baseline.rich) !== JSON.stringify(baseline.value)) add({ label: 'baseline-rich', ...builders.whole(baseline.rich) });
  if (route.signedIn) {
    for (const [label, token] of [
      ['token:junk', 'fuzz'],
      ['token:long', 'x'.repeat(5000)],
      ['token:sql', "' OR '1'='1"],
    ] as const) {
      add({ label, token, expectCode: 401, ...builders.whole(baseline.value) });
    }
  }
  return cases;
}

type Built = Pick<FuzzCase, 'req' | 'parsed'>;
interface Builders {
  whole(value: Record<string, unknown>): Built;
  field(base: Record<string, unknown>, path: Array<string | number>, m: Mut): Built;
  /** the cases about the request as a whole: unknown fields, malformed bodies, content types */
  request(base: Record<string, unknown>, fields: Field[]): Array<Omit<FuzzCase, 'mayPass' | 'tier'> & { mayPass?: boolean }>;
}

function jsonBuilders(route: RouteShape): Builders {
  const post = (text: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }): FuzzRequest => ({
    method: 'POST',
    path: route.path,
    headers,
    body: Buffer.isBuffer(text) ? text : Buffer.from(text),
  });
  const json = (text: string): Built => ({ req: post(text), parsed: parseJsonLikeServer(text) });
  return {
    whole: (value) => json(JSON.stringify(value)),
    field: (base, path, m) => json(jsonBody(base, path, m)),
    request(base) {
      const baseText = JSON.stringify(base);
      const inner = baseText.slice(1, -1);
      const withKeys = (extra: string) => `{${extra}${inner ? `,${inner}` : ''}}`;
      const form = queryOf(textFieldsOf(base).map(([k, v]) => [k, String(v)]));
      const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
      const out: Array<Omit<FuzzCase, 'mayPass' | 'tier'>> = [
        { label: 'body:unknown-field', ...json(withKeys('"fuzz_unknown":"fuzz"')) },
        { label: 'body:unknown-key-nul', ...json(withKeys('"fu\\u0000zz":1')) },
        { label: 'body:proto-key', ...json(withKeys(`"__proto__":{"${POLLUTION_KEY}":"yes"}`)) },
        { label: 'body:constructor-key', ...json(withKeys(`"constructor":{"prototype":{"${POLLUTION_KEY}":"yes"}}`)) },
        { label: 'body:empty-object', ...json('{}') },
        { label: 'body:empty', req: post(''), parsed: {} },
        { label: 'body:truncated', ...json(baseText.slice(0, -1) || '{') },
        { label: 'body:trailing-comma', ...json(inner ? `{${inner},}` : '{,}') },
        { label: 'body:single-quotes', ...json(baseText.replace(/"/g, "'")) },
        { label: 'body:two-documents', ...json(`${baseText}{"a":1}`) },
        { label: 'body:bad-escape', ...json(withKeys('"fuzz":"\\x41"')) },
        { label: 'body:raw-control-char', ...json(withKeys('"fuzz":"a\u0001b"')) },
        { label: 'body:raw-nul-byte', req: post(Buffer.concat([Buffer.from('{"fuzz":"a'), Buffer.from([0]), Buffer.from('"}')])), parsed: NO_INPUT },
        {
          label: 'body:bad-utf8',
          req: post(Buffer.concat([Buffer.from(withKeys('"fuzz":"').slice(0, -1)), Buffer.from([0xc0, 0xaf, 0xff, 0x22, 0x7d])])),
          parsed: UNKNOWN,
        },
        { label: 'body:leading-zero', ...json(withKeys('"fuzz":01')) },
        { label: 'body:top-null', ...json('null') },
        { label: 'body:top-string', ...json('"fuzz"') },
        { label: 'body:top-number', ...json('12345') },
        { label: 'body:top-array', ...json('[]') },
        { label: 'body:top-array-of-input', ...json(`[${baseText}]`) },
        { label: 'body:nested-40', ...json(withKeys(`"fuzz":${deep(40)}`)) },
        { label: 'body:nested-5000', ...json(`${'['.repeat(5000)}${']'.repeat(5000)}`), heavy: true },
        { label: 'body:keys-10k', ...json(withKeys(Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(','))), heavy: true },
        { label: 'body:oversized', ...json(withKeys(`"fuzz":"${'x'.repeat(1_100_000)}"`)), parsed: NO_INPUT, heavy: true },
        { label: 'content-type:text', req: post(baseText, { 'content-type': 'text/plain' }), parsed: {} },
        { label: 'content-type:none', req: post(baseText, {}), parsed: {} },
        { label: 'content-type:form', req: post(form, { 'content-type': 'application/x-www-form-urlencoded' }), parsed: { ...parseQuery(form) } },
        {
          label: 'content-type:multipart',
          req: post(multipartBody(textFieldsOf(base), []), { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }),
          parsed: {},
        },
        { label: 'content-type:vnd-json', req: post(baseText, { 'content-type': 'application/vnd.api+json' }), parsed: {} },
        { label: 'content-type:xml', req: post('<a>fuzz</a>', { 'content-type': 'application/xml' }), parsed: {} },
        {
          label: 'content-type:json-utf16',
          req: post(Buffer.from(baseText, 'utf16le'), { 'content-type': 'application/json; charset=utf-16' }),
          parsed: parseJsonLikeServer(baseText),
        },
        { label: 'content-type:json-latin1', req: post(baseText, { 'content-type': 'application/json; charset=iso-8859-1' }), parsed: NO_INPUT },
        {
          label: 'content-encoding:gzip-not-gzip',
          req: post(baseText, { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
          parsed: NO_INPUT,
        },
        {
          label: 'content-encoding:unknown',
          req: post(baseText, { 'content-type': 'application/json', 'content-encoding': 'fuzz' }),
          parsed: NO_INPUT,
        },
        { label: 'header:lang-junk', req: post(baseText, { 'content-type': 'application/json', lang: 'x'.repeat(300) }), parsed: base },
      ];
      return out;
    },
  };
}

function getBuilders(route: RouteShape): Builders {
  const get = (query: string, headers: Record<string, string> = {}): Built => ({
    req: { method: 'GET', path: query ? `${route.path}?${query}` : route.path, headers },
    parsed: { ...parseQuery(query) },
  });
  const pairs = (base: Record<string, unknown>): Array<[string, string, boolean?]> => textFieldsOf(base).map(([k, v]) => [k, String(v)]);
  return {
    whole: (value) => get(queryOf(pairs(value))),
    field(base, path, m) {
      const key = String(path[0]);
      const rest = pairs(base).filter(([k]) => k !== key);
      if (m.drop) return get(queryOf(rest));
      if (m.raw !== undefined) return get(queryOf([...rest, [key, m.raw, true]]));
      const values = Array.isArray(m.value) ? m.value.map(String) : [String(m.value)];
      return get(queryOf([...rest, ...values.map((v): [string, string] => [key, v])]));
    },
    request(base, fields) {
      const q = queryOf(pairs(base));
      const and = (extra: string) => (q ? `${q}&${extra}` : extra);
      const first = fields[0] ? String(fields[0].path[0]) : 'fuzz';
      return [
        { label: 'query:unknown-field', ...get(and('fuzz_unknown=1')) },
        { label: 'query:proto-key', ...get(and(`__proto__=${POLLUTION_KEY}`)) },
        { label: 'query:constructor-key', ...get(and('constructor=fuzz&hasOwnProperty=fuzz&toString=fuzz')) },
        { label: 'query:bracket-key', ...get(and(`${encodeURIComponent(first)}[0]=fuzz`)) },
        { label: 'query:nul-key', ...get(and('fu%00zz=1')) },
        { label: 'query:empty-pairs', ...get(and('&&=&=fuzz&')) },
        { label: 'query:bad-escape-key', ...get(and('%E4%B8=1')) },
        { label: 'query:keys-1000', ...get(and(Array.from({ length: 1000 }, (_, i) => `k${i}=1`).join('&'))), heavy: true },
        {
          label: 'query:json-body-on-get',
          req: {
            method: 'GET',
            path: q ? `${route.path}?${q}` : route.path,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from('{"fuzz":"a\\u0000b"}'),
          },
          parsed: UNKNOWN,
        },
      ];
    },
  };
}

function multipartBuilders(route: RouteShape): Builders {
  const fileField = route.multipart!;
  const png: FilePart = { field: fileField, name: 'fuzz.png', type: 'image/png', content: PNG_1X1 };
  const mp = (fields: TextFields, files: FilePart[], parsed?: unknown, contentType = `multipart/form-data; boundary=${BOUNDARY}`): Built => ({
    req: { method: 'POST', path: route.path, headers: { 'content-type': contentType }, body: multipartBody(fields, files) },
    parsed: parsed ?? multipartFieldsParsed(fields),
  });
  const fieldsOfBase = (base: Record<string, unknown>) => textFieldsOf(base);
  return {
    whole: (value) => mp(fieldsOfBase(value), [png]),
    field(base, path, m) {
      const key = String(path[0]);
      const rest = fieldsOfBase(base).filter(([k]) => k !== key);
      if (m.drop) return mp(rest, [png]);
      if (m.raw !== undefined) {
        // percent-encoded bytes in text mode: the same bytes, raw, in a form field
        const bytes =
          m.raw === '%'
            ? Buffer.from('%')
            : Buffer.from(
                m.raw.replace(/%([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
                'latin1',
              );
        return mp([...rest, [key, bytes]], [png], UNKNOWN);
      }
      const values = Array.isArray(m.value) ? m.value.map(String) : [String(m.value)];
      return mp([...rest, ...values.map((v): [string, string] => [key, v])], [png]);
    },
    request(base) {
      const fields = fieldsOfBase(base);
      const parsed = multipartFieldsParsed(fields);
      const withFile = (f: Partial<FilePart>, label: string) => ({ label, ...mp(fields, [{ ...png, ...f }]) });
      const whole = mp(fields, [png]).req.body!;
      return [
        withFile({ name: 'fu%00zz.png', star: true }, 'file:name-nul'),
        withFile({ name: `${MARKUP_PROBE}.png` }, 'file:name-html'),
        withFile({ name: `${'x'.repeat(10_000)}.png` }, 'file:name-long10k'),
        withFile({ name: '../../../../etc/passwd.png' }, 'file:name-traversal'),
        withFile({ name: '' }, 'file:name-empty'),
        withFile({ name: 'fu%07%1Bzz.png', star: true }, 'file:name-control'),
        withFile({ name: 'fu%ED%A0%80zz.png', star: true }, 'file:name-lone-surrogate'),
        withFile({ name: "fuzz' OR '1'='1.png" }, 'file:name-sql'),
        withFile({ name: '晚托.png' }, 'file:name-cjk'),
        withFile({ content: Buffer.alloc(0) }, 'file:empty'),
        withFile({ content: Buffer.from('not an image'), name: 'fuzz.png' }, 'file:not-what-it-says'),
        withFile(
          { content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), name: 'fuzz.svg', type: 'image/svg+xml' },
          'file:svg-script',
        ),
        withFile({ content: Buffer.from('姓名,性别\n张三,1\n'), name: 'fuzz.csv', type: 'text/csv' }, 'file:csv'),
        { label: 'file:none', ...mp(fields, []) },
        { label: 'file:wrong-field', ...mp(fields, [{ ...png, field: 'fuzz_file' }], UNKNOWN) },
        { label: 'file:two', ...mp(fields, [png, png], UNKNOWN) },
        { label: 'form:unknown-field', ...mp([...fields, ['fuzz_unknown', 'fuzz']], [png]) },
        { label: 'form:proto-field', ...mp([...fields, ['__proto__', POLLUTION_KEY]], [png], UNKNOWN) },
        { label: 'form:bracket-field', ...mp([...fields, [`constructor[prototype][${POLLUTION_KEY}]`, 'yes']], [png], UNKNOWN) },
        {
          label: 'form:too-many-fields',
          ...mp([...fields, ...Array.from({ length: 30 }, (_, i): [string, string] => [`k${i}`, 'x'])], [png], UNKNOWN),
        },
        { label: 'form:field-over-100k', ...mp([...fields, ['fuzz_unknown', 'x'.repeat(150_000)]], [png], UNKNOWN), heavy: true },
        { label: 'form:no-boundary', ...mp(fields, [png], UNKNOWN, 'multipart/form-data') },
        {
          label: 'form:truncated',
          req: {
            method: 'POST',
            path: route.path,
            headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
            body: whole.subarray(0, Math.floor(whole.length / 2)),
          },
          parsed: UNKNOWN,
        },
        {
          label: 'form:garbage',
          req: {
            method: 'POST',
            path: route.path,
            headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
            body: Buffer.from('\u0000\u0001garbage\r\n--'),
          },
          parsed: UNKNOWN,
        },
        {
          label: 'content-type:json',
          req: { method: 'POST', path: route.path, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(parsed)) },
          parsed,
        },
        {
          label: 'content-type:json-nul',
          req: {
            method: 'POST',
            path: route.path,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify({ ...parsed, fuzz: 'a\u0000b' })),
          },
          parsed: { ...parsed, fuzz: 'a\u0000b' },
        },
      ];
    },
  };
}
