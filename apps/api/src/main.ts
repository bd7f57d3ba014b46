import 'reflect-metadata';
import { createApp } from './bootstrap';
import { ConfigError, loadConfig } from './core/config/config';
import { createLogger } from './core/logging/logger';
import { HttpDrain, onShutdownSignals } from './core/shutdown/graceful-shutdown';
import { prepareDatabase, resolveDatabase } from './runtime';

async function main() {
  let config;
  try {
    // production: REDIS_URL too (the jobs never run in this process's timers there)
    config = loadConfig(process.env, { api: true });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const db = await resolveDatabase(config, log);
  await prepareDatabase(db.config, log, { showcase: config.seedShowcase });
  // without Redis there is no worker process: the API runs the job processors itself
  const app = await createApp(db.config, log, { runJobs: !config.redisUrl, forceCloseConnections: true });
  // SIGTERM/SIGINT: the requests in flight are answered, the sockets told, running jobs finish, then Redis and the
  // database close (core/shutdown/graceful-shutdown.ts); the embedded database stops last
  const http = new HttpDrain(app.getHttpServer(), log);
  onShutdownSignals(log, async () => {
    await http.drain();
    await app.close();
    await db.stop();
  });
  await app.listen(config.port, config.host);
  log.info(
    { port: config.port, database: config.databaseUrl ? 'postgres' : 'embedded pglite', jobs: config.redisUrl ? 'bullmq' : 'in-process' },
    `listening on http://localhost:${config.port}`,
  );
}

main().catch((err) => {
  process.stderr.write(`start failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
