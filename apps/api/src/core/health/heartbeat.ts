import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A worker writes its heartbeat this often... */
export const HEARTBEAT_EVERY_MS = 15_000;
/** ...and /api/health/ready (and the worker's own healthcheck) want one seen within this window. */
export const HEARTBEAT_FRESH_MS = 60_000;
/** Heartbeats older than this are dropped from the set (until then ready can say when a worker was last seen). */
const HEARTBEAT_KEEP_MS = 3_600_000;

/**
 * Every worker's heartbeat is a member `<host>:<pid>` of one sorted set per deployment (under QUEUE_PREFIX), scored with
 * Redis' own clock (TIME), so the API and the workers agree on ages whatever their clocks say.
 */
export const heartbeatKey = (prefix: string) => `${prefix}:health:workers`;

/** This process' member in the set: the host (a container's id) and the process id. */
export const heartbeatId = (host = hostname(), pid = process.pid) => `${host}:${pid}`;

const BEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return now
`;

/** Writes one heartbeat of `id` now (Redis' time). */
export async function beat(redis: Redis, prefix: string, id: string): Promise<void> {
  await redis.eval(BEAT, 1, heartbeatKey(prefix), id, String(HEARTBEAT_KEEP_MS));
}

export interface SeenWorker {
  id: string;
  /** ms since its last heartbeat, by Redis' clock */
  ageMs: number;
}

/** The workers whose heartbeats are in the set (the last hour), freshest first. */
export async function readHeartbeats(redis: Redis, prefix: string): Promise<SeenWorker[]> {
  const res = await redis.multi().time().zrange(heartbeatKey(prefix), 0, -1, 'WITHSCORES').exec();
  if (!res) throw new Error('heartbeat read aborted');
  for (const [err] of res) if (err) throw err;
  const [sec, usec] = res[0][1] as [string, string];
  const now = Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
  const flat = res[1][1] as string[];
  const seen: SeenWorker[] = [];
  for (let i = 0; i < flat.length; i += 2) seen.push({ id: flat[i], ageMs: Math.max(0, now - Number(flat[i + 1])) });
  return seen.sort((a, b) => a.ageMs - b.ageMs);
}

/**
 * The worker container's own check (worker-health.ts): a worker process of this host (a container's hostname is its
 * id) wrote its heartbeat within HEARTBEAT_FRESH_MS.
 */
export async function checkOwnHeartbeat(redis: Redis, prefix: string, host = hostname()): Promise<{ ok: boolean; message: string }> {
  const mine = (await readHeartbeats(redis, prefix)).filter((w) => w.id.startsWith(`${host}:`));
  if (!mine.length) return { ok: false, message: `no heartbeat of a worker on ${host} in the last hour` };
  const ageS = Math.round(mine[0].ageMs / 1000);
  if (mine[0].ageMs > HEARTBEAT_FRESH_MS) return { ok: false, message: `the last heartbeat of ${mine[0].id} is ${ageS} s old` };
  return { ok: true, message: `${mine[0].id} beat ${ageS} s ago` };
}

/**
 * The heartbeat of a worker process (WorkerHost): one at start, every HEARTBEAT_EVERY_MS, and again as soon as the
 * Redis connection is back after an outage (a restarted Redis without persistence has lost the set). Never throws:
 * while Redis is away it skips its beats (nothing queues up) and ready says Redis is down. `stop` removes this
 * worker's member, so a worker that shuts down is missing from ready at once rather than after 60 s.
 */
export class WorkerHeartbeat {
  private timer: NodeJS.Timeout | null = null;
  private readonly onReady = () => void this.tick();
  private failing = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
    readonly id = heartbeatId(),
  ) {}

  async start(): Promise<void> {
    if (this.timer) return;
    this.timer = setInterval(this.onReady, HEARTBEAT_EVERY_MS);
    this.timer.unref();
    this.redis.on('ready', this.onReady);
    await this.tick();
  }

  private async tick(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    try {
      await beat(this.redis, this.prefix, this.id);
      if (this.failing) this.log.info({ id: this.id }, 'worker heartbeat written again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.log.warn({ err, id: this.id }, 'worker heartbeat not written');
      this.failing = true;
    }
  }

  async stop(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.redis.off('ready', this.onReady);
    if (this.redis.status !== 'ready') return;
    await Promise.race([
      this.redis.zrem(heartbeatKey(this.prefix), this.id).catch(() => undefined),
      new Promise((r) => setTimeout(r, 2_000).unref()),
    ]);
  }
}
