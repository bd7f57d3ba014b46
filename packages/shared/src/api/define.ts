import { z } from 'zod';
import { ACTIONS, type ActionDef, type HttpMethod } from '../actions';

/**
 * One action, declared once: method and name (its catalogue row gives module, who and meaning), the zod schema of its
 * input and of its answer (`data` of the envelope, as JSON carries it). The API's route, guard, input validation,
 * answer check and OpenAPI document and the web's typed client all derive from it (docs/adding-an-action.md).
 */
export interface Declaration<
  M extends HttpMethod = HttpMethod,
  N extends string = string,
  I extends z.ZodType | null = z.ZodType | null,
  O extends z.ZodType = z.ZodType,
> {
  method: M;
  action: N;
  input: I;
  answer: O;
  /** its row in actions.tsv or extra-actions.ts */
  def: ActionDef;
}

/** The answer of an action that sends a file (an export, a download): the bytes, not an envelope. */
export const FileAnswer = z.custom<Blob>(() => true).meta({ id: 'File', description: 'a file (the response body is the bytes, not an envelope)' });

/** `{}`: the answer of a write that has nothing to tell but success. */
export const EmptyAnswer = z.object({}).meta({ description: 'nothing but success' });

/** The wire types answers are made of (what JSON carries): ids, counts and money in fen are integers, days and instants strings. */
export const wire = {
  id: z.number().int(),
  int: z.number().int(),
  count: z.number().int(),
  fen: z.number().int(),
  /** a school day, 'YYYY-MM-DD' */
  day: z.string(),
  /** an instant, ISO 8601 */
  at: z.string(),
};

/** The page envelope of every list (design.md §2). */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ list: z.array(row), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

/** `{ id }` of a created row. */
export const IdAnswer = z.object({ id: z.number().int() });

const rows = new Map(ACTIONS.map((a) => [`${a.method} ${a.action}`, a]));

function declare<M extends HttpMethod, N extends string, I extends z.ZodType | null, O extends z.ZodType>(
  method: M,
  action: N,
  input: I,
  answer: O,
): Declaration<M, N, I, O> {
  const def = rows.get(`${method} ${action}`);
  if (!def) throw new Error(`${method} ${action} is declared but is neither in actions.tsv nor in extra-actions.ts`);
  return { method, action, input, answer, def };
}

/** A GET action: input from the query string. */
export const GET = <N extends string, I extends z.ZodType | null, O extends z.ZodType>(action: N, input: I, answer: O) =>
  declare('GET', action, input, answer);
/** A POST action: input from the JSON body (or the text fields of a multipart body). */
export const POST = <N extends string, I extends z.ZodType | null, O extends z.ZodType>(action: N, input: I, answer: O) =>
  declare('POST', action, input, answer);
