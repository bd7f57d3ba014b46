import { Inject, Injectable, Optional } from '@nestjs/common';
import { actionOf } from '../logging/log-context';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** HTTP answers: most within 100 ms, the spec's bound is 30 s (REQUEST_TIMEOUT_MS). */
const HTTP_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** background jobs: a text in milliseconds, a daily sweep of every school in minutes */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
/** the live flow: a flush every FLUSH_MS, an alert above 1 s at p99 */
const LAG_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

export const METRICS_OPTIONS = Symbol('METRICS_OPTIONS');

export interface MetricsOptions {
  /** api: /metrics on the API's port, HTTP and live figures, the figures read at scrape (queues, payments, texts, disk); worker: its own figures */
  role: 'api' | 'worker';
  /** the worker (no HTTP server of its own): serve GET /metrics on this port (WORKER_METRICS_PORT; 0: any free port) */
  port?: number | null;
  host?: string;
}

/** The action label of a request: the catalogue action (the logs' actionOf), else the route's path, else `other` (no route: static files, 404). */
export function actionLabelOf(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return 'other';
  const path = `${req.baseUrl ?? ''}${route.path}`;
  return actionOf({ method: req.method, path }) ?? path;
}

/**
 * The process's Prometheus registry (one per app: tests start several in one process) and the figures other parts of
 * the code feed: HTTP durations (httpMiddleware, beside the request log), job durations (JobRegistry.run), the live
 * flow's deliveries and lag (FlowGateway). Figures read at each scrape are registered by ScrapeCollectors.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'action' | 'code'>;
  readonly jobDuration: Histogram<'queue' | 'job' | 'outcome'>;
  readonly liveDelivered: Counter<'event'>;
  readonly flowLag: Histogram;

  /** the live gateway's count of open sockets in this process (set by FlowGateway) */
  private openSockets: (() => number) | null = null;

  constructor(@Optional() @Inject(METRICS_OPTIONS) options?: MetricsOptions) {
    const registers = [this.registry];
    // the API's own figures (HTTP, live): the worker serves no requests and holds no sockets, it does not export them
    const api = (options?.role ?? 'api') === 'api' ? registers : [];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by catalogue action (or route) and envelope code (or HTTP status)',
      labelNames: ['action', 'code'] as const,
      buckets: HTTP_BUCKETS,
      registers: api,
    });
    this.jobDuration = new Histogram({
      name: 'job_duration_seconds',
      help: 'Background job runs by queue, job name and outcome (completed, failed: an attempt that threw)',
      labelNames: ['queue', 'job', 'outcome'] as const,
      buckets: JOB_BUCKETS,
      registers,
    });
    this.liveDelivered = new Counter({
      name: 'live_messages_delivered_total',
      help: 'Live flow messages written to sockets of this process (flow.event: one event; flow.events: a batch)',
      labelNames: ['event'] as const,
      registers: api,
    });
    this.flowLag = new Histogram({
      name: 'flow_delivery_lag_seconds',
      help: "Live flow events: delivery to this process's sockets minus the event's time (its commit)",
      buckets: LAG_BUCKETS,
      registers: api,
    });
    const sockets = () => this.openSockets?.();
    new Gauge({
      name: 'live_sockets',
      help: 'Open live (socket.io) connections of this process',
      registers: api,
      collect() {
        const n = sockets();
        if (n !== undefined) this.set(n);
      },
    });
  }

  /** The live gateway tells where its open sockets are counted. */
  countSockets(fn: () => number): void {
    this.openSockets = fn;
  }

  /** Observes every answered request: registered right after the request log, on the same 'finish' (bootstrap.ts). */
  httpMiddleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const code = (res.locals.code as number | undefined) ?? res.statusCode;
        this.httpDuration.observe({ action: actionLabelOf(req), code: String(code) }, seconds);
      });
      next();
    };
  }

  /** The Prometheus text of every figure (the content type is `contentType`). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
