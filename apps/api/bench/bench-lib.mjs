// Helpers both benchmarks use: the admin connection, a free loopback port, waiting for the API to answer.
import { createServer } from 'node:net';
import pg from 'pg';

export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function admin(sql, params) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export async function waitFor(url, ms = 60_000) {
  const start = Date.now();
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - start > ms) throw new Error(`the API did not start within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
