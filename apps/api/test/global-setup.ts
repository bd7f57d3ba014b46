import { Client } from 'pg';
import { migrate } from '../src/core/database/data-source';
import { urlFor, withAdmin } from './db';

/**
 * Once per test run: a freshly migrated template database. Every test file then gets its own copy
 * (CREATE DATABASE ... TEMPLATE), so files run in parallel without seeing each other's rows.
 */
export default async function globalSetup(): Promise<void> {
  // a template of this run only (workers inherit the variable); global-teardown drops it
  const template = `wantuo_tpl_${process.pid}_${Date.now().toString(36)}`;
  process.env.WANTUO_TEMPLATE_DB = template;
  await withAdmin(async (c) => {
    // templates of runs that died without their teardown, older than a day
    const { rows } = await c
      .query(
        `select datname from pg_database where datname like 'wantuo_tpl_%' and (pg_stat_file('base/' || oid || '/PG_VERSION')).modification < now() - interval '1 day'`,
      )
      .catch(() => ({ rows: [] as { datname: string }[] }));
    for (const r of rows) await c.query(`drop database if exists ${r.datname} with (force)`).catch(() => undefined);
    await c.query(`create database ${template}`);
  });
  await migrate(urlFor(template));
  // the other specs' fixtures model guardians who have accepted the privacy documents and consented to photos and
  // health notes (as the demo's guardians have): links and students they insert start so. The privacy specs take
  // these away to prove the gate and the consents (src/modules/privacy/*.spec.ts).
  const t = new Client({ connectionString: urlFor(template) });
  await t.connect();
  try {
    await t.query(`
      alter table student_guardians alter column privacy_version set default 1, alter column children_version set default 1,
        alter column consented_at set default now();
      alter table students alter column photo_consent set default true, alter column health_consent set default true;
    `);
  } finally {
    await t.end();
  }
}
