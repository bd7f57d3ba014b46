import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { LOGGER } from '../logging/logger';
import { REDIS } from '../redis/redis.provider';
import { WorkerHeartbeat } from '../health/heartbeat';
import { JobRegistry } from './job-registry';
import { JobsService } from './jobs.service';
import { JOB_SPECS, SCHEDULES, type JobName, type QueueName } from './jobs.types';

/** Runs one BullMQ worker per queue that has handlers (worker process, or tests that want real workers). */
@Injectable()
export class WorkerHost implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  private workers: Worker[] = [];
  private connections: Redis[] = [];
  private timers: NodeJS.Timeout[] = [];
  /** the heartbeat /api/health/ready and the worker's healthcheck look for (with Redis) */
  private heartbeat: WorkerHeartbeat | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly registry: JobRegistry,
    private readonly jobs: JobsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.schedule();
    if (!this.redis) return; // in-process mode: JobsService runs the handlers itself
    const queues = new Set<QueueName>(this.registry.names().map((n) => JOB_SPECS[n].queue));
    for (const queue of queues) {
      // BullMQ does not close a connection it was handed: keep it to close it ourselves
      const connection = this.redis.duplicate({ maxRetriesPerRequest: null });
      this.connections.push(connection);
      const worker = new Worker(queue, (job) => this.registry.run(job.name as JobName, job.data, job), {
        connection,
        prefix: this.config.queuePrefix,
        concurrency: 5,
      });
      worker.on('failed', (job, err) => this.log.warn({ err, job: job?.name, job_id: job?.id, queue, attempts: job?.attemptsMade }, 'job failed'));
      worker.on('error', (err) => this.log.error({ err, queue }, 'worker error'));
      this.workers.push(worker);
    }
    this.log.info({ queues: [...queues] }, 'workers started');
    this.heartbeat = new WorkerHeartbeat(this.redis, this.config.queuePrefix, this.log);
    await this.heartbeat.start();
  }

  /**
   * Scheduled jobs (SCHEDULES): a BullMQ job scheduler with Redis (one run per period across all workers), a timer in
   * the in-process mode. Not in tests: they run their jobs by hand, at the times they choose.
   */
  private async schedule(): Promise<void> {
    if (this.config.env === 'test') return;
    const names = new Set(this.registry.names());
    for (const { name, everyMs } of SCHEDULES) {
      if (!names.has(name)) continue;
      if (this.redis) {
        await this.jobs.queue(JOB_SPECS[name].queue).upsertJobScheduler(name, { every: everyMs }, { name, data: {} });
      } else {
        const timer = setInterval(() => void this.jobs.enqueue(name, {}), everyMs);
        timer.unref();
        this.timers.push(timer);
      }
    }
  }

  /** Before any shutdown hook (Redis still open): ready stops counting this worker at once. */
  async onModuleDestroy(): Promise<void> {
    await this.heartbeat?.stop();
  }

  /** No job starts any more; those running finish (BullMQ's close waits for them) while the database and Redis are open. */
  async beforeApplicationShutdown(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await Promise.all(this.workers.map((w) => w.close()));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }
}
