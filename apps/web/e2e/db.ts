import { join } from 'node:path';
import { Client } from 'pg';

export const E2E_ROOT = join(__dirname, '..', '..', '..');
export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server's URL with another database. */
export function withDatabase(db: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Runs one statement on the server's maintenance database (create and drop databases). */
export async function adminSql(text: string): Promise<void> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}
