import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { statfs } from 'node:fs/promises';
import type { Logger } from 'pino';
import { SMS_STATES, type Payee, type SmsState } from '@wantuo/shared';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { JobsService } from '../jobs/jobs.service';
import { LOGGER } from '../logging/logger';
import { Metrics } from './metrics';

/** The BullMQ states a queue gauge reports. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** A scrape never waits longer than this for Redis or PostgreSQL: a figure that does not come is left out. */
const SCRAPE_TIMEOUT_MS = 2000;
/** The database figures are read once per scrape (several gauges share one round trip). */
const DB_FIGURES_TTL_MS = 1000;

interface DbFigures {
  pending_over_10m: number;
  pending_past_expiry: number;
  sms_states: Partial<Record<SmsState, number>>;
  bill_differences_open: Partial<Record<Payee, number>>;
  db_bytes: number;
}

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${SCRAPE_TIMEOUT_MS} ms`)), SCRAPE_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The pg Pool under TypeORM's PostgreSQL driver (totalCount, idleCount, waitingCount), if it is one. */
function poolOf(db: DataSource): { totalCount: number; idleCount: number; waitingCount: number } | null {
  const pool = (db.driver as unknown as { master?: { totalCount?: unknown; idleCount?: unknown; waitingCount?: unknown } }).master;
  if (!pool || typeof pool.totalCount !== 'number' || typeof pool.idleCount !== 'number' || typeof pool.waitingCount !== 'number') return null;
  return pool as { totalCount: number; idleCount: number; waitingCount: number };
}

/** The PostgreSQL pool's connections: every process that has one (API and worker). */
@Injectable()
export class PoolCollector implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  onModuleInit(): void {
    const db = this.db;
    new Gauge({
      name: 'db_pool_connections',
      help: "PostgreSQL pool of this process: total and idle connections, and queries waiting for one (state='waiting')",
      labelNames: ['state'] as const,
      registers: [this.metrics.registry],
      collect() {
        const pool = db.isInitialized ? poolOf(db) : null;
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
}

/**
 * What the API reads at each scrape, from Redis and PostgreSQL: the BullMQ queues, payments pending too long, text
 * messages by state, open reconciliation differences, the database's size and the data folder's disk. Only the API
 * registers them (the worker's registry would only repeat them).
 */
@Injectable()
export class ScrapeCollectors implements OnModuleInit {
  private db: { at: number; figures: Promise<DbFigures> } | null = null;

  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly jobs: JobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleInit(): void {
    const registers = [this.metrics.registry];
    // the gauges' collect() runs with `this` the gauge: what they read of this class, as closures
    const guard = <T>(p: Promise<T>, what: string) => this.guard(p, what);
    const dbFigures = () => this.dbFigures();
    const allQueues = () => this.jobs.allQueues();
    const uploadDir = () => this.config.uploadDir;

    new Gauge({
      name: 'queue_jobs',
      help: 'BullMQ jobs per queue and state (waiting, active, delayed, failed), read from Redis at each scrape',
      labelNames: ['queue', 'state'] as const,
      registers,
      async collect() {
        this.reset();
        const queues = allQueues();
        if (!queues) return; // no Redis: jobs run in-process, there is no queue to read
        const counts = await guard(Promise.all(queues.map((q) => within(q.getJobCounts(...QUEUE_STATES), 'queue counts'))), 'queue counts');
        if (!counts) return;
        queues.forEach((q, i) => {
          for (const state of QUEUE_STATES) this.set({ queue: q.name, state }, counts[i][state] ?? 0);
        });
      },
    });

    new Gauge({
      name: 'payments_pending',
      help: "Provider payments still pending: age='over_10m' created more than 10 minutes ago (a QR not paid yet), age='past_expiry' 10 minutes past their expiry (payments.check should have closed them)",
      labelNames: ['age'] as const,
      registers,
      async collect() {
        this.reset();
        const f = await dbFigures();
        if (!f) return;
        this.set({ age: 'over_10m' }, f.pending_over_10m);
        this.set({ age: 'past_expiry' }, f.pending_past_expiry);
      },
    });

    new Gauge({
      name: 'sms_messages',
      help: 'Text messages of today and yesterday (China dates) by state: queued, sending, sent (accepted by the provider), delivered (its receipt), failed',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        this.reset();
        const f = await dbFigures();
        if (f) for (const state of SMS_STATES) this.set({ state }, f.sms_states[state] ?? 0);
      },
    });

    new Gauge({
      name: 'payment_bill_differences_open',
      help: "Reconciliation differences not resolved yet (a WeChat trade bill line and the payments recorded disagree), by payee: 'platform' (its own sub-merchant), 'school'",
      labelNames: ['payee'] as const,
      registers,
      async collect() {
        this.reset();
        const f = await dbFigures();
        if (f) for (const payee of ['platform', 'school'] as const) this.set({ payee }, f.bill_differences_open[payee] ?? 0);
      },
    });

    new Gauge({
      name: 'db_size_bytes',
      help: 'Size of the PostgreSQL database on disk',
      registers,
      async collect() {
        this.reset();
        const f = await dbFigures();
        if (f) this.set(f.db_bytes);
      },
    });

    const disk = (name: string, help: string, pick: (s: { bavail: number; blocks: number; bsize: number }) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['path'] as const,
        registers,
        async collect() {
          this.reset();
          const s = await guard(statfs(uploadDir()), 'disk of the upload folder');
          if (s) this.set({ path: uploadDir() }, pick({ bavail: Number(s.bavail), blocks: Number(s.blocks), bsize: Number(s.bsize) }));
        },
      });
    disk('disk_free_bytes', 'Free bytes (for unprivileged users) on the disk of the upload folder', (s) => s.bavail * s.bsize);
    disk('disk_size_bytes', 'Size in bytes of the disk of the upload folder', (s) => s.blocks * s.bsize);
  }

  /** One round trip for the database figures, shared by the gauges of one scrape. */
  private dbFigures(): Promise<DbFigures | null> {
    const now = Date.now();
    if (!this.db || now - this.db.at > DB_FIGURES_TTL_MS) {
      const figures = within(
        this.ds.query(
          `select (select count(*) from payments where state = 'pending' and created_at < now() - interval '10 minutes')::int as pending_over_10m,
                  (select count(*) from payments where state = 'pending' and expires_at < now() - interval '10 minutes')::int as pending_past_expiry,
                  (select coalesce(json_object_agg(state, n), '{}') from (
                     select state, count(*)::float8 as n from sms_messages
                      where day >= (now() at time zone 'Asia/Shanghai')::date - 1 group by state) s) as sms_states,
                  (select coalesce(json_object_agg(payee, n), '{}') from (
                     select case when school_id is null then 'platform' else 'school' end as payee, count(*)::float8 as n
                       from payment_bill_differences where state = 'open' group by 1) d) as bill_differences_open,
                  pg_database_size(current_database())::float8 as db_bytes`,
        ) as Promise<DbFigures[]>,
        'database figures',
      ).then((rows) => rows[0]);
      this.db = { at: now, figures };
    }
    return this.guard(this.db.figures, 'database figures');
  }

  /** A figure that fails is left out of this scrape (and logged); the others still answer. */
  private async guard<T>(p: Promise<T>, what: string): Promise<T | null> {
    try {
      return await p;
    } catch (err) {
      this.log.warn({ err, what }, 'metrics: a figure could not be read');
      return null;
    }
  }
}
