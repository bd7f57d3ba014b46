import { DatabaseError, type Pool, type PoolClient } from 'pg';
import type { DataSource } from 'typeorm';

/** The pg pool under a TypeORM data source (PostgresDriver.master). */
export const poolOf = (db: DataSource): Pool => (db.driver as unknown as { master: Pool }).master;

/** A number per pooled connection, so that a statement's name is its own on every connection. */
const connectionIds = new WeakMap<PoolClient, number>();
let lastConnectionId = 0;

/**
 * Runs one of the hot statements (every request's session, the daily flow's command path) as a named prepared
 * statement: each pooled connection parses and plans it once instead of on every call, which was a third of
 * Postgres's CPU per flow command. `name` must stay unique to its SQL text. The connection's number is part of
 * the name because the embedded database (PGlite behind pglite-socket) serves every pooled connection from one
 * session, where a name prepared by one connection already exists for the next. Outside any transaction: a
 * statement that must join one goes through the EntityManager.
 */
export async function preparedQuery<T>(db: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = await poolOf(db).connect();
  let id = connectionIds.get(client);
  if (id === undefined) connectionIds.set(client, (id = ++lastConnectionId));
  try {
    const res = await client.query({ name: `${name}#${id}`, text, values });
    client.release();
    return res.rows as T[];
  } catch (err) {
    // an error the server answered (a unique violation, …) leaves the connection usable; anything else drops it, and
    // so does a prepared statement the server no longer has (26000: the client would go on naming it)
    const usable = err instanceof DatabaseError && err.code !== '26000';
    client.release(usable ? undefined : (err as Error));
    throw err;
  }
}
