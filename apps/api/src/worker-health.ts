import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from './core/config/config';
import { checkOwnHeartbeat } from './core/health/heartbeat';

/**
 * The worker container's healthcheck (docker-compose.yml: `node apps/api/dist/worker-health.js`): exit 0 when a worker
 * process in this container wrote its heartbeat to Redis within 60 s, else 1 with the reason on stderr. Redis away
 * counts as unhealthy too: a worker cannot take jobs without it.
 */
async function main(): Promise<boolean> {
  const config = loadConfig();
  if (!config.redisUrl) throw new ConfigError('worker-health: REDIS_URL is not set (without Redis there is no worker process)');
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const { ok, message } = await checkOwnHeartbeat(redis, config.queuePrefix);
    (ok ? process.stdout : process.stderr).write(`${message}\n`);
    return ok;
  } finally {
    redis.disconnect();
  }
}

setTimeout(() => {
  process.stderr.write('worker-health: no answer from Redis in 8 s\n');
  process.exit(1);
}, 8_000).unref();

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stderr.write(`worker-health: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
