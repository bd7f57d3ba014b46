import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type Expression,
  type InferResult,
  type RawBuilder,
} from 'kysely';
import type { DataSource, EntityManager } from 'typeorm';
import { statementTap } from './kysely';
import { preparedQuery } from './prepared-query';
import type { DB } from './schema';

/**
 * Hot statements built once (issue 38): a typed Kysely query whose parameters are named slots, compiled the first time
 * it runs and then only bound. Building a query with Kysely costs tens of microseconds a statement, which a statement
 * run per flow event or per request pays on every call; a `compiledOnce` statement pays it once per process, and on
 * the pool it is also a named prepared statement (parsed and planned once per connection, `preparedQuery`).
 *
 * `build(db, p)` receives a builder that only compiles and the slots `p` (`p.schoolId` is an `Expression<number>`
 * standing for the parameter): it must build the same shape whatever the values, so anything that changes the SQL
 * text (a role's condition, an optional filter) is a separate statement with its own name. A constant the planner must
 * see (a partial index's `status = 1`) is written `sql.lit(…)`: a plain value is bound as a parameter like the slots.
 */
export interface CompiledOnce<P, R> {
  /** On the pool: a named prepared statement (not inside a transaction). */
  run(db: DataSource, values: P): Promise<R[]>;
  /** Inside the transaction of `m` (the compiled text, bound; not named). */
  runIn(m: EntityManager, values: P): Promise<R[]>;
  /** The compiled text (tests, EXPLAIN). */
  readonly sql: string;
}

/** The slots of a statement's parameters: each an expression of the parameter's type. */
export type Slots<P> = { readonly [K in keyof P]: RawBuilder<P[K]> };

/** A parameter's place in the compiled text; Kysely only collects values, so it carries the slot through. */
class Slot {
  constructor(readonly key: string) {}
}

/** A builder that compiles and never runs. */
const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const slotsProxy = new Proxy({} as Record<string, RawBuilder<unknown>>, {
  get: (_, key) => (typeof key === 'string' ? sql.val(new Slot(key)) : undefined),
});

export function compiledOnce<P extends Record<string, unknown>, Q extends Compilable<unknown>>(
  name: string,
  build: (db: Kysely<DB>, p: Slots<P>) => Q,
): CompiledOnce<P, InferResult<Q>[number]> {
  let text: string | undefined;
  let order: Array<Slot | { value: unknown }> = [];
  const compile = (): string => {
    if (text === undefined) {
      const c = build(compiler, slotsProxy as unknown as Slots<P>).compile();
      order = c.parameters.map((v) => (v instanceof Slot ? v : { value: v }));
      text = c.sql;
    }
    return text;
  };
  const bind = (values: P): unknown[] =>
    order.map((o) => {
      if (!(o instanceof Slot)) return o.value;
      if (!(o.key in values)) throw new Error(`compiledOnce ${name}: no value for ${o.key}`);
      return values[o.key];
    });
  return {
    run: async (db, values) => {
      const q = compile();
      statementTap.listener?.(q);
      return preparedQuery(db, name, q, bind(values));
    },
    runIn: async (m, values) => {
      const q = compile();
      statementTap.listener?.(q);
      return m.query(q, bind(values));
    },
    get sql() {
      return compile();
    },
  };
}

/** A slot of ids as the right side of `=`: `where('s.id', '=', anyOfSlot(p.ids))` (the ids as one int[] parameter). */
export const anyOfSlot = (ids: Expression<readonly number[]>): RawBuilder<number> => sql<number>`any(${ids}::int[])`;
