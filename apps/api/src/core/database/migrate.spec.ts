import { Client } from 'pg';
import { urlFor, withAdmin } from '../../../test/db';
import { MIGRATIONS, migrate, MigrationsPending, waitForMigrations } from './data-source';

const dbName = `wantuo_t_migrate_${process.pid}_${Date.now().toString(36)}`;
beforeAll(() => withAdmin((c) => c.query(`create database ${dbName}`)));
afterAll(() => withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`)));

// issue 34 item 8: several API processes started at once on an empty database raced on the migrations (each created
// the migrations table and ran the first migration: one of them failed). The advisory lock lets one migrate, the others
// wait for it and find nothing left to do.
// issue 34 item 12: the worker never migrates: it waits for the API's migrations (its sweeps ran on missing tables)
it('a process waiting for the migrations gives up after its bound, naming what is missing', async () => {
  const waited = waitForMigrations(urlFor(dbName), { timeoutMs: 300, pollMs: 50 });
  await expect(waited).rejects.toThrow(MigrationsPending);
  await expect(waitForMigrations(urlFor(dbName), { timeoutMs: 0 })).rejects.toThrow(
    new RegExp(`not migrated after 0 s: ${MIGRATIONS.length} of ${MIGRATIONS.length} migrations missing \\(${MIGRATIONS[0].name}, `),
  );
});

it('two runners at once on an empty database: both succeed, each migration applied once; a waiter then goes on', async () => {
  const url = urlFor(dbName);
  const waits: string[][] = [];
  const waiter = waitForMigrations(url, { timeoutMs: 60_000, pollMs: 50, onWait: (p) => waits.push(p) });
  const [a, b] = await Promise.all([migrate(url), migrate(url)]);
  await waiter;
  expect(waits).toHaveLength(1);
  expect([...a, ...b].sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string; n: number }>(`select name, count(*)::int as n from migrations group by name`);
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
    expect(rows.map((r) => r.name).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    // and a third start later applies nothing
    expect(await migrate(url)).toEqual([]);
  } finally {
    await c.end();
  }
});
