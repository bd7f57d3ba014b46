import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import type { Page } from '@wantuo/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { offsetOf, pageOf, type PageQuery, type Queryable } from './sql-kit';
import type { DB } from './schema';

/**
 * The typed data layer (issue 38): repositories build their SQL with Kysely over the generated `DB` (schema.ts, from
 * the migrations), so every table, column, parameter and answer is typed by the schema and a renamed column breaks
 * the build. Kysely only builds and types here: the statements run on TypeORM's connections, so a repository joins
 * the caller's transaction by being handed its EntityManager (`kdb(m)`), and runs on the pool otherwise (`kdb(ds)`).
 */
export type Database = Kysely<DB>;
export type { DB } from './schema';
export type { Sendable } from '../http/sendable';

/**
 * Who is told each statement the typed layer sends (the SQL text): tests that prove a request runs a constant number of
 * statements count them here and at `DataSource.query` (test/harness.ts `statementsOf`). Nothing listens in production.
 */
export const statementTap: { listener: ((sql: string) => void) | null } = { listener: null };

/** Runs one compiled statement where `on` runs its queries: a transaction's own connection, else a pooled one. */
async function run(on: Queryable, query: CompiledQuery): Promise<QueryResult<unknown>> {
  statementTap.listener?.(query.sql);
  const m = on as Partial<EntityManager> & Partial<DataSource>;
  const runner = m.queryRunner && !m.queryRunner.isReleased ? m.queryRunner : undefined;
  const own = runner ?? (m.dataSource ?? (on as DataSource)).createQueryRunner();
  try {
    const r = await own.query(query.sql, query.parameters as unknown[], true);
    return { rows: r.records ?? [], numAffectedRows: r.affected === undefined || r.affected === null ? undefined : BigInt(r.affected) };
  } finally {
    if (!runner) await own.release();
  }
}

class TypeormConnection implements DatabaseConnection {
  constructor(private readonly on: Queryable) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return run(this.on, query) as Promise<QueryResult<R>>;
  }
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('kdb: streaming is not supported; page the query');
  }
}

/** Transactions are TypeORM's (`ds.transaction(m => …)`, then `kdb(m)`): Kysely's own would not join them. */
class TypeormDriver implements Driver {
  private readonly connection: TypeormConnection;
  constructor(on: Queryable) {
    this.connection = new TypeormConnection(on);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('kdb: open the transaction with TypeORM (ds.transaction) and pass its EntityManager');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

const cache = new WeakMap<object, Database>();

/** The typed query builder running on `on`: the DataSource, or a transaction's EntityManager to join it. */
export function kdb(on: Queryable): Database {
  let k = cache.get(on);
  if (!k) {
    k = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new TypeormDriver(on),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    cache.set(on, k);
  }
  return k;
}

/**
 * A server-paged list in one statement: the one-row count `total` (selecting `total`) and, joined laterally, the page
 * of `list` (its order set by the caller; the page's limit and offset applied here). A page beyond the last still
 * answers the total. The rows keep the list's own inferred type.
 */
export async function pageRows<R>(
  on: Queryable,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  total: SelectQueryBuilder<any, any, { total: number }>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  list: SelectQueryBuilder<any, any, R>,
  q: PageQuery,
): Promise<Page<R>> {
  const paged = list.select(sql.lit(1).as('paged_row')).limit(q.limit).offset(offsetOf(q));
  const rows = (await kdb(on)
    .selectFrom(total.as('page_total'))
    .leftJoinLateral(paged.as('page_rows'), (j) => j.onTrue())
    .selectAll()
    .execute()) as unknown as Array<R & { total: number; paged_row: 1 | null }>;
  const items = rows.filter((r) => r.paged_row !== null).map(({ total: _t, paged_row: _p, ...r }) => r as unknown as R);
  return pageOf(items, Number(rows[0]?.total ?? 0), q);
}
