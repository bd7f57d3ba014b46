import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger';
import { Metrics, METRICS_OPTIONS, type MetricsOptions } from './metrics';

/** The worker's /metrics: a bare HTTP server on WORKER_METRICS_PORT answering GET /metrics and nothing else. */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(METRICS_OPTIONS) private readonly options: MetricsOptions,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.options;
    if (port === null || port === undefined) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.statusCode = 404;
        res.end();
        return;
      }
      this.metrics.text().then(
        (text) => {
          res.setHeader('Content-Type', this.metrics.contentType);
          res.end(text);
        },
        (err: unknown) => {
          this.log.error({ err }, 'metrics scrape failed');
          res.statusCode = 500;
          res.end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host ?? '0.0.0.0', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.log.info({ port: this.port() }, 'worker metrics on /metrics');
  }

  /** The port it listens on (null: not serving). */
  port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
