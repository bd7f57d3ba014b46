import type { ZodType } from 'zod';

/**
 * Reading an action's zod 4 input schema for the fuzz test: which fields it has, what kind of value each takes, and
 * a valid input to mutate one field at a time (built from a pool of plausible values, each checked with the schema
 * itself, so refinements and cross-field rules are honoured without knowing them).
 */

/** How the server receives the input: a JSON body, or text only (a query string, multipart form fields). */
export type Mode = 'json' | 'text';

export type Kind = 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'object' | 'null' | 'any';

type Def = {
  type: string;
  innerType?: ZodType;
  in?: ZodType;
  out?: ZodType;
  options?: ZodType[];
  element?: ZodType;
  shape?: Record<string, ZodType>;
  entries?: Record<string, string | number>;
  values?: unknown[];
  getter?: () => ZodType;
};
type Bag = { minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number; format?: string };

const defOf = (s: ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const bagOf = (s: ZodType): Bag => (s as unknown as { _zod: { bag?: Bag } })._zod.bag ?? {};

/** The schema under optional / nullable / default / pipe wrappers: the one that says what kind of value it is. */
export function coreOf(s: ZodType): ZodType {
  for (let i = 0; i < 20; i++) {
    const d = defOf(s);
    switch (d.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
      case 'success':
        s = d.innerType!;
        continue;
      case 'lazy':
        s = d.getter!();
        continue;
      case 'pipe':
        // z.preprocess(fn, x) is a pipe from a transform: the value is x's; z.coerce.number().pipe(y): the input is the number's
        s = defOf(d.in!).type === 'transform' ? d.out! : d.in!;
        continue;
      default:
        return s;
    }
  }
  return s;
}

/** The kinds of value a schema takes (a union takes several). */
export function kindsOf(s: ZodType): Set<Kind> {
  const out = new Set<Kind>();
  const visit = (x: ZodType, depth: number) => {
    if (depth > 10) return;
    const d = defOf(x);
    if (['optional', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success', 'lazy', 'pipe'].includes(d.type)) {
      visit(unwrapOnce(x), depth + 1);
      return;
    }
    if (d.type === 'nullable') {
      out.add('null');
      visit(d.innerType!, depth + 1);
      return;
    }
    switch (d.type) {
      case 'string':
      case 'template_literal':
        out.add('string');
        break;
      case 'number':
      case 'int':
      case 'bigint':
        out.add('number');
        break;
      case 'boolean':
        out.add('boolean');
        break;
      case 'enum':
      case 'literal':
        out.add('enum');
        break;
      case 'array':
      case 'tuple':
      case 'set':
        out.add('array');
        break;
      case 'object':
      case 'record':
      case 'map':
        out.add('object');
        break;
      case 'null':
        out.add('null');
        break;
      case 'union':
        for (const o of d.options ?? []) visit(o, depth + 1);
        break;
      default:
        out.add('any');
    }
  };
  visit(s, 0);
  return out;
}

function unwrapOnce(s: ZodType): ZodType {
  const d = defOf(s);
  if (d.type === 'lazy') return d.getter!();
  if (d.type === 'pipe') return defOf(d.in!).type === 'transform' ? d.out! : d.in!;
  return d.innerType ?? s;
}

/** The literal values of an enum / literal schema (and of the enums inside a union). */
export function optionsOf(s: ZodType): unknown[] {
  const c = coreOf(s);
  const d = defOf(c);
  if (d.type === 'enum') return Object.values(d.entries ?? {});
  if (d.type === 'literal') return d.values ?? [];
  if (d.type === 'union') return (d.options ?? []).flatMap(optionsOf);
  return [];
}

/** Numeric bounds of a number schema (inclusive), when it has them. */
export function boundsOf(s: ZodType): { min?: number; max?: number } {
  const c = coreOf(s);
  const d = defOf(c);
  if (d.type === 'union') {
    for (const o of d.options ?? []) {
      const b = boundsOf(o);
      if (b.min !== undefined || b.max !== undefined) return b;
    }
    return {};
  }
  const bag = bagOf(c);
  const min = bag.minimum ?? (bag.exclusiveMinimum !== undefined ? bag.exclusiveMinimum + 1 : undefined);
  const max = bag.maximum ?? (bag.exclusiveMaximum !== undefined ? bag.exclusiveMaximum - 1 : undefined);
  return {
    min: Number.isFinite(min) && Math.abs(min!) < 2 ** 53 ? min : undefined,
    max: Number.isFinite(max) && Math.abs(max!) < 2 ** 53 ? max : undefined,
  };
}

/** Length bounds of a string or array schema. */
export function lengthOf(s: ZodType): { min?: number; max?: number } {
  const bag = bagOf(coreOf(s)) as Bag & { minimum?: number; maximum?: number };
  return { min: bag.minimum, max: bag.maximum };
}

export function shapeOf(s: ZodType): Record<string, ZodType> | null {
  const d = defOf(coreOf(s));
  return d.type === 'object' ? (d.shape ?? {}) : null;
}

export function elementOf(s: ZodType): ZodType | null {
  const d = defOf(coreOf(s));
  return d.type === 'array' ? (d.element ?? null) : null;
}

/** True when a key may be left out (optional, or with a default). The fuzz test's own check is a parse without it. */
export function isOptionalKey(s: ZodType): boolean {
  return (s as unknown as { _zod: { optin?: string } })._zod.optin !== undefined;
}

const ok = (s: ZodType, v: unknown) => s.safeParse(v).success;

/** The school's day (Asia/Shanghai, the demo school's zone): a date that is "today" for the actions that care. */
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' });
function localDay(offsetDays: number): string {
  return dayFormat.format(new Date(Date.now() + offsetDays * 86_400_000));
}

/**
 * Plausible strings, tried in order until one passes the field's own schema. The mobile number belongs to no demo
 * account and the account names to no user, so a valid-looking sign-in never touches a real account.
 */
let pool: { day: string; list: string[] } | null = null;
function stringPool(): string[] {
  const day = localDay(0);
  if (pool?.day !== day) pool = { day, list: makeStringPool() };
  return pool.list;
}

function makeStringPool(): string[] {
  return [
    'fuzz',
    '测试',
    'Fuzz1234',
    '19912345678',
    '123456',
    localDay(0),
    localDay(1),
    localDay(-1),
    '08:00',
    '17:30',
    '6f1c2f0e-3a4b-4c5d-8e9f-0a1b2c3d4e5f',
    '/uploads/fuzz.png',
    'https://example.com/fuzz',
    'fuzz@example.com',
    '2026',
    'fuzz_user',
    'Fuzz 测试 机构',
    'a',
    '1',
    '',
  ];
}

const NUMBER_POOL = [1, 2, 3, 10, 100, 0, 1000, 5, 20, 50, 2026];

/**
 * Values that pass the schema, best first (at most `limit`). In text mode every leaf is a string, as a query string
 * or a form field carries it. When nothing passes, the unchecked candidates (best effort: the test still runs).
 */
export function validValues(s: ZodType, mode: Mode, limit = 6, depth = 0): unknown[] {
  const raw = candidates(s, mode, depth);
  const good: unknown[] = [];
  for (const v of raw) {
    if (ok(s, v)) good.push(v);
    if (good.length >= limit) break;
  }
  return good.length ? good : raw.slice(0, limit);
}

function candidates(s: ZodType, mode: Mode, depth: number): unknown[] {
  if (depth > 6) return [];
  const text = mode === 'text';
  const out: unknown[] = [];
  const kinds = kindsOf(s);
  const c = coreOf(s);
  const d = defOf(c);
  const options = optionsOf(s);
  if (options.length) out.push(...options.map((o) => (text ? String(o) : o)));
  if (kinds.has('string')) out.push(...stringPool());
  if (kinds.has('number')) {
    const b = boundsOf(s);
    const nums = [...NUMBER_POOL, b.min, b.max].filter((n): n is number => n !== undefined);
    out.push(...nums.map((n) => (text ? String(n) : n)));
  }
  if (kinds.has('boolean')) out.push(...(text ? ['true', '1', 'false', '0'] : [true, false]));
  if (kinds.has('object') && d.type === 'object') {
    if (!text) out.push(buildObject(c, mode, depth + 1).value);
  }
  if (kinds.has('array')) {
    const el = elementOf(s);
    if (el) {
      const els = validValues(el, mode, 4, depth + 1);
      const distinct = [...new Set(els.map((e) => JSON.stringify(e)))].map((e) => JSON.parse(e) as unknown);
      for (let n = 1; n <= Math.max(1, distinct.length); n++) out.push(distinct.slice(0, n));
      out.push([]);
    }
  }
  if (kinds.has('null')) out.push(null);
  if (kinds.has('any')) out.push(text ? 'fuzz' : 'fuzz', 1, true);
  if (text && d.type === 'union') out.push('1', 'true');
  return out;
}

export interface Baseline {
  value: Record<string, unknown>;
  /** the schema accepts it (when false, the cases still run: mutations of an invalid input are refusals too) */
  valid: boolean;
  /** every optional field given a valid value as well (each kept only if the whole stays valid) */
  rich: Record<string, unknown>;
}

/**
 * A valid input for an object schema: required keys only, each from its valid values; when the whole is refused
 * (a cross-field rule), the keys the issues name move on to their next candidate, and optional keys are tried in.
 */
export function buildObject(s: ZodType, mode: Mode, depth = 0): Baseline {
  const shape = shapeOf(s) ?? {};
  const keys = Object.keys(shape);
  const cands = new Map<string, unknown[]>();
  const candOf = (k: string) => {
    if (!cands.has(k)) cands.set(k, validValues(shape[k], mode, 6, depth));
    return cands.get(k)!;
  };
  const idx = new Map<string, number>();
  const value: Record<string, unknown> = {};
  for (const k of keys) {
    if (isOptionalKey(shape[k])) continue;
    const list = candOf(k);
    if (list.length) value[k] = list[0];
    idx.set(k, 0);
  }
  let valid = ok(s, value);
  const optional = keys.filter((k) => isOptionalKey(shape[k]));
  for (let attempt = 0; !valid && attempt < 40; attempt++) {
    const res = s.safeParse(value);
    if (res.success) {
      valid = true;
      break;
    }
    const named = [...new Set(res.error.issues.map((i) => i.path[0]).filter((k): k is string => typeof k === 'string' && k in shape))];
    if (named.length === 0) {
      // a rule of the whole object: bring in an optional key that is not there yet
      const next = optional.find((k) => !(k in value) && candOf(k).length);
      if (!next) break;
      value[next] = candOf(next)[0];
      idx.set(next, 0);
      continue;
    }
    let moved = false;
    for (const k of named) {
      const list = candOf(k);
      const i = (idx.get(k) ?? -1) + 1;
      if (i < list.length) {
        idx.set(k, i);
        value[k] = list[i];
        moved = true;
      }
    }
    if (!moved) break;
  }
  valid = ok(s, value);
  const rich = { ...value };
  if (depth < 3) {
    for (const k of optional) {
      if (k in rich) continue;
      for (const v of candOf(k).slice(0, 3)) {
        const trial = { ...rich, [k]: v };
        if (!valid || ok(s, trial)) {
          rich[k] = v;
          break;
        }
      }
    }
  }
  return { value, valid, rich };
}

export interface Field {
  /** where the field is: ['guardians', 0, 'mobile'] */
  path: Array<string | number>;
  schema: ZodType;
  kinds: Set<Kind>;
  /** the schema says it may be left out (the fuzz test checks "required" with a parse of the input without it) */
  optional: boolean;
  /** a valid value of the field, for the cases that change it a little */
  valid: unknown;
}

/**
 * Every field of an input schema, nested objects and the first item of arrays of objects included (json mode),
 * walking the rich baseline so nested fields have a context to live in.
 */
export function fieldsOf(s: ZodType, rich: Record<string, unknown>, mode: Mode): Field[] {
  const out: Field[] = [];
  const walk = (obj: ZodType, base: Record<string, unknown> | undefined, prefix: Array<string | number>, depth: number) => {
    const shape = shapeOf(obj);
    if (!shape || depth > 4) return;
    for (const [k, fs] of Object.entries(shape)) {
      const path = [...prefix, k];
      const kinds = kindsOf(fs);
      const valid = base && k in base ? base[k] : validValues(fs, mode, 1)[0];
      out.push({ path, schema: fs, kinds, optional: isOptionalKey(fs), valid });
      if (mode !== 'json') continue;
      const here = base?.[k];
      if (kinds.has('object') && shapeOf(fs) && here && typeof here === 'object' && !Array.isArray(here)) {
        walk(coreOf(fs), here as Record<string, unknown>, path, depth + 1);
      }
      const el = elementOf(fs);
      if (el && shapeOf(el) && Array.isArray(here) && here[0] && typeof here[0] === 'object') {
        walk(coreOf(el), here[0] as Record<string, unknown>, [...path, 0], depth + 1);
      }
    }
  };
  walk(s, rich, [], 0);
  return out;
}
