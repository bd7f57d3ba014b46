import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** The pg pool under a TypeORM data source (PostgresDriver.master). */
export const poolOf = (db: DataSource): Pool => (db.driver as unknown as { master: Pool }).master;

/**
 * Runs one of the hot statements (every request's session, the daily flow's command path) as a named prepared
 * statement: each pooled connection parses and plans it once instead of on every call, which was a third of
 * Postgres's CPU per flow command. `name` must stay unique to its SQL text. Outside any transaction: a statement
 * that must join one goes through the EntityManager.
 */
export async function preparedQuery<T>(db: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const res = await poolOf(db).query({ name, text, values });
  return res.rows as T[];
}
