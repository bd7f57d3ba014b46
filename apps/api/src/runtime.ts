import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import type { ResolvedConfig } from './bootstrap';
import type { AppConfig } from './core/config/config';
import { dataSourceOptions, migrate } from './core/database/data-source';
import { startEmbeddedPostgres } from './core/database/embedded-postgres';
import { seedDemoCourseware } from './seed/demo-courseware';
import { demoAccountsTable, seedDemo } from './seed/demo-seed';
import { seedShowcase } from './seed/demo-showcase';

/** Resolves the database: DATABASE_URL, or the embedded PGlite database under DATA_DIR. */
export async function resolveDatabase(config: AppConfig, log: Logger): Promise<{ config: ResolvedConfig; stop: () => Promise<void> }> {
  if (config.databaseUrl) return { config: { ...config, databaseUrl: config.databaseUrl }, stop: async () => undefined };
  const pg = await startEmbeddedPostgres(config.dataDir);
  log.info({ dataDir: config.dataDir }, 'DATABASE_URL not set: using the embedded PGlite database');
  // PGlite answers one query at a time; a small pool is all it can use
  return { config: { ...config, databaseUrl: pg.url, databasePoolMax: Math.min(config.databasePoolMax, 4) }, stop: pg.stop };
}

/**
 * Migrates, and seeds the demo when asked to (printing the accounts the first time). With `showcase` (the API's start
 * as SEED_SHOWCASE says, the `seed` command unless --no-showcase) a demo seeded now also gets its showcase: a fortnight
 * of data in every module (demo-showcase.ts).
 */
export async function prepareDatabase(config: ResolvedConfig, log: Logger, opts: { showcase?: boolean } = {}): Promise<void> {
  const applied = await migrate(config.databaseUrl);
  if (applied.length) log.info({ applied }, 'migrations applied');
  if (!config.seedDemo) return;
  const ds = new DataSource(dataSourceOptions(config.databaseUrl, 1));
  await ds.initialize();
  try {
    const seeded = await seedDemo(ds, { people: true, history: true, uploadDir: config.uploadDir });
    if (seeded) {
      log.info({ schoolId: seeded.schoolId }, 'demo school seeded');
      process.stdout.write(`\n${demoAccountsTable()}\n\n`);
    }
    // the demo courseware catalogue with real PDFs (once per database, also for a demo seeded before it existed)
    const courseware = await seedDemoCourseware(ds, config.uploadDir);
    if (courseware) log.info({ courseware }, 'demo courseware seeded');
    if (seeded && opts.showcase) {
      const showcase = await seedShowcase(ds, config.uploadDir);
      if (showcase) log.info(showcase, 'demo showcase seeded');
    }
  } finally {
    await ds.destroy();
  }
}
