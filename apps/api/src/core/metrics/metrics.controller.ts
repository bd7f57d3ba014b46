import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Metrics } from './metrics';

/**
 * GET /metrics: the Prometheus text of this API process, on the API's own port. Public like /api/health, and not
 * proxied by nginx (apps/web/nginx/default.conf): Prometheus reaches the api container directly (docs/operations.md).
 */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  @Access('pub')
  async scrape(@Res() res: Response): Promise<void> {
    const text = await this.metrics.text();
    res.status(200).setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
  }
}
