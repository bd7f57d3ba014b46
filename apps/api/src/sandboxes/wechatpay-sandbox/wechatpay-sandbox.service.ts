import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, createHmac, createPrivateKey, createPublicKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { billDaySpan, formatFen, isCalendarDay, localDateTime, localDay, WECHAT_BILL_ZONE } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { LOGGER } from '../../core/logging/logger';
import { SANDBOX_DEMO_SUB_MCHID, type SandboxKeys } from '../../modules/payments/wechatpay/credentials';
import { SANDBOX_KEYS } from '../../modules/payments/wechatpay/wechatpay.tokens';
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
  /** a partner order's service provider and sub-merchant (null: a direct order) */
  sp_mchid: string | null;
  sub_mchid: string | null;
  sub_appid: string | null;
  payer_sub_openid: string | null;
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
  succeeded_at?: Date | null;
}

/** RFC 3339 with the China offset, as v3 writes times. */
const chinaTime = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00');

/** The H5 cashier page of the sandbox (its h5_url, on the payer's origin). */
export const H5_PAGE = '/api/dev/wechatpay/h5pay';

const AUTH_RE = /^WECHATPAY2-SHA256-RSA2048 (.+)$/;
const SUB_MCHID_RE = /^[0-9]{8,12}$/;
const APPID_RE = /^wx[0-9a-zA-Z]{16}$/;

/** The trade bill's columns (bill_type ALL), as WeChat Pay documents them. */
export const TRADE_BILL_HEADER =
  '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';
export const TRADE_BILL_SUMMARY_HEADER = '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额';
/** The sandbox's fee: 0.6% (费率 0.60%), in thousandths of a fen so the 5-decimal yuan figure stays an integer sum. */
const FEE_PER_MILLE_OF_FEN = 6;
/** fen × 1000 as yuan with 5 decimals ("0.60000"), exactly. */
const milliFenYuan = (m: number) => {
  const sign = m < 0 ? '-' : '';
  const a = Math.abs(m);
  return `${sign}${Math.trunc(a / 100_000)}.${String(a % 100_000).padStart(5, '0')}`;
};

/** The 403 v3 answers for a sub-merchant the service provider may not act for. */
const NO_AUTH = { code: 'NO_AUTH', message: '特约子商户商户号未授权服务商的产品权限' };
const ORDER_COLUMNS = `out_trade_no, mchid, appid, sp_mchid, sub_mchid, sub_appid, payer_sub_openid, description, amount_fen::int as amount_fen,
  notify_url, state, transaction_id, paid_at, refunded_fen::int as refunded_fen, trade_type, payer_openid`;
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

  /**
   * The sub-merchants onboarded under the sandbox's service provider from the start: the platform's own and the demo
   * school's (demo-seed.ts records it), made sure of before each use.
   */
  private async ensureBound(): Promise<void> {
    // every time, not once per process: a database restored under a running API (a test's snapshot, a restore) would
    // otherwise lose them behind the process's back (an insert that finds them is one index probe)
    await this.db.query(
      `insert into wechatpay_sandbox_sub_merchants (sub_mchid, sp_mchid, name) values ($1, $3, '平台自营'), ($2, $3, '阳光晚托中心（演示）')
       on conflict (sub_mchid) do nothing`,
      [this.keys!.platformSubMchid, SANDBOX_DEMO_SUB_MCHID, this.keys!.mchid],
    );
  }

  /** Onboards a sub-merchant under the sandbox's service provider (进件 done), keeping one already there. */
  async bindSubMerchant(subMchid: string, name: string): Promise<{ sub_mchid: string; name: string; balance_fen: number }> {
    await this.ensureBound();
    await this.db.query(
      `insert into wechatpay_sandbox_sub_merchants (sub_mchid, sp_mchid, name) values ($1, $2, $3) on conflict (sub_mchid) do nothing`,
      [subMchid, this.keys!.mchid, name],
    );
    return (await this.subMerchant(subMchid))!;
  }

  /** A sub-merchant and its balance (what WeChat would show in its merchant platform), null when not onboarded. */
  async subMerchant(subMchid: string): Promise<{ sub_mchid: string; name: string; balance_fen: number } | null> {
    await this.ensureBound();
    const [m]: Array<{ sub_mchid: string; name: string; balance_fen: number }> = await this.db.query(
      `select sub_mchid, name, balance_fen::int as balance_fen from wechatpay_sandbox_sub_merchants where sub_mchid = $1 and sp_mchid = $2`,
      [subMchid, this.keys!.mchid],
    );
    return m ?? null;
  }

  /** Whether a partner request's sub_mchid may be acted for: null if so, else the v3 refusal. */
  private async refuseSub(subMchid: unknown): Promise<SignedAnswer | null> {
    if (typeof subMchid !== 'string' || !SUB_MCHID_RE.test(subMchid)) return this.sign(400, { code: 'PARAM_ERROR', message: 'sub_mchid' });
    return (await this.subMerchant(subMchid)) ? null : this.sign(403, NO_AUTH);
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
    return this.signBody(status, payload === null ? '' : JSON.stringify(payload));
  }

  /** An answer's body signed as it is sent (JSON, or a bill's text). */
  private signBody(status: number, body: string): SignedAnswer {
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

  /**
   * v3 `pay/partner/transactions/{native,jsapi,h5}`: the service provider's sp_mchid and sp_appid, a sub_mchid
   * onboarded under it (else 403 NO_AUTH), an optional sub_appid; JSAPI pays by payer.sp_openid or payer.sub_openid
   * (which needs sub_appid). The money goes to the sub-merchant.
   */
  async createPartner(body: Record<string, unknown>, tradeType: 'NATIVE' | 'JSAPI' | 'MWEB'): Promise<SignedAnswer> {
    const refuse = (message: string) => this.sign(400, { code: 'PARAM_ERROR', message });
    if (body.sp_mchid !== this.keys!.mchid || body.sp_appid !== this.keys!.appid) return refuse('sp_mchid/sp_appid mismatch');
    if (body.sub_appid !== undefined && (typeof body.sub_appid !== 'string' || !APPID_RE.test(body.sub_appid))) return refuse('sub_appid');
    const subRefusal = await this.refuseSub(body.sub_mchid);
    if (subRefusal) return subRefusal;
    let payer: { openid?: string } | undefined;
    let subOpenid: string | null = null;
    if (tradeType === 'JSAPI') {
      const p = body.payer as { sp_openid?: unknown; sub_openid?: unknown } | undefined;
      const sp = p?.sp_openid;
      const sub = p?.sub_openid;
      if ((sp === undefined) === (sub === undefined)) return refuse('payer: one of sp_openid, sub_openid');
      if (sub !== undefined) {
        if (typeof sub !== 'string' || !/^[\w-]{1,128}$/.test(sub)) return refuse('payer.sub_openid');
        if (body.sub_appid === undefined) return refuse('sub_appid is required with payer.sub_openid');
        subOpenid = sub;
        payer = { openid: 'sub' };
      } else {
        if (typeof sp !== 'string' || !/^[\w-]{1,128}$/.test(sp)) return refuse('payer.sp_openid');
        payer = { openid: sp };
      }
    }
    return this.createOrder({ ...body, mchid: this.keys!.mchid, appid: this.keys!.appid, payer }, tradeType, {
      sp_mchid: this.keys!.mchid,
      sub_mchid: body.sub_mchid as string,
      sub_appid: (body.sub_appid as string | undefined) ?? null,
      sub_openid: subOpenid,
    });
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
  private async createOrder(
    body: Record<string, unknown>,
    tradeType: 'NATIVE' | 'JSAPI' | 'MWEB',
    partner: { sp_mchid: string; sub_mchid: string; sub_appid: string | null; sub_openid: string | null } | null = null,
  ): Promise<SignedAnswer> {
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
      // a partner order paid by sub_openid keeps it in payer_sub_openid
      openid = partner?.sub_openid ? null : payer.openid;
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
      `insert into wechatpay_sandbox_orders (out_trade_no, mchid, appid, description, amount_fen, notify_url, trade_type, payer_openid, payer_client_ip, prepay_id,
                                             sp_mchid, sub_mchid, sub_appid, payer_sub_openid)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) on conflict (out_trade_no) do nothing returning out_trade_no`,
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
        partner?.sp_mchid ?? null,
        partner?.sub_mchid ?? null,
        partner?.sub_appid ?? null,
        partner?.sub_openid ?? null,
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
    if (appId !== this.keys!.appid && !APPID_RE.test(appId)) return fail('appId');
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
    if (!o || o.trade_type !== 'JSAPI') return fail('no such JSAPI order');
    // the app id the payer's openid is of: the sub-merchant's own (sub_openid) or the service provider's
    if (appId !== (o.payer_sub_openid ? o.sub_appid : o.appid)) return fail("appId is not the payer's account's");
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
    const rows: SandboxOrder[] = await this.db.query(`select ${ORDER_COLUMNS} from wechatpay_sandbox_orders where out_trade_no = $1`, [outTradeNo]);
    return rows[0] ?? null;
  }

  private transaction(o: SandboxOrder) {
    if (o.sub_mchid) {
      // the partner shape: the service provider and the sub-merchant, the payer by the account its openid is of
      return {
        sp_appid: o.appid,
        sp_mchid: o.sp_mchid,
        sub_appid: o.sub_appid ?? undefined,
        sub_mchid: o.sub_mchid,
        out_trade_no: o.out_trade_no,
        transaction_id: o.transaction_id ?? undefined,
        trade_type: o.trade_type,
        trade_state: o.state,
        trade_state_desc: o.state,
        success_time: o.paid_at ? chinaTime(o.paid_at) : undefined,
        payer: o.payer_sub_openid ? { sub_openid: o.payer_sub_openid } : o.payer_openid ? { sp_openid: o.payer_openid } : undefined,
        amount: { total: o.amount_fen, payer_total: o.state === 'SUCCESS' ? o.amount_fen : 0, currency: 'CNY', payer_currency: 'CNY' },
      };
    }
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

  /** The direct query: a direct order (a partner order is not the merchant's own: 404, as for an unknown one). */
  async query(outTradeNo: string): Promise<SignedAnswer> {
    const o = await this.order(outTradeNo);
    return o && !o.sub_mchid ? this.sign(200, this.transaction(o)) : this.sign(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
  }

  /** The partner query, `?sp_mchid&sub_mchid`: the order under that sub-merchant only. */
  async queryPartner(outTradeNo: string, spMchid: unknown, subMchid: unknown): Promise<SignedAnswer> {
    if (spMchid !== this.keys!.mchid) return this.sign(400, { code: 'PARAM_ERROR', message: 'sp_mchid' });
    const refusal = await this.refuseSub(subMchid);
    if (refusal) return refusal;
    const o = await this.order(outTradeNo);
    return o && o.sub_mchid === subMchid ? this.sign(200, this.transaction(o)) : this.sign(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
  }

  /** The partner close, body `{sp_mchid, sub_mchid}`: as the direct close, for that sub-merchant's order only. */
  async closePartner(outTradeNo: string, body: Record<string, unknown>): Promise<SignedAnswer> {
    if (body.sp_mchid !== this.keys!.mchid) return this.sign(400, { code: 'PARAM_ERROR', message: 'sp_mchid' });
    const refusal = await this.refuseSub(body.sub_mchid);
    if (refusal) return refusal;
    const o = await this.order(outTradeNo);
    if (!o || o.sub_mchid !== body.sub_mchid) return this.sign(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    return this.close(outTradeNo);
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
        `select out_trade_no, amount_fen::int as amount_fen, state, transaction_id, refunded_fen::int as refunded_fen, sp_mchid, sub_mchid
           from wechatpay_sandbox_orders where out_trade_no = $1 for update`,
        [outTradeNo],
      );
      // a partner order is refunded with its sub_mchid only; a direct one without any
      if (!o || (o.sub_mchid ?? undefined) !== (body.sub_mchid ?? undefined))
        return { status: 404, payload: { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' } };
      const [made]: Array<SandboxRefund & { out_trade_no: string }> = await em.query(
        `select out_trade_no, refund_id, amount_fen::int as amount_fen, created_at, status, succeeded_at from wechatpay_sandbox_refunds where out_refund_no = $1`,
        [outRefundNo],
      );
      if (made) {
        if (made.out_trade_no !== o.out_trade_no) return { status: 400, payload: { code: 'INVALID_REQUEST', message: '退款单号已用于其他订单' } };
        return { status: 200, payload: this.refundOf(o, outRefundNo, made), notify: null };
      }
      if (o.state !== 'SUCCESS' && o.state !== 'REFUND') return { status: 400, payload: { code: 'INVALID_REQUEST', message: '订单未支付' } };
      const refund = amount?.refund;
      if (!Number.isSafeInteger(refund) || refund! <= 0 || amount?.total !== o.amount_fen) {
        return { status: 400, payload: { code: 'PARAM_ERROR', message: 'amount' } };
      }
      if (refund! + o.refunded_fen > o.amount_fen) return { status: 400, payload: { code: 'PARAM_ERROR', message: '退款金额超过订单可退金额' } };
      if (o.sub_mchid) {
        // the refund leaves the sub-merchant that received the payment: never more than it holds (a CTE: TypeORM answers
        // an UPDATE as [rows, count], a SELECT as its rows)
        const debited: unknown[] = await em.query(
          `with u as (update wechatpay_sandbox_sub_merchants set balance_fen = balance_fen - $2 where sub_mchid = $1 and balance_fen >= $2 returning sub_mchid)
           select sub_mchid from u`,
          [o.sub_mchid, refund],
        );
        if (!debited.length) return { status: 403, payload: { code: 'NOT_ENOUGH', message: '基本账户余额不足，请充值后原路退款' } };
      }
      const notifyUrl = typeof body.notify_url === 'string' && /^https?:\/\//.test(body.notify_url) ? body.notify_url.slice(0, 256) : null;
      const [row]: SandboxRefund[] = await em.query(
        `insert into wechatpay_sandbox_refunds (out_refund_no, out_trade_no, refund_id, amount_fen, reason, status, notify_url, succeeded_at)
         values ($1, $2, $3, $4, $5, $6, $7, case when $6::varchar = 'SUCCESS' then now() end)
         returning refund_id, amount_fen::int as amount_fen, created_at, status, succeeded_at`,
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
  async queryRefund(outRefundNo: string, subMchid?: unknown): Promise<SignedAnswer> {
    if (!/^[A-Za-z0-9_\-|*@]{1,64}$/.test(outRefundNo)) return this.sign(400, { code: 'PARAM_ERROR', message: 'out_refund_no' });
    const [r]: Array<SandboxRefund & { out_trade_no: string; total_fen: number; transaction_id: string | null; sub_mchid: string | null }> =
      await this.db.query(
        `select r.out_trade_no, o.amount_fen::int as total_fen, o.transaction_id, r.refund_id, r.amount_fen::int as amount_fen, r.created_at, r.status,
                r.succeeded_at, o.sub_mchid
           from wechatpay_sandbox_refunds r join wechatpay_sandbox_orders o on o.out_trade_no = r.out_trade_no where r.out_refund_no = $1`,
        [outRefundNo],
      );
    // a partner order's refund is found under its sub_mchid only
    if (!r || (r.sub_mchid ?? undefined) !== (subMchid ?? undefined)) return this.sign(404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
    return this.sign(
      200,
      this.refundOf(
        { out_trade_no: r.out_trade_no, amount_fen: r.total_fen, transaction_id: r.transaction_id, sub_mchid: r.sub_mchid },
        outRefundNo,
        r,
      ),
    );
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
      await em.query(
        `update wechatpay_sandbox_refunds set status = $2::varchar, succeeded_at = case when $2::varchar = 'SUCCESS' then now() end where out_refund_no = $1`,
        [outRefundNo, result],
      );
      if (result === 'CLOSED') {
        // a refund not made: the order and its sub-merchant have the money back
        const [o]: Array<{ sub_mchid: string | null }> = await em.query(
          `with u as (update wechatpay_sandbox_orders set refunded_fen = refunded_fen - $2, state = case when refunded_fen - $2 = 0 then 'SUCCESS' else state end
            where out_trade_no = $1 returning sub_mchid) select sub_mchid from u`,
          [r.out_trade_no, r.amount_fen],
        );
        if (o?.sub_mchid)
          await em.query(`update wechatpay_sandbox_sub_merchants set balance_fen = balance_fen + $2 where sub_mchid = $1`, [
            o.sub_mchid,
            r.amount_fen,
          ]);
      }
      return result;
    });
    if (status === null || status === 'PROCESSING') return { out_refund_no: outRefundNo, refund_status: status, notify_status: null };
    return { out_refund_no: outRefundNo, refund_status: status, notify_status: await this.sendRefundNotify(outRefundNo) };
  }

  /** The REFUND.<status> notify of a finished refund: resource encrypted with the APIv3 key, the whole body signed. */
  async refundNotifyOf(outRefundNo: string): Promise<{ url: string | null; body: string; headers: Record<string, string> } | null> {
    const [r]: Array<
      SandboxRefund & { out_trade_no: string; transaction_id: string | null; total_fen: number; notify_url: string | null; sub_mchid: string | null }
    > = await this.db.query(
      `select r.out_trade_no, r.refund_id, r.amount_fen::int as amount_fen, r.created_at, r.status, r.notify_url, r.succeeded_at, o.transaction_id,
              o.amount_fen::int as total_fen, o.sub_mchid
         from wechatpay_sandbox_refunds r join wechatpay_sandbox_orders o on o.out_trade_no = r.out_trade_no where r.out_refund_no = $1`,
      [outRefundNo],
    );
    if (!r || r.status === 'PROCESSING') return null;
    const resource = {
      // a partner order's refund names the service provider and the sub-merchant it came from
      ...(r.sub_mchid ? { sp_mchid: this.keys!.mchid, sub_mchid: r.sub_mchid } : { mchid: this.keys!.mchid }),
      transaction_id: r.transaction_id ?? undefined,
      out_trade_no: r.out_trade_no,
      refund_id: r.refund_id,
      out_refund_no: outRefundNo,
      refund_status: r.status,
      success_time: r.status === 'SUCCESS' ? chinaTime(r.succeeded_at ?? new Date()) : undefined,
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

  private refundOf(
    o: Pick<SandboxOrder, 'out_trade_no' | 'amount_fen' | 'transaction_id'> & { sub_mchid?: string | null },
    outRefundNo: string,
    r: SandboxRefund,
  ) {
    return {
      // a partner order's refund names the service provider and the sub-merchant it is paid from
      ...(o.sub_mchid ? { sp_mchid: this.keys!.mchid, sub_mchid: o.sub_mchid } : {}),
      success_time: r.status === 'SUCCESS' && r.succeeded_at ? chinaTime(r.succeeded_at) : undefined,
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
          returning out_trade_no, sub_mchid, amount_fen, state
       ), credit as (
         -- a partner order's money reaches its sub-merchant, once: only the statement that paid it credits
         update wechatpay_sandbox_sub_merchants m set balance_fen = m.balance_fen + u.amount_fen
           from u where m.sub_mchid = u.sub_mchid and u.state = 'SUCCESS'
         returning m.sub_mchid
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

  /**
   * v3 `GET /v3/bill/tradebill?bill_date&sub_mchid&bill_type=ALL`: a day before today (China time), a sub-merchant
   * onboarded under the service provider (403 NO_AUTH otherwise); a day without a payment or refund has no bill (400
   * NO_STATEMENT_EXIST). Answers the file's SHA1 and where to download it (on the caller's own origin, with a token
   * only this sandbox can make).
   */
  async tradeBill(q: Record<string, unknown>, origin: string): Promise<SignedAnswer> {
    const refuse = (message: string) => this.sign(400, { code: 'PARAM_ERROR', message });
    const billDate = q.bill_date;
    if (typeof billDate !== 'string' || !isCalendarDay(billDate)) return refuse('bill_date');
    if (q.bill_type !== undefined && q.bill_type !== 'ALL' && q.bill_type !== 'SUCCESS' && q.bill_type !== 'REFUND') return refuse('bill_type');
    if (billDate >= localDay(new Date(), WECHAT_BILL_ZONE)) return refuse('账单日期只能是今天之前的日期');
    const refusal = await this.refuseSub(q.sub_mchid);
    if (refusal) return refusal;
    const file = await this.billFile(q.sub_mchid as string, billDate);
    if (!file) return this.sign(400, { code: 'NO_STATEMENT_EXIST', message: '账单文件不存在' });
    const token = this.billToken(q.sub_mchid as string, billDate);
    return this.sign(200, {
      hash_type: 'SHA1',
      hash_value: createHash('sha1').update(file, 'utf8').digest('hex'),
      download_url: `${origin}/api/dev/wechatpay/v3/billdownload/file?token=${token}`,
    });
  }

  /** The download of a bill (its token): the CSV bytes, signed too (see the controller). */
  async billDownload(token: unknown): Promise<SignedAnswer | null> {
    if (typeof token !== 'string') return null;
    const [payload, mac] = token.split('.');
    let subMchid = '';
    let billDate = '';
    try {
      [subMchid, billDate] = Buffer.from(payload ?? '', 'base64url')
        .toString('utf8')
        .split('|');
    } catch {
      return null;
    }
    const expected = this.billToken(subMchid ?? '', billDate ?? '').split('.')[1];
    if (!mac || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) return null;
    const file = await this.billFile(subMchid, billDate);
    if (!file) return null;
    const answer = this.signBody(200, file);
    return { ...answer, headers: { ...answer.headers, 'Content-Type': 'text/plain; charset=utf-8' } };
  }

  private billToken(subMchid: string, billDate: string): string {
    const payload = Buffer.from(`${subMchid}|${billDate}`, 'utf8').toString('base64url');
    return `${payload}.${createHmac('sha256', this.keys!.apiV3Key).update(payload).digest('base64url')}`;
  }

  /**
   * A sub-merchant's trade bill of one day (bill_type ALL) in WeChat Pay's documented CSV shape, or null when it has no
   * payment and no refund that day: the header, a line per payment paid and per refund succeeded that day (China
   * time), each field prefixed with a backtick, then the summary header and line. Amounts in yuan (fees with 5
   * decimals), summed in integers.
   */
  async billFile(subMchid: string, billDate: string): Promise<string | null> {
    const { from, to } = billDaySpan(billDate);
    const lines: Array<{
      at: Date;
      line: 'payment' | 'refund';
      appid: string;
      sp_mchid: string;
      transaction_id: string | null;
      out_trade_no: string;
      openid: string | null;
      trade_type: string;
      amount_fen: number;
      refund_id: string | null;
      out_refund_no: string | null;
      refund_fen: number | null;
      description: string;
    }> = await this.db.query(
      `select o.paid_at as at, 'payment' as line, o.appid, o.sp_mchid, o.transaction_id, o.out_trade_no,
              coalesce(o.payer_sub_openid, o.payer_openid) as openid, o.trade_type, o.amount_fen::int as amount_fen,
              null as refund_id, null as out_refund_no, null::int as refund_fen, o.description
         from wechatpay_sandbox_orders o
        where o.sub_mchid = $1 and o.paid_at >= $2 and o.paid_at < $3 and o.state in ('SUCCESS', 'REFUND')
       union all
       select r.succeeded_at, 'refund', o.appid, o.sp_mchid, o.transaction_id, o.out_trade_no,
              coalesce(o.payer_sub_openid, o.payer_openid), o.trade_type, o.amount_fen::int,
              r.refund_id, r.out_refund_no, r.amount_fen::int, o.description
         from wechatpay_sandbox_refunds r join wechatpay_sandbox_orders o on o.out_trade_no = r.out_trade_no
        where o.sub_mchid = $1 and r.status = 'SUCCESS' and r.succeeded_at >= $2 and r.succeeded_at < $3
        order by 1, 2`,
      [subMchid, from, to],
    );
    if (!lines.length) return null;
    const field = (v: string) => `\`${v}`;
    let settled = 0;
    let refunded = 0;
    let fees = 0;
    const rows = lines.map((l) => {
      const refund = l.line === 'refund';
      const fee = (refund ? -l.refund_fen! : l.amount_fen) * FEE_PER_MILLE_OF_FEN;
      fees += fee;
      if (refund) refunded += l.refund_fen!;
      else settled += l.amount_fen;
      return [
        localDateTime(l.at, WECHAT_BILL_ZONE, true),
        l.appid,
        l.sp_mchid,
        subMchid,
        '',
        l.transaction_id ?? '',
        l.out_trade_no,
        l.openid ?? '',
        l.trade_type,
        refund ? 'REFUND' : 'SUCCESS',
        'OTHERS',
        'CNY',
        formatFen(l.amount_fen),
        '0.00',
        refund ? l.refund_id! : '0',
        refund ? l.out_refund_no! : '0',
        refund ? formatFen(l.refund_fen!) : '0.00',
        '0.00',
        refund ? 'ORIGINAL' : '',
        refund ? 'SUCCESS' : '',
        l.description.replace(/[,`\r\n]/g, ' '),
        '',
        milliFenYuan(fee),
        '0.60%',
        formatFen(l.amount_fen),
        refund ? formatFen(l.refund_fen!) : '0.00',
        '',
      ]
        .map(field)
        .join(',');
    });
    const summary = [
      String(lines.length),
      formatFen(settled),
      formatFen(refunded),
      '0.00',
      milliFenYuan(fees),
      formatFen(settled),
      formatFen(refunded),
    ]
      .map(field)
      .join(',');
    return `${TRADE_BILL_HEADER}\r\n${rows.join('\r\n')}\r\n${TRADE_BILL_SUMMARY_HEADER}\r\n${summary}\r\n`;
  }

  /** The last notifies delivered and the merchant's answers (tests). */
  readonly delivered: Array<{ outTradeNo?: string; outRefundNo?: string; status: number }> = [];

  /** For tests: the order as the sandbox keeps it. */
  async orderOf(outTradeNo: string): Promise<SandboxOrder | null> {
    return this.order(outTradeNo);
  }
}
