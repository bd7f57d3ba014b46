import 'reflect-metadata';
import { createWorker } from './bootstrap';
import { withApiAddress } from './core/config/api-address';
import { ConfigError, loadConfig } from './core/config/config';
import { MigrationsPending, waitForMigrations } from './core/database/data-source';
import { createLogger } from './core/logging/logger';
import { onShutdownSignals } from './core/shutdown/graceful-shutdown';

/** How long the worker waits for the API to migrate the database before it gives up (exit 1, naming what is missing). */
const MIGRATIONS_WAIT_MS = 180_000;

/** The worker process: BullMQ processors for the sms, contracts and alerts queues. Needs DATABASE_URL and REDIS_URL. */
async function main() {
  const config = loadConfig();
  if (!config.redisUrl || !config.databaseUrl) {
    throw new ConfigError('The worker needs DATABASE_URL and REDIS_URL (without Redis, `npm start` runs jobs inside the API).');
  }
  const log = createLogger(config.logLevel);
  // the API migrates at its start: the jobs wait for it (they once ran on tables not made yet), at most MIGRATIONS_WAIT_MS
  await waitForMigrations(config.databaseUrl, {
    timeoutMs: MIGRATIONS_WAIT_MS,
    onWait: (pending) => log.info({ pending: pending.length }, 'waiting for the migrations (the API applies them at its start)'),
  });
  // no HTTP server here: the API's sandboxes and fakes are reached at API_INTERNAL_URL (core/config/api-address.ts)
  const worker = await createWorker({ ...withApiAddress(config), databaseUrl: config.databaseUrl }, log);
  // SIGTERM/SIGINT: BullMQ's workers finish the jobs they are running, then Redis and the database close; exit 0
  onShutdownSignals(log, () => worker.close());
  await worker.init();
  log.info('worker running');
}

main().catch((err) => {
  process.stderr.write(
    `${err instanceof ConfigError || err instanceof MigrationsPending ? err.message : err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
