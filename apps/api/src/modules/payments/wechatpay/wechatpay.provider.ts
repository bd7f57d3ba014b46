import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { Aes, Formatter, Rsa, Wechatpay } from 'wechatpay-axios-plugin';
import {
  NotifyRefused,
  PaymentProvider,
  ProviderRefused,
  type H5Order,
  type JsapiOrder,
  type JsapiParams,
  type NativeOrder,
  type ProviderNotify,
  type ProviderRefundNotice,
  type ProviderRefundState,
  type ProviderTransaction,
  type RefundOrder,
} from '../provider';
import type { MerchantCredentials } from './credentials';

/** Notifies and answers older or newer than this (seconds) are refused: replay protection, as v3 asks. */
export const MAX_CLOCK_SKEW_S = 300;

/** The parts of the library's chained client this adapter uses. */
interface Resource {
  get(config?: object): Promise<{ status: number; data: Record<string, unknown> }>;
  post(data?: object, config?: object): Promise<{ status: number; data: Record<string, unknown> }>;
  [segment: string]: unknown;
}
const at = (root: unknown, path: string): Resource =>
  path.split('/').reduce((node, segment) => (node as Record<string, unknown>)[segment], root) as Resource;

/** A decrypted TRANSACTION.* resource. */
interface TransactionResource {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  success_time?: string;
  amount?: { total?: number; payer_total?: number };
}

/** A decrypted REFUND.* resource. */
interface RefundResource {
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  out_refund_no?: string;
  refund_id?: string;
  refund_status?: string;
  success_time?: string;
  amount?: { total?: number; refund?: number; payer_total?: number; payer_refund?: number };
}

/** The refund notifies v3 sends (event_type), each with the refund_status it carries. */
const REFUND_EVENTS: Record<string, ProviderRefundNotice['status']> = {
  'REFUND.SUCCESS': 'SUCCESS',
  'REFUND.ABNORMAL': 'ABNORMAL',
  'REFUND.CLOSED': 'CLOSED',
};

const header = (headers: Record<string, string | string[] | undefined>, name: string): string => {
  const v = headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

function toTransaction(r: TransactionResource, outTradeNo?: string): ProviderTransaction {
  return {
    outTradeNo: r.out_trade_no ?? outTradeNo ?? '',
    tradeState: r.trade_state ?? 'UNKNOWN',
    transactionId: r.transaction_id ?? null,
    amountFen: typeof r.amount?.total === 'number' ? r.amount.total : null,
    successTime: r.success_time ?? null,
  };
}

/** A refund notify's resource: its refund_status must be the one its event names (both are signed). */
function toRefundNotice(eventType: string, r: RefundResource): ProviderRefundNotice {
  const status = REFUND_EVENTS[eventType];
  if (!status) throw new NotifyRefused(400, `event ${eventType.slice(0, 40)} not handled`);
  if (r.refund_status !== status)
    throw new NotifyRefused(400, `refund_status ${String(r.refund_status).slice(0, 20)} differs from the event ${eventType}`);
  if (typeof r.out_refund_no !== 'string' || typeof r.out_trade_no !== 'string')
    throw new NotifyRefused(400, 'refund resource without out_refund_no or out_trade_no');
  return {
    outTradeNo: r.out_trade_no,
    outRefundNo: r.out_refund_no,
    refundId: r.refund_id ?? null,
    status,
    refundFen: typeof r.amount?.refund === 'number' ? r.amount.refund : null,
  };
}

/**
 * WeChat Pay API v3, Native (QR), JSAPI and H5 payments, through wechatpay-axios-plugin: it signs every request with the merchant
 * private key (`Authorization: WECHATPAY2-SHA256-RSA2048 …`) and verifies every answer's `Wechatpay-Signature` with the
 * platform public key (and its clock skew). Notifies, payments' (TRANSACTION.*) and refunds' (REFUND.*) alike, are
 * verified and decrypted here with the same library's Rsa and AesGcm. The base URL is the real service in production
 * and the local sandbox elsewhere: same code, same protocol.
 */
export class WechatPayProvider extends PaymentProvider {
  private built: { base: string; client: Wechatpay } | null = null;

  constructor(
    private readonly creds: MerchantCredentials,
    /** the API base URL, with a trailing slash (https://api.mch.weixin.qq.com/ or the sandbox's) */
    private readonly baseUrl: () => string,
    private readonly notifyTo: () => string,
  ) {
    super();
  }

  /**
   * The platform key parsed once for the notifies: handed over as PEM text, node parses it again on every verification
   * (0.34 ms against 0.06 ms; BENCHMARKS.md, money bench). The plugin parses its own keys once.
   */
  private get keys(): { platformPublic: KeyObject } {
    this.parsedKeys ??= { platformPublic: createPublicKey(this.creds.platformPublicKey) };
    return this.parsedKeys;
  }
  private parsedKeys: { platformPublic: KeyObject } | null = null;

  /** The signing client; the sandbox's URL is known once the server listens, so it is built on first use. */
  private get client(): Wechatpay {
    const base = this.baseUrl();
    if (this.built?.base !== base) {
      const client = new Wechatpay({
        mchid: this.creds.mchid,
        serial: this.creds.serial,
        privateKey: this.creds.privateKey,
        certs: { [this.creds.platformKeyId]: this.creds.platformPublicKey },
        baseURL: base,
        timeout: 10_000,
      });
      this.built = { base, client };
    }
    return this.built!.client;
  }

  notifyUrl(): string {
    return this.notifyTo();
  }

  /** The body every order type shares (v3 native, jsapi and h5). */
  private orderBody(o: NativeOrder) {
    return {
      appid: this.creds.appid,
      mchid: this.creds.mchid,
      description: o.description,
      out_trade_no: o.outTradeNo,
      // RFC 3339 with the China offset, as the v3 examples show
      time_expire: new Date(o.expiresAt.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00'),
      notify_url: o.notifyUrl,
      amount: { total: o.amountFen, currency: 'CNY' },
    };
  }

  appId(): string {
    return this.creds.appid;
  }

  async createJsapi(o: JsapiOrder): Promise<{ prepayId: string }> {
    const res = await at(this.client, 'v3/pay/transactions/jsapi').post({ ...this.orderBody(o), payer: { openid: o.openid } });
    const prepayId = res.data.prepay_id;
    if (typeof prepayId !== 'string') throw new Error('wechatpay: jsapi order answered without prepay_id');
    return { prepayId };
  }

  async createH5(o: H5Order): Promise<{ h5Url: string }> {
    const res = await at(this.client, 'v3/pay/transactions/h5').post({
      ...this.orderBody(o),
      scene_info: { payer_client_ip: o.clientIp, h5_info: { type: 'Wap' } },
    });
    const h5Url = res.data.h5_url;
    if (typeof h5Url !== 'string') throw new Error('wechatpay: h5 order answered without h5_url');
    return { h5Url };
  }

  /** The merchant's key, parsed once (JSAPI paySign). */
  private get merchantPrivate(): KeyObject {
    this.parsedMerchant ??= createPrivateKey(this.creds.privateKey);
    return this.parsedMerchant;
  }
  private parsedMerchant: KeyObject | null = null;

  /** paySign: RSA-SHA256 over `appId\ntimeStamp\nnonceStr\npackage\n`, base64 (the JSAPI 调起支付 signature). */
  jsapiParams(prepayId: string): JsapiParams {
    const appId = this.creds.appid;
    const timeStamp = String(Formatter.timestamp());
    const nonceStr = Formatter.nonce();
    const pkg = `prepay_id=${prepayId}`;
    const paySign = Rsa.sign(Formatter.joinedByLineFeed(appId, timeStamp, nonceStr, pkg), this.merchantPrivate);
    return { appId, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
  }

  async createNative(o: NativeOrder): Promise<{ codeUrl: string }> {
    const res = await at(this.client, 'v3/pay/transactions/native').post(this.orderBody(o));
    const codeUrl = res.data.code_url;
    if (typeof codeUrl !== 'string') throw new Error('wechatpay: native order answered without code_url');
    return { codeUrl };
  }

  async query(outTradeNo: string): Promise<ProviderTransaction> {
    const res = await at(this.client, 'v3/pay/transactions/outTradeNo/$out_trade_no$').get({
      params: { mchid: this.creds.mchid },
      out_trade_no: outTradeNo,
    });
    return toTransaction(res.data as TransactionResource, outTradeNo);
  }

  async close(outTradeNo: string): Promise<void> {
    await at(this.client, 'v3/pay/transactions/outTradeNo/$out_trade_no$/close').post({ mchid: this.creds.mchid }, { out_trade_no: outTradeNo });
  }

  async refund(o: RefundOrder): Promise<{ refundId: string; status: string }> {
    let res: { data: Record<string, unknown> };
    try {
      res = await at(this.client, 'v3/refund/domestic/refunds').post({
        out_trade_no: o.outTradeNo,
        out_refund_no: o.outRefundNo,
        reason: o.reason.slice(0, 80),
        notify_url: this.notifyTo(),
        amount: { refund: o.refundFen, total: o.totalFen, currency: 'CNY' },
      });
    } catch (err) {
      // a 4xx answer says the refund was not made; no answer or a 5xx leaves it unknown (the caller retries the same number)
      const answer = (err as { response?: { status?: number; data?: { code?: unknown; message?: unknown } } }).response;
      if (answer?.status && answer.status >= 400 && answer.status < 500) {
        throw new ProviderRefused(String(answer.data?.code ?? answer.status), String(answer.data?.message ?? ''));
      }
      throw err;
    }
    return { refundId: String(res.data.refund_id ?? ''), status: String(res.data.status ?? 'PROCESSING') };
  }

  async queryRefund(outRefundNo: string): Promise<ProviderRefundState | null> {
    let res: { data: Record<string, unknown> };
    try {
      res = await at(this.client, 'v3/refund/domestic/refunds/$out_refund_no$').get({ out_refund_no: outRefundNo });
    } catch (err) {
      const answer = (err as { response?: { status?: number; data?: { code?: unknown } } }).response;
      // the only answer that says the refund does not exist; anything else (5xx, 429 FREQUENCY_LIMITED, no answer) is unknown
      if (answer?.status === 404 && answer.data?.code === 'RESOURCE_NOT_EXISTS') return null;
      throw err;
    }
    const r = res.data as RefundResource & { status?: string };
    return {
      outTradeNo: String(r.out_trade_no ?? ''),
      outRefundNo: String(r.out_refund_no ?? outRefundNo),
      refundId: r.refund_id ?? null,
      status: String(r.status ?? 'UNKNOWN'),
      refundFen: typeof r.amount?.refund === 'number' ? r.amount.refund : null,
    };
  }

  verifyNotify(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): ProviderNotify {
    const timestamp = header(headers, 'Wechatpay-Timestamp');
    const nonce = header(headers, 'Wechatpay-Nonce');
    const signature = header(headers, 'Wechatpay-Signature');
    const serial = header(headers, 'Wechatpay-Serial');
    if (!timestamp || !nonce || !signature || !serial) throw new NotifyRefused(401, 'signature headers missing');
    if (serial !== this.creds.platformKeyId) throw new NotifyRefused(401, `unknown key id ${serial.slice(0, 64)}`);
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_S) {
      throw new NotifyRefused(401, 'timestamp outside 5 minutes');
    }
    const body = rawBody.toString('utf8');
    let valid = false;
    try {
      valid = Rsa.verify(Formatter.response(timestamp, nonce, body), signature, this.keys.platformPublic);
    } catch {
      valid = false;
    }
    if (!valid) throw new NotifyRefused(401, 'bad signature');

    let resource: { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string } | undefined;
    let eventType: unknown;
    try {
      const parsed = JSON.parse(body) as { event_type?: unknown; resource?: typeof resource };
      resource = parsed.resource;
      eventType = parsed.event_type;
    } catch {
      throw new NotifyRefused(400, 'body is not JSON');
    }
    if (resource?.algorithm !== 'AEAD_AES_256_GCM' || typeof resource.ciphertext !== 'string' || typeof resource.nonce !== 'string') {
      throw new NotifyRefused(400, 'resource is not AEAD_AES_256_GCM');
    }
    let plain: TransactionResource & RefundResource;
    try {
      plain = JSON.parse(
        Aes.AesGcm.decrypt(resource.ciphertext, this.creds.apiV3Key, resource.nonce, resource.associated_data ?? ''),
      ) as TransactionResource & RefundResource;
    } catch {
      throw new NotifyRefused(400, 'resource does not decrypt');
    }
    if (plain.mchid !== undefined && plain.mchid !== this.creds.mchid) throw new NotifyRefused(400, 'another merchant');
    if (typeof eventType === 'string' && eventType.startsWith('REFUND.')) return { type: 'refund', refund: toRefundNotice(eventType, plain) };
    if (typeof eventType === 'string' && !eventType.startsWith('TRANSACTION.'))
      throw new NotifyRefused(400, `event ${eventType.slice(0, 40)} not handled`);
    return { type: 'transaction', transaction: toTransaction(plain) };
  }
}
