import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { LOGGER } from '../logging/logger';
import { REDIS } from '../redis/redis.provider';
import { JobRegistry } from './job-registry';
import { JOB_SPECS, QUEUE_NAMES, type JobName, type JobPayloads, type QueueName } from './jobs.types';
import { InFlight } from '../events/in-flight';

/** The longest a Node timer waits (2^31-1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** Jobs per BullMQ addBulk in enqueueMany. */
const BULK_SIZE = 1000;

/**
 * Where services put background work. With Redis: BullMQ queues, processed by the worker process.
 * Without Redis (the embedded `npm start` mode): the same handlers run in this process, with the same retries.
 */
@Injectable()
export class JobsService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly inline = new InFlight((err) => this.log.error({ err }, 'in-process job failed'));
  private readonly delayed = new Set<NodeJS.Timeout>();
  private closing = false;
  /** in-process jobs' ids (their log lines' job_id) */
  private inlineSeq = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly registry: JobRegistry,
  ) {}

  /** Queues a job; `delayMs` runs it that much later (a delayed BullMQ job, or a timer in-process). */
  async enqueue<K extends JobName>(name: K, data: JobPayloads[K], opts: { delayMs?: number } = {}): Promise<void> {
    const spec = JOB_SPECS[name];
    if (this.redis) {
      await this.queue(spec.queue).add(name, data, {
        delay: opts.delayMs,
        attempts: spec.attempts,
        backoff: { type: 'exponential', delay: spec.backoffMs },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      });
      return;
    }
    if (opts.delayMs && opts.delayMs > 0) {
      // a delayed job in-process: a timer, cleared at shutdown (the job then simply does not run here)
      // a timer waits at most 2^31-1 ms (24.8 days; longer fires at once): a longer delay waits that long, then again
      const step = Math.min(opts.delayMs, MAX_TIMER_MS);
      const timer = setTimeout(() => {
        this.delayed.delete(timer);
        void this.enqueue(name, data, { delayMs: opts.delayMs! - step });
      }, step);
      timer.unref();
      this.delayed.add(timer);
      return;
    }
    this.inline.track(this.runInline(name, data, spec.attempts, spec.backoffMs));
  }

  /**
   * Many jobs of one kind with the options of enqueue: with Redis in BullMQ bulks of BULK_SIZE (one round trip each;
   * one add per job took seconds for thousands of texts), without Redis each through enqueue (in-process).
   */
  async enqueueMany<K extends JobName>(name: K, data: ReadonlyArray<JobPayloads[K]>, opts: { delayMs?: number } = {}): Promise<void> {
    if (!data.length) return;
    if (!this.redis) {
      for (const d of data) await this.enqueue(name, d, opts);
      return;
    }
    const spec = JOB_SPECS[name];
    const jobOpts = {
      attempts: spec.attempts,
      backoff: { type: 'exponential', delay: spec.backoffMs },
      removeOnComplete: 1000,
      removeOnFail: 5000,
      ...(opts.delayMs && opts.delayMs > 0 ? { delay: opts.delayMs } : {}),
    };
    const queue = this.queue(spec.queue);
    for (let i = 0; i < data.length; i += BULK_SIZE) {
      await queue.addBulk(data.slice(i, i + BULK_SIZE).map((d) => ({ name, data: d, opts: jobOpts })));
    }
  }

  /** Every BullMQ queue (the operators' queue board), or null when jobs run in this process (no Redis). */
  allQueues(): Queue[] | null {
    return this.redis ? QUEUE_NAMES.map((name) => this.queue(name)) : null;
  }

  /** The BullMQ queue of a name (only with Redis). */
  queue(name: QueueName): Queue {
    if (!this.redis) throw new Error('queues need REDIS_URL');
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.redis, prefix: this.config.queuePrefix });
      this.queues.set(name, q);
    }
    return q;
  }

  private async runInline<K extends JobName>(name: K, data: JobPayloads[K], attempts: number, backoffMs: number): Promise<void> {
    await new Promise((r) => setImmediate(r));
    const id = `inline-${++this.inlineSeq}`;
    for (let attempt = 1; attempt <= attempts && !this.closing; attempt++) {
      try {
        await this.registry.run(name, data, { id });
        return;
      } catch (err) {
        this.log.warn({ err, job: name, job_id: id, attempt }, 'in-process job failed');
        if (attempt < attempts) await new Promise((r) => setTimeout(r, backoffMs * 2 ** (attempt - 1)).unref());
      }
    }
  }

  /**
   * In-process jobs that are running finish before any shutdown hook closes what they use (the database closes in
   * TypeORM's onApplicationShutdown, which Nest calls before this module's); those not started yet are dropped, with
   * the delayed ones (with Redis they wait in their queue).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    for (const timer of this.delayed) clearTimeout(timer);
    await this.inline.settled();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.beforeApplicationShutdown();
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
