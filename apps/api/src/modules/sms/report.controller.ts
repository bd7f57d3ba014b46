import { Controller, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { SMS_GATEWAYS, type SmsGatewayName } from '@wantuo/shared';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { Access } from '../../core/auth/access.decorator';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { LOGGER } from '../../core/logging/logger';
import type { DeliveryReport } from './gateways/gateway';
import { SmsGateways } from './gateways/gateways';
import { SmsReports } from './reports.service';

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * POST /api/sms-report/aliyun and /api/sms-report/tencent: the providers' delivery-report callbacks (Aliyun's SmsReport
 * HTTP push, Tencent's 短信回执 callback). Neither provider signs these requests, so the URL given to their consoles
 * carries SMS_REPORT_TOKEN and a report only changes a message this platform sent through that provider, matched by
 * the provider's id and the mobile. Answers in the provider's shape; a wrong token 401, a body it cannot read 400.
 */
@Controller('api/sms-report')
export class SmsReportController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gateways: SmsGateways,
    private readonly reports: SmsReports,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  @Post(':provider')
  @Access('pub')
  async report(@Param('provider') provider: string, @Query('token') token: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const gateway = (SMS_GATEWAYS as readonly string[]).includes(provider) ? this.gateways.get(provider as SmsGatewayName) : undefined;
    if (!gateway) {
      res.status(404).json({ code: 404, msg: 'unknown provider' });
      return;
    }
    if (typeof token !== 'string' || !sameToken(token, this.config.sms.reportToken)) {
      this.log.warn({ provider, ip: req.ip }, 'sms report refused: token');
      res.status(401).json({ code: 401, msg: 'bad token' });
      return;
    }
    let reports: DeliveryReport[];
    try {
      reports = gateway.parseReport(JSON.parse((Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)).toString('utf8')));
    } catch (err) {
      this.log.warn({ provider, err: String(err) }, 'sms report refused: body');
      res.status(400).json({ code: 400, msg: 'not a report' });
      return;
    }
    try {
      const r = await this.reports.receive(gateway.name, reports);
      this.log.info({ provider, ...r }, 'sms reports received');
      res.status(200).json(gateway.reportAnswer);
    } catch (err) {
      this.log.error({ err, provider }, 'sms reports failed');
      // the provider sends them again
      res.status(500).json({ code: 500, msg: 'internal error' });
    }
  }
}
