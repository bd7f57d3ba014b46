import { types as pgTypes } from 'pg';

/**
 * How the pg driver turns the server's text values into JavaScript, for every connection of our pools (passed as
 * the pool's `types`, so no other pg client in the process is affected). Two of pg's defaults leak the process's
 * `TZ` or a type into the answers:
 *
 * - `date` (and `date[]`): pg makes a JS Date at the process's local midnight, so the same row serialises as
 *   '2026-11-26T00:00:00.000Z' under TZ=UTC and '2026-11-25T16:00:00.000Z' under TZ=Asia/Shanghai. A date is a
 *   school-local day: it stays the server's 'YYYY-MM-DD' text.
 * - `int8` (bigint, bigserial, `count(*)`, `sum(int)`): pg answers a string. It is a number when it is a safe integer
 *   (every id, position, count and sum of fen we store is far below 2^53). Beyond Number.MAX_SAFE_INTEGER the parser
 *   throws and the query fails — loudly, rather than answering a rounded number or sometimes a string; a query that
 *   really needs such a value casts it to text in SQL.
 * - `numeric` is left as pg answers it (a string): it may carry more precision than a double.
 *
 * `timestamptz` stays a Date (an instant: the same whatever the process's zone). The schema has no `timestamp
 * without time zone` columns.
 */
export const OID = { int8: 20, date: 1082, int8Array: 1016, dateArray: 1182, textArray: 1009 } as const;

/** int8 text → a number when safe, else an error. */
export function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} is beyond Number.MAX_SAFE_INTEGER; cast it to text in SQL`);
  return n;
}

const pgParser = pgTypes.getTypeParser as (oid: number, format: 'text' | 'binary') => (text: string) => unknown;
const parseTextArray = pgParser(OID.textArray, 'text') as (text: string) => Array<string | null>;

const TEXT_PARSERS: Record<number, (text: string) => unknown> = {
  [OID.int8]: parseInt8,
  [OID.date]: (text: string) => text,
  [OID.int8Array]: (text: string) => parseTextArray(text).map((v) => (v === null ? null : parseInt8(v))),
  [OID.dateArray]: (text: string) => parseTextArray(text),
};

/** The `types` of a pg pool or client: ours for the types above, pg's own for every other. */
export const PG_TYPES = {
  getTypeParser(oid: number, format: 'text' | 'binary' = 'text') {
    if (format === 'text' && TEXT_PARSERS[oid]) return TEXT_PARSERS[oid];
    return pgParser(oid, format);
  },
};
