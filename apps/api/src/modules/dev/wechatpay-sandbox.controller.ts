import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { Input } from '../../core/http/input.decorator';
import { WechatPaySandbox, type SignedAnswer } from './wechatpay-sandbox.service';

const SimulateInput = z.strictObject({
  out_trade_no: z.string().regex(/^[A-Za-z0-9_-]{6,32}$/),
  result: z.enum(['SUCCESS', 'FAIL']).default('SUCCESS'),
});

const FinishRefundInput = z.strictObject({
  out_refund_no: z.string().regex(/^[A-Za-z0-9_\-|*@]{1,64}$/),
  result: z.enum(['SUCCESS', 'ABNORMAL', 'CLOSED']).default('SUCCESS'),
});

const HoldRefundsInput = z.strictObject({ hold: z.boolean() });

function send(res: Response, a: SignedAnswer): void {
  res.status(a.status).set(a.headers);
  if (a.status === 204) res.end();
  else res.type('application/json').send(a.body);
}

/**
 * The local WeChat Pay sandbox's HTTP side (outside production only): the v3 endpoints the adapter calls, each
 * checked for the merchant's signature and answered signed, and `simulate`, which pays or fails an order and sends
 * its notify (design.md §2).
 */
@Controller('api/dev/wechatpay')
export class WechatPaySandboxController {
  constructor(private readonly sandbox: WechatPaySandbox) {}

  /** Every v3 request: signed by the merchant, or 401 as the real service answers. */
  private async signed(req: Request, res: Response, handle: (body: Record<string, unknown>) => Promise<SignedAnswer>): Promise<void> {
    if (!this.sandbox.enabled) {
      res.status(404).json({ code: 'NOT_FOUND', message: 'the sandbox is off: WeChat Pay is configured' });
      return;
    }
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const refused = this.sandbox.verifyRequest(req.method, req.originalUrl, req.headers.authorization, raw);
    if (refused) return send(res, this.sandbox.sign(401, { code: 'SIGN_ERROR', message: refused }));
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(res, this.sandbox.sign(400, { code: 'PARAM_ERROR', message: 'body is not JSON' }));
      }
    }
    send(res, await handle(body));
  }

  @Post('v3/pay/transactions/native')
  @Access('pub')
  native(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.createNative(body));
  }

  @Get('v3/pay/transactions/out-trade-no/:no')
  @Access('pub')
  query(@Req() req: Request, @Res() res: Response, @Param('no') no: string) {
    return this.signed(req, res, () => this.sandbox.query(no));
  }

  @Post('v3/pay/transactions/out-trade-no/:no/close')
  @Access('pub')
  close(@Req() req: Request, @Res() res: Response, @Param('no') no: string) {
    return this.signed(req, res, () => this.sandbox.close(no));
  }

  @Post('v3/refund/domestic/refunds')
  @Access('pub')
  refund(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.refund(body));
  }

  /** The refund status query (v3 `GET /v3/refund/domestic/refunds/{out_refund_no}`). */
  @Get('v3/refund/domestic/refunds/:no')
  @Access('pub')
  queryRefund(@Req() req: Request, @Res() res: Response, @Param('no') no: string) {
    return this.signed(req, res, () => this.sandbox.queryRefund(no));
  }

  /** Whether this API serves the sandbox (the web shows its 模拟扫码支付 button only then). */
  @Get('status')
  @Access('pub')
  status() {
    return { sandbox: this.sandbox.enabled };
  }

  /** Tells the sandbox the payer scanned and paid (SUCCESS, default) or failed (FAIL); a paid order's notify is sent again. */
  @Post('simulate')
  @Access('pub')
  simulate(@Input(SimulateInput) input: z.infer<typeof SimulateInput>) {
    return this.sandbox.simulate(input.out_trade_no, input.result);
  }

  /** While held, refunds are answered PROCESSING (as the real service mostly does) until finished below. */
  @Post('holdRefunds')
  @Access('pub')
  holdRefunds(@Input(HoldRefundsInput) input: z.infer<typeof HoldRefundsInput>) {
    if (!this.sandbox.enabled) return { hold: false };
    this.sandbox.holdRefunds = input.hold;
    return { hold: this.sandbox.holdRefunds };
  }

  /** Finishes a held refund (SUCCESS, ABNORMAL or CLOSED) and sends its signed REFUND.* notify; a finished one's again. */
  @Post('finishRefund')
  @Access('pub')
  finishRefund(@Input(FinishRefundInput) input: z.infer<typeof FinishRefundInput>) {
    return this.sandbox.finishRefund(input.out_refund_no, input.result);
  }
}
