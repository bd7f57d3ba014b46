import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { Access } from '../../core/auth/access.decorator';
import { LOGGER } from '../../core/logging/logger';
import { PaymentsService } from './payments.service';
import { NotifyRefused, PaymentProvider } from './provider';
import { RefundsService } from './refunds.service';

/**
 * POST /api/pay/wechat/notify: WeChat Pay API v3 notifies (design.md §2), of payments (TRANSACTION.*) and of refunds
 * (REFUND.SUCCESS / ABNORMAL / CLOSED: refunds send this URL too). The raw body is verified (signature, key id,
 * timestamp) and decrypted by the provider, then ends in the one idempotent "mark paid", or in the refund's one way of
 * recording what the provider says (RefundsService.recordNotice). Answers as v3 expects: 204 when handled (a repeat
 * included); a refused notify 4xx with `{ code: "FAIL", message }`, logged, changes nothing; a failure of ours 500, so
 * the provider sends it again.
 */
@Controller('api/pay/wechat')
export class NotifyController {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly payments: PaymentsService,
    private readonly refunds: RefundsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  @Post('notify')
  @Access('pub')
  @HttpCode(204)
  async notify(@Req() req: Request, @Res() res: Response): Promise<void> {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      const n = this.provider.verifyNotify(req.headers, raw);
      if (n.type === 'refund') {
        const result = await this.refunds.recordNotice(n.refund);
        this.log.info(
          { outTradeNo: n.refund.outTradeNo, outRefundNo: n.refund.outRefundNo, status: n.refund.status, result },
          'refund notify handled',
        );
      } else {
        const result = await this.payments.markPaid(n.transaction);
        this.log.info({ outTradeNo: n.transaction.outTradeNo, result }, 'payment notify handled');
      }
      res.status(204).end();
    } catch (err) {
      if (err instanceof NotifyRefused) {
        this.log.warn({ reason: err.reason, ip: req.ip, bytes: raw.length }, 'notify refused');
        res.status(err.status).json({ code: 'FAIL', message: err.reason });
        return;
      }
      this.log.error({ err }, 'notify failed');
      res.status(500).json({ code: 'FAIL', message: 'internal error' });
    }
  }
}
