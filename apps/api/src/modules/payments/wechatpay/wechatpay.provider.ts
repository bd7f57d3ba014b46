import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { Aes, Formatter, Rsa, Wechatpay } from 'wechatpay-axios-plugin';
import {
  BillNotReady,
  NotifyRefused,
  PaymentProvider,
  ProviderRefused,
  type H5Order,
  type JsapiOrder,
  type JsapiParams,
  type NativeOrder,
  type PayMerchant,
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

/** A decrypted TRANSACTION.* resource, or a query's answer: direct (mchid, appid) or partner (sp_*, sub_*) shape. */
interface TransactionResource {
  mchid?: string;
  appid?: string;
  sp_mchid?: string;
  sub_mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  success_time?: string;
  amount?: { total?: number; payer_total?: number };
}

/** A decrypted REFUND.* resource. */
interface RefundResource {
  mchid?: string;
  sp_mchid?: string;
  sub_mchid?: string;
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
    subMchid: r.sub_mchid ?? null,
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
    subMchid: r.sub_mchid ?? null,
    outRefundNo: r.out_refund_no,
    refundId: r.refund_id ?? null,
    status,
    refundFen: typeof r.amount?.refund === 'number' ? r.amount.refund : null,
    successTime: r.success_time ?? null,
  };
}

/**
 * WeChat Pay API v3 in service-provider mode (服务商: partner orders for a sub-merchant, design.md §5b2), Native (QR),
 * JSAPI and H5 payments, refunds and trade bills, through wechatpay-axios-plugin: it signs every request with the merchant
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

  /**
   * The body every order type shares. A sub-merchant's order (every order now): the partner shape, sp_mchid and
   * sp_appid of the service provider with the sub_mchid (and sub_appid when the sub-merchant's own official account is
   * the payer's); the money goes to the sub-merchant. (Direct orders, merchant.subMchid null, are no longer placed:
   * only the payments made before service-provider mode are asked about and refunded the direct way.)
   */
  private orderBody(o: NativeOrder) {
    const subMchid = o.merchant.subMchid;
    if (!subMchid) throw new Error('wechatpay: a new order needs a sub-merchant');
    return {
      sp_appid: this.creds.appid,
      sp_mchid: this.creds.mchid,
      ...(o.merchant.subAppid ? { sub_appid: o.merchant.subAppid } : {}),
      sub_mchid: subMchid,
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

  platformSubMchid(): string {
    return this.creds.platformSubMchid;
  }

  async createJsapi(o: JsapiOrder): Promise<{ prepayId: string }> {
    if (o.openidOf === 'sub' && !o.merchant.subAppid) throw new Error("wechatpay: a sub_openid payer needs the sub-merchant's sub_appid");
    const payer = o.openidOf === 'sub' ? { sub_openid: o.openid } : { sp_openid: o.openid };
    const res = await at(this.client, 'v3/pay/partner/transactions/jsapi').post({ ...this.orderBody(o), payer });
    const prepayId = res.data.prepay_id;
    if (typeof prepayId !== 'string') throw new Error('wechatpay: jsapi order answered without prepay_id');
    return { prepayId };
  }

  async createH5(o: H5Order): Promise<{ h5Url: string }> {
    const res = await at(this.client, 'v3/pay/partner/transactions/h5').post({
      ...this.orderBody(o),
      scene_info: { payer_client_ip: o.clientIp, h5_info: { type: 'Wap' } },
    });
    const h5Url = res.data.h5_url;
    if (typeof h5Url !== 'string') throw new Error('wechatpay: h5 order answered without h5_url');
    return { h5Url };
  }

  /** The service provider's key, parsed once (JSAPI paySign). */
  private get merchantPrivate(): KeyObject {
    this.parsedMerchant ??= createPrivateKey(this.creds.privateKey);
    return this.parsedMerchant;
  }
  private parsedMerchant: KeyObject | null = null;

  /**
   * paySign: RSA-SHA256 over `appId\ntimeStamp\nnonceStr\npackage\n`, base64 (the JSAPI 调起支付 signature), with the
   * service provider's key; appId is the one the payer's openid is of.
   */
  jsapiParams(prepayId: string, appId: string): JsapiParams {
    const timeStamp = String(Formatter.timestamp());
    const nonceStr = Formatter.nonce();
    const pkg = `prepay_id=${prepayId}`;
    const paySign = Rsa.sign(Formatter.joinedByLineFeed(appId, timeStamp, nonceStr, pkg), this.merchantPrivate);
    return { appId, timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
  }

  async createNative(o: NativeOrder): Promise<{ codeUrl: string }> {
    const res = await at(this.client, 'v3/pay/partner/transactions/native').post(this.orderBody(o));
    const codeUrl = res.data.code_url;
    if (typeof codeUrl !== 'string') throw new Error('wechatpay: native order answered without code_url');
    return { codeUrl };
  }

  /** The order at WeChat, under the merchant it was made with (partner: sp_mchid and sub_mchid; direct: mchid). */
  async query(outTradeNo: string, merchant: PayMerchant): Promise<ProviderTransaction> {
    const res = merchant.subMchid
      ? await at(this.client, 'v3/pay/partner/transactions/outTradeNo/$out_trade_no$').get({
          params: { sp_mchid: this.creds.mchid, sub_mchid: merchant.subMchid },
          out_trade_no: outTradeNo,
        })
      : await at(this.client, 'v3/pay/transactions/outTradeNo/$out_trade_no$').get({
          params: { mchid: this.creds.mchid },
          out_trade_no: outTradeNo,
        });
    const t = toTransaction(res.data as TransactionResource, outTradeNo);
    // an answer about another merchant's order is not this payment's
    if ((t.subMchid ?? null) !== merchant.subMchid) throw new Error(`wechatpay: the query answered another sub-merchant's order ${outTradeNo}`);
    return t;
  }

  async close(outTradeNo: string, merchant: PayMerchant): Promise<void> {
    if (merchant.subMchid) {
      await at(this.client, 'v3/pay/partner/transactions/outTradeNo/$out_trade_no$/close').post(
        { sp_mchid: this.creds.mchid, sub_mchid: merchant.subMchid },
        { out_trade_no: outTradeNo },
      );
      return;
    }
    await at(this.client, 'v3/pay/transactions/outTradeNo/$out_trade_no$/close').post({ mchid: this.creds.mchid }, { out_trade_no: outTradeNo });
  }

  /**
   * One merchant's trade bill of one day: `GET /v3/bill/tradebill` (bill_type ALL, sub_mchid), then its download_url,
   * whose bytes must hash to the answer's SHA1 hash_value (a damaged or cut file is refused before anything is read).
   */
  async tradeBill(subMchid: string, billDate: string): Promise<string | null> {
    let answer: { data: Record<string, unknown> };
    try {
      answer = await at(this.client, 'v3/bill/tradebill').get({ params: { bill_date: billDate, sub_mchid: subMchid, bill_type: 'ALL' } });
    } catch (err) {
      const res = (err as { response?: { status?: number; data?: { code?: unknown; message?: unknown } } }).response;
      if (res?.status === 400 && res.data?.code === 'NO_STATEMENT_EXIST') return null;
      if (res?.status === 400 && res.data?.code === 'STATEMENT_CREATING') throw new BillNotReady(String(res.data?.message ?? ''));
      throw err;
    }
    const { hash_type, hash_value, download_url } = answer.data as { hash_type?: unknown; hash_value?: unknown; download_url?: unknown };
    if (typeof download_url !== 'string' || typeof hash_value !== 'string' || hash_type !== 'SHA1')
      throw new Error('wechatpay: tradebill answered without a SHA1 hash and a download_url');
    // the download is a signed GET of the same service: its path and token, under this client's base URL
    const url = new URL(download_url);
    const base = new URL(this.baseUrl());
    if (url.origin !== base.origin) throw new Error(`wechatpay: the bill's download_url is on another host (${url.host})`);
    const path = url.pathname.slice(base.pathname.length).replace(/^\//, '');
    const file = await at(this.client, path).get({ params: Object.fromEntries(url.searchParams), responseType: 'arraybuffer' });
    const bytes = Buffer.from(file.data as unknown as ArrayBuffer);
    const digest = createHash('sha1').update(bytes).digest('hex');
    if (digest !== hash_value.toLowerCase()) throw new Error(`wechatpay: the bill of ${billDate} does not match its SHA1 (damaged in transit)`);
    return bytes.toString('utf8');
  }

  async refund(o: RefundOrder): Promise<{ refundId: string; status: string }> {
    let res: { data: Record<string, unknown> };
    try {
      res = await at(this.client, 'v3/refund/domestic/refunds').post({
        // a sub-merchant's payment is refunded from the sub-merchant that received it
        ...(o.merchant.subMchid ? { sub_mchid: o.merchant.subMchid } : {}),
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

  async queryRefund(outRefundNo: string, merchant: PayMerchant): Promise<ProviderRefundState | null> {
    let res: { data: Record<string, unknown> };
    try {
      res = await at(this.client, 'v3/refund/domestic/refunds/$out_refund_no$').get({
        ...(merchant.subMchid ? { params: { sub_mchid: merchant.subMchid } } : {}),
        out_refund_no: outRefundNo,
      });
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
      successTime: r.success_time ?? null,
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
    // a partner notify names the service provider (sp_mchid) and the sub-merchant; a direct one the merchant (mchid):
    // either must be this service provider's, and the sub-merchant is checked against the payment's own by the caller
    const merchant = plain.sp_mchid ?? plain.mchid;
    if (merchant !== undefined && merchant !== this.creds.mchid) throw new NotifyRefused(400, 'another merchant');
    if (plain.sp_mchid !== undefined && typeof plain.sub_mchid !== 'string') throw new NotifyRefused(400, 'a partner notify without sub_mchid');
    if (typeof eventType === 'string' && eventType.startsWith('REFUND.')) return { type: 'refund', refund: toRefundNotice(eventType, plain) };
    if (typeof eventType === 'string' && !eventType.startsWith('TRANSACTION.'))
      throw new NotifyRefused(400, `event ${eventType.slice(0, 40)} not handled`);
    return { type: 'transaction', transaction: toTransaction(plain) };
  }
}
