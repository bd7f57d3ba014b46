import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { LOGGER } from '../../core/logging/logger';
import type { SandboxKeys } from '../payments/wechatpay/credentials';
import { SANDBOX_KEYS } from '../payments/wechatpay/wechatpay.tokens';
import { InFlight } from '../../core/events/in-flight';

/** A signed v3 answer: status, body text (empty for 204) and the Wechatpay-* headers. */
export interface SignedAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

interface SandboxOrder {
  out_trade_no: string;
  mchid: string;
  appid: string;
  description: string;
  amount_fen: number;
  notify_url: string;
  state: string;
  transaction_id: string | null;
  paid_at: Date | null;
  refunded_fen: number;
  trade_type: 'NATIVE' | 'JSAPI' | 'MWEB';
  payer_openid: string | null;
}

interface SandboxRefund {
  refund_id: string;
  amount_fen: number;
  created_at: Date;
  status: string;
}

/** RFC 3339 with the China offset, as v3 writes times. */
const chinaTime = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00');

/** The H5 cashier page of the sandbox (its h5_url, on the payer's origin). */
export const H5_PAGE = '/api/dev/wechatpay/h5pay';

const AUTH_RE = /^WECHATPAY2-SHA256-RSA2048 (.+)$/;
const nowS = () => Math.floor(Date.now() / 1000);

/**
 * The local WeChat Pay sandbox (issue 10): the v3 endpoints the adapter uses, on this API outside production. It keeps
 * its orders in `wechatpay_sandbox_orders`, checks every request's merchant signature, signs every answer with the
 * platform's test key, and — told to by `simulate` — pays or fails an order and sends the signed, AEAD_AES_256_GCM
 * encrypted notify to the order's notify_url, exactly as the real service would. Refunds are notified the same way
 * (REFUND.SUCCESS at once; while `holdRefunds`, answered PROCESSING until `finishRefund` ends them as SUCCESS,
 * ABNORMAL or CLOSED) to the notify_url of the refund request.
 */
@Injectable()
export class WechatPaySandbox implements BeforeApplicationShutdown {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(SANDBOX_KEYS) private readonly keys: SandboxKeys | null,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  get enabled(): boolean {
    return this.keys !== null;
  }

  /** the sandbox's keys parsed once (node would parse PEM text again for every signature: 2.7 ms against 1.2 ms to sign) */
  private get parsed(): { platformPrivate: KeyObject; merchantPublic: KeyObject } {
    this.parsedKeys ??= {
      platformPrivate: createPrivateKey(this.keys!.platformPrivateKey),
      merchantPublic: createPublicKey(this.keys!.merchantPublicKey),
    };
    return this.parsedKeys;
  }
  private parsedKeys: { platformPrivate: KeyObject; merchantPublic: KeyObject } | null = null;

  /** A v3 answer signed with the platform key over timestamp, nonce and body. */
  sign(status: number, payload: object | null): SignedAnswer {
    const body = payload === null ? '' : JSON.stringify(payload);
    const timestamp = String(nowS());
    const nonce = Formatter.nonce();
    return {
      status,
      body,
      headers: {
        'Wechatpay-Timestamp': timestamp,
        'Wechatpay-Nonce': nonce,
        'Wechatpay-Serial': this.keys!.platformKeyId,
        'Wechatpay-Signature': Rsa.sign(Formatter.response(timestamp, nonce, body), this.parsed.platformPrivate),
        'Request-ID': randomBytes(16).toString('hex'),
      },
    };
  }

  /** Checks a request's Authorization header as v3 does: the merchant, its serial, the clock, the signature. */
  verifyRequest(method: string, uri: string, authorization: string | undefined, rawBody: string): string | null {
    const m = AUTH_RE.exec(authorization ?? '');
    if (!m) return 'Authorization header missing or not WECHATPAY2-SHA256-RSA2048';
    const fields = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((f) => [f[1], f[2]]));
    if (fields.mchid !== this.keys!.mchid) return 'unknown mchid';
    if (fields.serial_no !== this.keys!.serial) return 'unknown merchant certificate serial';
    if (Math.abs(nowS() - Number(fields.timestamp)) > 300) return 'timestamp out of range';
    const message = Formatter.request(method.toUpperCase(), uri, fields.timestamp, fields.nonce_str, rawBody);
    let ok = false;
    try {
      ok = Rsa.verify(message, fields.signature ?? '', this.parsed.merchantPublic);
    } catch {
      ok = false;
    }
    return ok ? null : 'signature does not verify';
  }

  async createNative(body: Record<string, unknown>): Promise<SignedAnswer> {
    return this.createOrder(body, 'NATIVE');
  }

  /** v3 `pay/transactions/jsapi`: the payer's openid (of the merchant's appid) is required; answers the prepay_id. */
  async createJsapi(body: Record<string, unknown>): Promise<SignedAnswer> {
    return this.createOrder(body, 'JSAPI');
  }

  /** v3 `pay/transactions/h5`: scene_info with the payer's IP and h5_info.type is required; answers the cashier page. */
  async createH5(body: Record<string, unknown>): Promise<SignedAnswer> {
    return this.createOrder(body, 'MWEB');
  }

  /** The order types' shared checks (as v3 answers them: 400 PARAM_ERROR naming the field), then the type's own. */
  private async createOrder(body: Record<string, unknown>, tradeType: 'NATIVE' | 'JSAPI' | 'MWEB'): Promise<SignedAnswer> {
    const amount = (body.amount as { total?: unknown } | undefined)?.total;
    const refuse = (message: string) => this.sign(400, { code: 'PARAM_ERROR', message });
    if (body.mchid !== this.keys!.mchid || body.appid !== this.keys!.appid) return refuse('mchid/appid mismatch');
    if (typeof body.out_trade_no !== 'string' || !/^[A-Za-z0-9_\-*|]{6,32}$/.test(body.out_trade_no)) return refuse('out_trade_no');
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0) return refuse('amount.total');
    if (typeof body.notify_url !== 'string' || !/^https?:\/\//.test(body.notify_url)) return refuse('notify_url');
    let openid: string | null = null;
    let clientIp: string | null = null;
    if (tradeType === 'JSAPI') {
      const payer = body.payer as { openid?: unknown } | undefined;
      if (typeof payer?.openid !== 'string' || !/^[\w-]{1,128}$/.test(payer.openid)) return refuse('payer.openid');
      openid = payer.openid;
    }
    if (tradeType === 'MWEB') {
      const scene = body.scene_info as { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined;
      if (typeof scene?.payer_client_ip !== 'string' || !/^[0-9a-fA-F.:]{2,45}$/.test(scene.payer_client_ip))
        return refuse('scene_info.payer_client_ip');
      if (!['iOS', 'Android', 'Wap'].includes(scene.h5_info?.type as string)) return refuse('scene_info.h5_info.type');
      clientIp = scene.payer_client_ip;
    }
    const prepayId = tradeType === 'NATIVE' ? null : `wx${Date.now()}${randomBytes(8).toString('hex')}`;
    const rows: unknown[] = await this.db.query(
      `insert into wechatpay_sandbox_orders (out_trade_no, mchid, appid, description, amount_fen, notify_url, trade_type, payer_openid, payer_client_ip, prepay_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (out_trade_no) do nothing returning out_trade_no`,
      [
        body.out_trade_no,
        body.mchid,
        body.appid,
        String(body.description ?? '').slice(0, 127),
        amount,
        body.notify_url,
        tradeType,
        openid,
        clientIp,
        prepayId,
      ],
    );
    if (!rows.length) return this.sign(400, { code: 'INVALID_REQUEST', message: '商户订单号重复' });
    if (tradeType === 'JSAPI') return this.sign(200, { prepay_id: prepayId });
    // the cashier page on the payer's own origin (a path, as the WeChat sandbox's authorisation page): the browser
    // reaches this API there whether it is served beside the web app or behind its proxy
    if (tradeType === 'MWEB') return this.sign(200, { h5_url: `${H5_PAGE}?prepay_id=${prepayId}` });
    return this.sign(200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString('base64url')}` });
  }

  /** A JSAPI or H5 order by its prepay_id (the bridge stand-in, the cashier page). */
  async orderByPrepay(prepayId: string): Promise<SandboxOrder | null> {
    if (!/^wx\w{1,62}$/.test(prepayId)) return null;
    const [r]: Array<{ out_trade_no: string }> = await this.db.query(`select out_trade_no from wechatpay_sandbox_orders where prepay_id = $1`, [
      prepayId,
    ]);
    return r ? this.order(r.out_trade_no) : null;
  }

  /**
   * The JSAPI payment the bridge stand-in makes once the payer confirms: the parameters must be the merchant's
   * (`paySign` verifies with the merchant's public key over appId, timeStamp, nonceStr and package, the appId is the
   * merchant's, the package a JSAPI order's prepay_id), then the order is paid as `simulate` pays it (its signed
   * notify). Answers the err_msg getBrandWCPayRequest hands to the page.
   */
  async payJsapi(p: Record<string, unknown>): Promise<{ ok: boolean; err_msg: string; reason?: string; out_trade_no?: string }> {
    const fail = (reason: string) => ({ ok: false, err_msg: 'get_brand_wcpay_request:fail', reason });
    const str = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : '');
    const [appId, timeStamp, nonceStr, pkg, signType, paySign] = ['appId', 'timeStamp', 'nonceStr', 'package', 'signType', 'paySign'].map(str);
    if (appId !== this.keys!.appid) return fail("appId is not the merchant's");
    if (signType !== 'RSA') return fail('signType');
    if (!/^\d{1,12}$/.test(timeStamp) || !nonceStr) return fail('timeStamp/nonceStr');
    const m = /^prepay_id=(wx\w{1,62})$/.exec(pkg);
    if (!m) return fail('package');
    let valid = false;
    try {
      valid = Rsa.verify(Formatter.joinedByLineFeed(appId, timeStamp, nonceStr, pkg), paySign, this.parsed.merchantPublic);
    } catch {
      valid = false;
    }
    if (!valid) return fail('paySign does not verify');
    const o = await this.orderByPrepay(m[1]);
    if (!o || o.trade_type !== 'JSAPI' || o.appid !== appId) return fail('no such JSAPI order');
    const r = await this.simulate(o.out_trade_no, 'SUCCESS');
    if (r.trade_state !== 'SUCCESS') return fail(`order is ${r.trade_state}`);
    return { ok: true, err_msg: 'get_brand_wcpay_request:ok', out_trade_no: o.out_trade_no };
  }

  /** The H5 cashier page's 确认支付: pays the order as `simulate` does (its signed notify). */
  async payH5(prepayId: string): Promise<boolean> {
    const o = await this.orderByPrepay(prepayId);
    if (!o || o.trade_type !== 'MWEB') return false;
    const r = await this.simulate(o.out_trade_no, 'SUCCESS');
    return r.trade_state === 'SUCCESS';
  }

  private async order(outTradeNo: string): Promise<SandboxOrder | null> {
    const rows: SandboxOrder[] = await this.db.query(
      `select out_trade_no, mchid, appid, description, amount_fen::int as amount_fen, notify_url, state, transaction_id, paid_at,
              refunded_fen::int as refunded_fen, trade_type, payer_openid
         from wechatpay_sandbox_orders where out_trade_no = $1`,
      [outTradeNo],
    );
    return rows[0] ?? null;
  }

  private transaction(o: SandboxOrder) {
    return {
      appid: o.appid,
      mchid: o.mchid,
      out_trade_no: o.out_trade_no,
      transaction_id: o.transaction_id ?? undefined,
      trade_type: o.trade_type,
      trade_state: o.state,
      payer: o.payer_openid ? { openid: o.payer_openid } : undefined,
      trade_state_desc: o.state,
      success_time: o.paid_at ? chinaTime(o.paid_at) : undefined,
      amount: { total: o.amount_fen, payer_total: o.state === 'SUCCESS' ? o.amount_fen : 0, currency: 'CNY', payer_currency: 'CNY' },
    };
  }

  async query(outTradeNo: string): Promise<SignedAnswer> {
    const o = await this.order(outTradeNo);
    return o ? this.sign(200, this.transaction(o)) : this.sign(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
  }

  async close(outTradeNo: string): Promise<SignedAnswer> {
    const rows: Array<{ state: string }> = await this.db.query(
      `with u as (update wechatpay_sandbox_orders set state = 'CLOSED' where out_trade_no = $1 and state in ('NOTPAY', 'PAYERROR', 'CLOSED') returning state)
       select state from u`,
      [outTradeNo],
    );
    if (rows.length) return this.sign(204, null);
    return (await this.order(outTradeNo))
      ? this.sign(400, { code: 'ORDERPAID', message: '订单已支付' })
      : this.sign(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
  }

  /**
   * A refund, as v3 makes it: idempotent by out_refund_no (the same number answers the refund it made), never more
   * than the order's amount in all (checked under the order's row lock), the order then in state REFUND.
   */
  async refund(body: Record<string, unknown>): Promise<SignedAnswer> {
    const amount = body.amount as { refund?: number; total?: number } | undefined;
    const outRefundNo = body.out_refund_no;
    if (typeof outRefundNo !== 'string' || !/^[A-Za-z0-9_\-|*@]{1,64}$/.test(outRefundNo))
      return this.sign(400, { code: 'PARAM_ERROR', message: 'out_refund_no' });
    if (typeof body.out_trade_no !== 'string') return this.sign(400, { code: 'PARAM_ERROR', message: 'out_trade_no' });
    const outTradeNo = body.out_trade_no;
    const result = await this.db.transaction(async (em): Promise<{ status: number; payload: object; notify?: string | null }> => {
      const [o]: SandboxOrder[] = await em.query(
        `select out_trade_no, amount_fen::int as amount_fen, state, transaction_id, refunded_fen::int as refunded_fen
           from wechatpay_sandbox_orders where out_trade_no = $1 for update`,
        [outTradeNo],
      );
      if (!o) return { status: 404, payload: { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' } };
      const [made]: Array<SandboxRefund & { out_trade_no: string }> = await em.query(
        `select out_trade_no, refund_id, amount_fen::int as amount_fen, created_at, status from wechatpay_sandbox_refunds where out_refund_no = $1`,
        [outRefundNo],
      );
      if (made) {
        if (made.out_trade_no !== o.out_trade_no) return { status: 400, payload: { code: 'INVALID_REQUEST', message: '退款单号已用于其他订单' } };
        return { status: 200, payload: this.refundOf(o, outRefundNo, made), notify: null };
      }
      if (o.state !== 'SUCCESS' && o.state !== 'REFUND') return { status: 400, payload: { code: 'INVALID_REQUEST', message: '订单未支付' } };
      const refund = amount?.refund;
      if (!Number.isSafeInteger(refund) || refund! <= 0 || refund! + o.refunded_fen > o.amount_fen || amount?.total !== o.amount_fen) {
        return { status: 400, payload: { code: 'PARAM_ERROR', message: 'amount' } };
      }
      const notifyUrl = typeof body.notify_url === 'string' && /^https?:\/\//.test(body.notify_url) ? body.notify_url.slice(0, 256) : null;
      const [row]: SandboxRefund[] = await em.query(
        `insert into wechatpay_sandbox_refunds (out_refund_no, out_trade_no, refund_id, amount_fen, reason, status, notify_url)
         values ($1, $2, $3, $4, $5, $6, $7) returning refund_id, amount_fen::int as amount_fen, created_at, status`,
        [
          outRefundNo,
          o.out_trade_no,
          `5030${randomBytes(12).toString('hex')}`,
          refund,
          String(body.reason ?? '').slice(0, 80),
          this.holdRefunds ? 'PROCESSING' : 'SUCCESS',
          notifyUrl,
        ],
      );
      await em.query(`update wechatpay_sandbox_orders set refunded_fen = refunded_fen + $2, state = 'REFUND' where out_trade_no = $1`, [
        o.out_trade_no,
        refund,
      ]);
      return { status: 200, payload: this.refundOf(o, outRefundNo, row), notify: row.status === 'SUCCESS' ? outRefundNo : null };
    });
    // a refund made at once is notified too, after the answer, as the real service does
    if (result.notify) this.later(this.sendRefundNotify(result.notify));
    return this.sign(result.status, result.payload);
  }

  /**
   * The refund status query, as v3 answers it: the refund (the same shape as the refund's answer), 404
   * RESOURCE_NOT_EXISTS for a number it never refunded, 400 PARAM_ERROR for a malformed one.
   */
  async queryRefund(outRefundNo: string): Promise<SignedAnswer> {
    if (!/^[A-Za-z0-9_\-|*@]{1,64}$/.test(outRefundNo)) return this.sign(400, { code: 'PARAM_ERROR', message: 'out_refund_no' });
    const [r]: Array<SandboxRefund & { out_trade_no: string; total_fen: number; transaction_id: string | null }> = await this.db.query(
      `select r.out_trade_no, o.amount_fen::int as total_fen, o.transaction_id, r.refund_id, r.amount_fen::int as amount_fen, r.created_at, r.status
         from wechatpay_sandbox_refunds r join wechatpay_sandbox_orders o on o.out_trade_no = r.out_trade_no where r.out_refund_no = $1`,
      [outRefundNo],
    );
    if (!r) return this.sign(404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
    return this.sign(200, this.refundOf({ out_trade_no: r.out_trade_no, amount_fen: r.total_fen, transaction_id: r.transaction_id }, outRefundNo, r));
  }

  /**
   * Refunds are answered PROCESSING while held (the real service's usual answer), until `finishRefund` makes them
   * SUCCESS, ABNORMAL or CLOSED; otherwise SUCCESS at once.
   */
  holdRefunds = false;

  /**
   * Finishes a refund the sandbox holds as PROCESSING (SUCCESS, ABNORMAL or CLOSED: a closed refund gives the order its
   * money back) and sends its REFUND.* notify; a finished refund's notify is sent again (its status unchanged).
   */
  async finishRefund(
    outRefundNo: string,
    result: 'SUCCESS' | 'ABNORMAL' | 'CLOSED',
  ): Promise<{ out_refund_no: string; refund_status: string | null; notify_status: number | null }> {
    const status = await this.db.transaction(async (em) => {
      const [r]: Array<{ status: string; out_trade_no: string; amount_fen: number }> = await em.query(
        `select status, out_trade_no, amount_fen::int as amount_fen from wechatpay_sandbox_refunds where out_refund_no = $1 for update`,
        [outRefundNo],
      );
      if (!r) return null;
      if (r.status !== 'PROCESSING') return r.status;
      await em.query(`update wechatpay_sandbox_refunds set status = $2 where out_refund_no = $1`, [outRefundNo, result]);
      if (result === 'CLOSED') {
        await em.query(
          `update wechatpay_sandbox_orders set refunded_fen = refunded_fen - $2, state = case when refunded_fen - $2 = 0 then 'SUCCESS' else state end where out_trade_no = $1`,
          [r.out_trade_no, r.amount_fen],
        );
      }
      return result;
    });
    if (status === null || status === 'PROCESSING') return { out_refund_no: outRefundNo, refund_status: status, notify_status: null };
    return { out_refund_no: outRefundNo, refund_status: status, notify_status: await this.sendRefundNotify(outRefundNo) };
  }

  /** The REFUND.<status> notify of a finished refund: resource encrypted with the APIv3 key, the whole body signed. */
  async refundNotifyOf(outRefundNo: string): Promise<{ url: string | null; body: string; headers: Record<string, string> } | null> {
    const [r]: Array<SandboxRefund & { out_trade_no: string; transaction_id: string | null; total_fen: number; notify_url: string | null }> =
      await this.db.query(
        `select r.out_trade_no, r.refund_id, r.amount_fen::int as amount_fen, r.created_at, r.status, r.notify_url, o.transaction_id, o.amount_fen::int as total_fen
         from wechatpay_sandbox_refunds r join wechatpay_sandbox_orders o on o.out_trade_no = r.out_trade_no where r.out_refund_no = $1`,
        [outRefundNo],
      );
    if (!r || r.status === 'PROCESSING') return null;
    const resource = {
      mchid: this.keys!.mchid,
      transaction_id: r.transaction_id ?? undefined,
      out_trade_no: r.out_trade_no,
      refund_id: r.refund_id,
      out_refund_no: outRefundNo,
      refund_status: r.status,
      success_time: r.status === 'SUCCESS' ? chinaTime(new Date()) : undefined,
      user_received_account: '支付用户零钱',
      amount: { total: r.total_fen, refund: r.amount_fen, payer_total: r.total_fen, payer_refund: r.amount_fen },
    };
    const summary = { SUCCESS: '退款成功', ABNORMAL: '退款异常', CLOSED: '退款关闭' }[r.status as 'SUCCESS'] ?? r.status;
    const { body, headers } = this.encryptedNotify(`REFUND.${r.status}`, summary, 'refund', resource);
    return { url: r.notify_url, body, headers };
  }

  private async sendRefundNotify(outRefundNo: string): Promise<number | null> {
    const n = await this.refundNotifyOf(outRefundNo);
    if (!n?.url) return null;
    return this.post(n.url, n, { outRefundNo });
  }

  /** Notifies sent after an answer, awaited by settled() (tests) and before the API stops. */
  private readonly notifies = new InFlight((err) => this.log.warn({ err }, 'sandbox notify failed'));
  private later(work: Promise<unknown>): void {
    this.notifies.track(work);
  }
  async settled(): Promise<void> {
    await this.notifies.settled();
  }
  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private refundOf(o: Pick<SandboxOrder, 'out_trade_no' | 'amount_fen' | 'transaction_id'>, outRefundNo: string, r: SandboxRefund) {
    return {
      refund_id: r.refund_id,
      out_refund_no: outRefundNo,
      out_trade_no: o.out_trade_no,
      transaction_id: o.transaction_id,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      create_time: chinaTime(r.created_at),
      status: r.status,
      funds_account: 'AVAILABLE',
      amount: { refund: r.amount_fen, total: o.amount_fen, payer_refund: r.amount_fen, payer_total: o.amount_fen, currency: 'CNY' },
    };
  }

  /** Pays (SUCCESS) or fails (PAYERROR) an open order, then sends its notify; a paid order's notify is sent again. */
  async simulate(
    outTradeNo: string,
    result: 'SUCCESS' | 'FAIL',
  ): Promise<{ out_trade_no: string; trade_state: string; notify_status: number | null }> {
    const state = result === 'SUCCESS' ? 'SUCCESS' : 'PAYERROR';
    const rows: SandboxOrder[] = await this.db.query(
      `with u as (
         update wechatpay_sandbox_orders
            set state = $2::text, paid_at = case when $2::text = 'SUCCESS' then now() end,
                transaction_id = case when $2::text = 'SUCCESS' then '4200' || lpad((floor(random() * 1e15))::bigint::text, 24, '0') end
          where out_trade_no = $1 and state in ('NOTPAY', 'PAYERROR')
          returning out_trade_no
       ) select out_trade_no from u`,
      [outTradeNo, state],
    );
    const o = await this.order(outTradeNo);
    if (!o) return { out_trade_no: outTradeNo, trade_state: 'ORDER_NOT_EXIST', notify_status: null };
    const paid = o.state === 'SUCCESS' || o.state === 'REFUND';
    if (!rows.length && !paid) return { out_trade_no: outTradeNo, trade_state: o.state, notify_status: null };
    // a failed payment has no notify (v3 only notifies successes); a paid one is (re)sent, refunded since or not (the
    // real service retries a payment's notify until it is acknowledged, whatever happened to the order meanwhile)
    const notify_status = paid ? await this.sendNotify(o) : null;
    return { out_trade_no: outTradeNo, trade_state: o.state, notify_status };
  }

  /**
   * The TRANSACTION.SUCCESS notify of a paid order (refunded since or not: the notify tells of the payment):
   * resource encrypted with the APIv3 key, the whole body signed.
   */
  notifyOf(o: SandboxOrder): { body: string; headers: Record<string, string> } {
    return this.encryptedNotify('TRANSACTION.SUCCESS', '支付成功', 'transaction', this.transaction({ ...o, state: 'SUCCESS' }));
  }

  /** A v3 notify: the resource encrypted (AEAD_AES_256_GCM, the APIv3 key), the whole body signed with the platform key. */
  private encryptedNotify(
    eventType: string,
    summary: string,
    kind: 'transaction' | 'refund',
    resource: object,
  ): { body: string; headers: Record<string, string> } {
    const nonce = randomBytes(6).toString('hex');
    const ciphertext = Aes.AesGcm.encrypt(JSON.stringify(resource), this.keys!.apiV3Key, nonce, kind);
    const payload = {
      id: randomBytes(16).toString('hex'),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary,
      resource: { original_type: kind, algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: kind, nonce },
    };
    const signed = this.sign(200, payload);
    return { body: signed.body, headers: { ...signed.headers, 'Content-Type': 'application/json' } };
  }

  private async sendNotify(o: SandboxOrder): Promise<number | null> {
    return this.post(o.notify_url, this.notifyOf(o), { outTradeNo: o.out_trade_no });
  }

  /** Delivers a notify; answers the merchant's HTTP status, null when it could not be delivered. */
  private async post(url: string, n: { body: string; headers: Record<string, string> }, about: object): Promise<number | null> {
    try {
      const res = await fetch(url, { method: 'POST', headers: n.headers, body: n.body, signal: AbortSignal.timeout(10_000) });
      this.delivered.push({ ...about, status: res.status });
      if (this.delivered.length > 100) this.delivered.shift();
      return res.status;
    } catch (err) {
      this.log.warn({ err, ...about }, 'sandbox notify could not be delivered');
      return null;
    }
  }

  /** The last notifies delivered and the merchant's answers (tests). */
  readonly delivered: Array<{ outTradeNo?: string; outRefundNo?: string; status: number }> = [];

  /** For tests: the order as the sandbox keeps it. */
  async orderOf(outTradeNo: string): Promise<SandboxOrder | null> {
    return this.order(outTradeNo);
  }
}
