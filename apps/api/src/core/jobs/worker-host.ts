import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { LOGGER } from '../logging/logger';
import { REDIS } from '../redis/redis.provider';
import { JobRegistry } from './job-registry';
import { JOB_SPECS, type JobName, type QueueName } from './jobs.types';

/** Runs one BullMQ worker per queue that has handlers (worker process, or tests that want real workers). */
@Injectable()
export class WorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private workers: Worker[] = [];
  private connections: Redis[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly registry: JobRegistry,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.redis) return; // in-process mode: JobsService runs the handlers itself
    const queues = new Set<QueueName>(this.registry.names().map((n) => JOB_SPECS[n].queue));
    for (const queue of queues) {
      // BullMQ does not close a connection it was handed: keep it to close it ourselves
      const connection = this.redis.duplicate({ maxRetriesPerRequest: null });
      this.connections.push(connection);
      const worker = new Worker(queue, (job) => this.registry.run(job.name as JobName, job.data), {
        connection,
        prefix: this.config.queuePrefix,
        concurrency: 5,
      });
      worker.on('failed', (job, err) => this.log.warn({ err, job: job?.name, id: job?.id, attempts: job?.attemptsMade }, 'job failed'));
      worker.on('error', (err) => this.log.error({ err, queue }, 'worker error'));
      this.workers.push(worker);
    }
    this.log.info({ queues: [...queues] }, 'workers started');
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }
}
