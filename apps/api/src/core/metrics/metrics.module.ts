import { DynamicModule, Global, Module } from '@nestjs/common';
import { PoolCollector, ScrapeCollectors } from './collectors';
import { Metrics, METRICS_OPTIONS, type MetricsOptions } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';

/**
 * Prometheus metrics (prom-client), one registry per process. The API serves GET /metrics on its own port and reads
 * the queues, payments, texts and disk at each scrape; the worker, which has no HTTP server, serves its own figures
 * (job durations, its pool, process metrics) on WORKER_METRICS_PORT when set. Global: JobRegistry and the live
 * gateway feed Metrics.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsOptions): DynamicModule {
    const api = options.role === 'api';
    return {
      module: MetricsModule,
      controllers: api ? [MetricsController] : [],
      providers: [{ provide: METRICS_OPTIONS, useValue: options }, Metrics, PoolCollector, ...(api ? [ScrapeCollectors] : [MetricsServer])],
      exports: [Metrics, ...(api ? [] : [MetricsServer])],
    };
  }
}
