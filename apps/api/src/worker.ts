import 'reflect-metadata';
import { createWorker } from './bootstrap';
import { ConfigError, loadConfig } from './core/config/config';
import { createLogger } from './core/logging/logger';
import { onShutdownSignals } from './core/shutdown/graceful-shutdown';

/** The worker process: BullMQ processors for the sms, contracts and alerts queues. Needs DATABASE_URL and REDIS_URL. */
async function main() {
  const config = loadConfig();
  if (!config.redisUrl || !config.databaseUrl) {
    throw new ConfigError('The worker needs DATABASE_URL and REDIS_URL (without Redis, `npm start` runs jobs inside the API).');
  }
  const log = createLogger(config.logLevel);
  const worker = await createWorker({ ...config, databaseUrl: config.databaseUrl }, log);
  // SIGTERM/SIGINT: BullMQ's workers finish the jobs they are running, then Redis and the database close; exit 0
  onShutdownSignals(log, () => worker.close());
  await worker.init();
  log.info('worker running');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
