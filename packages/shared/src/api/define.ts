import { z } from 'zod';
import type { ActionDef, HttpMethod, Who } from '../actions';
import { ACTION_ROWS } from '../actions.generated';

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
  /** its row in actions.tsv, or (an action the catalogue does not list) the module, access and meaning declared with it */
  def: ActionDef;
}

/** Module, access and meaning of an action actions.tsv does not list, declared beside its schemas. */
export type Extra = Omit<ActionDef, 'method' | 'action'>;

/** The declarer of a module's extra actions: `extraOf('courseware')(['O'], 'what it does')`. */
export const extraOf =
  (module: string) =>
  (who: Who[], meaning: string): Extra => ({ module, who, meaning });

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

const rows = new Map(ACTION_ROWS.map((a) => [`${a.method} ${a.action}`, a]));

function declare<M extends HttpMethod, N extends string, I extends z.ZodType | null, O extends z.ZodType>(
  method: M,
  action: N,
  input: I,
  answer: O,
  extra: Extra | undefined,
): Declaration<M, N, I, O> {
  const row = rows.get(`${method} ${action}`);
  if (row && extra) throw new Error(`${method} ${action} is in actions.tsv: its access and meaning come from there, not from its declaration`);
  if (!row && !extra) throw new Error(`${method} ${action} is declared but is not in actions.tsv: declare its module, access and meaning (extraOf)`);
  return { method, action, input, answer, def: row ?? { method, action, ...extra! } };
}

/** A GET action: input from the query string. `extra`: the access and meaning of one actions.tsv does not list. */
export const GET = <N extends string, I extends z.ZodType | null, O extends z.ZodType>(action: N, input: I, answer: O, extra?: Extra) =>
  declare('GET', action, input, answer, extra);
/** A POST action: input from the JSON body (or the text fields of a multipart body). `extra`: as for GET. */
export const POST = <N extends string, I extends z.ZodType | null, O extends z.ZodType>(action: N, input: I, answer: O, extra?: Extra) =>
  declare('POST', action, input, answer, extra);
