import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { Input } from '../../core/http/input.decorator';
import { h5CashierPage, h5NotFoundPage, JSBRIDGE_JS } from './wechatpay-sandbox.pages';
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

const SubMerchantInput = z.strictObject({
  sub_mchid: z.string().regex(/^[0-9]{8,12}$/),
  name: z.string().trim().min(1).max(100),
});

/** Hosts a developer's browser reaches this API on, whatever proxy (Vite's rewrites Host) stands between. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where the cashier page may send the payer back: a path of this origin, or an http(s) URL of the host the page was
 * asked on (or a loopback host: a dev server's proxy rewrites Host) — the real service, too, only returns to the
 * merchant's registered H5 domain. Anything else: nowhere.
 */
function returnTo(req: Request, url: unknown): string | null {
  if (typeof url !== 'string' || !url || url.length > 2000) return null;
  if (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) return url;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.host === req.headers.host || LOOPBACK.has(u.hostname) ? u.toString() : null;
  } catch {
    return null;
  }
}

const sandboxOff = (res: Response) => res.status(404).json({ code: 'NOT_FOUND', message: 'the sandbox is off: WeChat Pay is configured' });

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

  @Post('v3/pay/transactions/jsapi')
  @Access('pub')
  jsapi(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.createJsapi(body));
  }

  @Post('v3/pay/transactions/h5')
  @Access('pub')
  h5(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.createH5(body));
  }

  /** Service-provider mode (服务商): orders for a sub-merchant onboarded under the service provider. */
  @Post('v3/pay/partner/transactions/native')
  @Access('pub')
  partnerNative(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.createPartner(body, 'NATIVE'));
  }

  @Post('v3/pay/partner/transactions/jsapi')
  @Access('pub')
  partnerJsapi(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.createPartner(body, 'JSAPI'));
  }

  @Post('v3/pay/partner/transactions/h5')
  @Access('pub')
  partnerH5(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, (body) => this.sandbox.createPartner(body, 'MWEB'));
  }

  @Get('v3/pay/partner/transactions/out-trade-no/:no')
  @Access('pub')
  partnerQuery(@Req() req: Request, @Res() res: Response, @Param('no') no: string) {
    return this.signed(req, res, () => this.sandbox.queryPartner(no, req.query.sp_mchid, req.query.sub_mchid));
  }

  @Post('v3/pay/partner/transactions/out-trade-no/:no/close')
  @Access('pub')
  partnerClose(@Req() req: Request, @Res() res: Response, @Param('no') no: string) {
    return this.signed(req, res, (body) => this.sandbox.closePartner(no, body));
  }

  /** The trade bill of one sub-merchant and day (v3 `GET /v3/bill/tradebill`): its SHA1 and download_url. */
  @Get('v3/bill/tradebill')
  @Access('pub')
  tradeBill(@Req() req: Request, @Res() res: Response) {
    return this.signed(req, res, () => this.sandbox.tradeBill(req.query as Record<string, unknown>, `${req.protocol}://${req.get('host')}`));
  }

  /**
   * The bill's download (its token). Signed like the other answers: the real service does not sign downloads, but the
   * client library skips its answer check only for the real host's exact path /v3/billdownload/file.
   */
  @Get('v3/billdownload/file')
  @Access('pub')
  billDownload(@Req() req: Request, @Res() res: Response) {
    return this.signed(
      req,
      res,
      async () => (await this.sandbox.billDownload(req.query.token)) ?? this.sandbox.sign(400, { code: 'PARAM_ERROR', message: 'token' }),
    );
  }

  /** Onboards a sub-merchant under the sandbox's service provider (what WeChat's 进件 does), for tests and demos. */
  @Post('subMerchants')
  @Access('pub')
  bindSubMerchant(@Input(SubMerchantInput) input: z.infer<typeof SubMerchantInput>) {
    return this.sandbox.enabled ? this.sandbox.bindSubMerchant(input.sub_mchid, input.name) : null;
  }

  /** A sandbox sub-merchant and its balance (404 when not onboarded). */
  @Get('subMerchants/:sub_mchid')
  @Access('pub')
  async subMerchant(@Res() res: Response, @Param('sub_mchid') subMchid: string) {
    if (!this.sandbox.enabled) return sandboxOff(res);
    const m = /^[0-9]{8,12}$/.test(subMchid) ? await this.sandbox.subMerchant(subMchid) : null;
    if (!m) return res.status(404).json({ code: 'NOT_FOUND', message: 'no such sub-merchant' });
    res.json(m);
  }

  /** The H5 order's cashier page (its h5_url): amount and 确认支付; `redirect_url` is where the payer goes afterwards. */
  @Get('h5pay')
  @Access('pub')
  async h5Page(@Req() req: Request, @Res() res: Response, @Query('prepay_id') prepayId: unknown, @Query('redirect_url') redirect: unknown) {
    if (!this.sandbox.enabled) return sandboxOff(res);
    const o = typeof prepayId === 'string' ? await this.sandbox.orderByPrepay(prepayId) : null;
    res.type('text/html; charset=utf-8').set('Cache-Control', 'no-store');
    if (!o || o.trade_type !== 'MWEB') return res.status(404).send(h5NotFoundPage());
    res.send(
      h5CashierPage({
        prepayId: prepayId as string,
        redirectUrl: returnTo(req, redirect),
        amountFen: o.amount_fen,
        description: o.description,
        state: o.state,
      }),
    );
  }

  /** 确认支付 on the cashier page: the order is paid (its signed notify sent, as simulate), then back to redirect_url. */
  @Post('h5pay')
  @Access('pub')
  async h5Pay(@Req() req: Request, @Res() res: Response) {
    if (!this.sandbox.enabled) return sandboxOff(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const prepayId = typeof body.prepay_id === 'string' ? body.prepay_id : '';
    const paid = await this.sandbox.payH5(prepayId);
    const back = returnTo(req, body.redirect_url);
    if (paid && back) return res.redirect(303, back);
    return res.redirect(303, `h5pay?prepay_id=${encodeURIComponent(prepayId)}${back ? `&redirect_url=${encodeURIComponent(back)}` : ''}`);
  }

  /** The WeixinJSBridge stand-in (getBrandWCPayRequest), loaded by the web only when the sandbox is on. */
  @Get('jsbridge.js')
  @Access('pub')
  jsbridge(@Res() res: Response) {
    if (!this.sandbox.enabled) return sandboxOff(res);
    res.type('application/javascript; charset=utf-8').set('Cache-Control', 'no-store').send(JSBRIDGE_JS);
  }

  /** The bridge's overlay shows the JSAPI order's amount. */
  @Get('jsapi/order')
  @Access('pub')
  async jsapiOrder(@Res() res: Response, @Query('prepay_id') prepayId: unknown) {
    if (!this.sandbox.enabled) return sandboxOff(res);
    const o = typeof prepayId === 'string' ? await this.sandbox.orderByPrepay(prepayId) : null;
    if (!o || o.trade_type !== 'JSAPI') return res.status(404).json({ code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    res.json({ amount_fen: o.amount_fen, description: o.description, trade_state: o.state });
  }

  /**
   * The bridge's 确认支付: the getBrandWCPayRequest parameters, paySign verified with the merchant's public key; the
   * order paid (its signed notify sent). Answers the err_msg for the page's callback (a refusal with 400 and why).
   */
  @Post('jsapi/pay')
  @Access('pub')
  async jsapiPay(@Req() req: Request, @Res() res: Response) {
    if (!this.sandbox.enabled) return sandboxOff(res);
    const body = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
    const { ok, ...answer } = await this.sandbox.payJsapi(body);
    res.status(ok ? 200 : 400).json(answer);
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
    return this.signed(req, res, () => this.sandbox.queryRefund(no, req.query.sub_mchid));
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
