/**
 * The one interface every provider payment goes through (design.md §5a). The adapter for WeChat Pay API v3 (Native QR,
 * JSAPI, H5; service-provider mode) implements it; the money core never sees a provider's wire format.
 */

/**
 * The merchant a payment is made with, and keeps for its life (design.md §5b2): a sub-merchant (特约商户) of the platform
 * as service provider — the school's own, or the platform's own for what it sells — by the partner endpoints with
 * sp_mchid, sp_appid and this sub_mchid. `subMchid: null` is a payment made before service-provider mode, with the
 * platform's merchant directly: it is asked about and refunded the way it was made.
 */
export interface PayMerchant {
  subMchid: string | null;
  /** the sub-merchant's own official account, when the payer is bound to it (JSAPI pays with its sub_openid) */
  subAppid?: string | null;
}

export interface NativeOrder {
  merchant: PayMerchant;
  outTradeNo: string;
  description: string;
  amountFen: number;
  expiresAt: Date;
  notifyUrl: string;
}

/**
 * A JSAPI order (inside WeChat): the payer's openid, of the service provider's app id (sp_openid) or of the
 * sub-merchant's own (sub_openid, with merchant.subAppid).
 */
export type JsapiOrder = NativeOrder & { openid: string; openidOf: 'sp' | 'sub' };
/** An H5 order (a phone browser outside WeChat): the payer's IP, as WeChat's cashier page checks it. */
export type H5Order = NativeOrder & { clientIp: string };

/** What a page inside WeChat hands to `WeixinJSBridge.invoke('getBrandWCPayRequest', …)` (the shared JsapiPayParams). */
export interface JsapiParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: 'RSA';
  paySign: string;
}

/** A provider's view of an order (query, or the decrypted resource of a verified notify). */
export interface ProviderTransaction {
  outTradeNo: string;
  /** the sub-merchant that received it (null: a direct-mode payment) */
  subMchid: string | null;
  /** SUCCESS is paid; NOTPAY / USERPAYING are still open; CLOSED / REVOKED / PAYERROR / REFUND are final otherwise */
  tradeState: string;
  transactionId: string | null;
  amountFen: number | null;
  successTime: string | null;
}

/** What a verified REFUND.* notify says of one refund (its decrypted resource). */
export interface ProviderRefundNotice {
  outTradeNo: string;
  /** the sub-merchant the refund came from (null: direct mode) */
  subMchid: string | null;
  outRefundNo: string;
  refundId: string | null;
  /** SUCCESS (the payer has it), CLOSED (it was not made), ABNORMAL (it left the merchant, the payer's account refused it) */
  status: 'SUCCESS' | 'CLOSED' | 'ABNORMAL';
  refundFen: number | null;
  /** when the payer had it (RFC 3339), for SUCCESS */
  successTime: string | null;
}

/** A verified, decrypted notify: a payment's (TRANSACTION.*) or a refund's (REFUND.*). */
export type ProviderNotify = { type: 'transaction'; transaction: ProviderTransaction } | { type: 'refund'; refund: ProviderRefundNotice };

export interface RefundOrder {
  merchant: PayMerchant;
  outTradeNo: string;
  outRefundNo: string;
  refundFen: number;
  totalFen: number;
  reason: string;
}

/** A provider's view of one refund (the refund status query, v3 `GET /v3/refund/domestic/refunds/{out_refund_no}`). */
export interface ProviderRefundState {
  outTradeNo: string;
  outRefundNo: string;
  refundId: string | null;
  /** SUCCESS, PROCESSING, CLOSED or ABNORMAL (as the refund's answer and its notifies) */
  status: string;
  refundFen: number | null;
  successTime: string | null;
}

/** Why a notify was refused (never credited): the HTTP status v3 expects and a reason for the log. */
export class NotifyRefused extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 500,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * The provider answered that it did not make a refund (v3: a 4xx answer such as NOT_ENOUGH or INVALID_REQUEST).
 * Anything else that fails (no answer, a 5xx) leaves it unknown whether the refund was made.
 */
export class ProviderRefused extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}

/** WeChat has not made a day's bill yet (STATEMENT_CREATING): asked again later. */
export class BillNotReady extends Error {}

export abstract class PaymentProvider {
  /** Places a Native (QR) order; answers the code_url the payer scans. */
  abstract createNative(order: NativeOrder): Promise<{ codeUrl: string }>;
  /** Places a JSAPI order (v3 `pay/transactions/jsapi`, payer.openid); answers its prepay_id. */
  abstract createJsapi(order: JsapiOrder): Promise<{ prepayId: string }>;
  /** Places an H5 order (v3 `pay/transactions/h5`, scene_info); answers the cashier page (h5_url) to send the payer to. */
  abstract createH5(order: H5Order): Promise<{ h5Url: string }>;
  /** The service provider's app id (sp_appid, the platform's official account): sp_openid payers are of it. */
  abstract appId(): string;
  /** The platform's own sub-merchant: what the platform sells is received there. */
  abstract platformSubMchid(): string;
  /**
   * The getBrandWCPayRequest parameters of a JSAPI order, paySign made with the service provider's private key; appId
   * is the app id the payer's openid is of (sp_appid, or the sub-merchant's sub_appid).
   */
  abstract jsapiParams(prepayId: string, appId: string): JsapiParams;
  abstract query(outTradeNo: string, merchant: PayMerchant): Promise<ProviderTransaction>;
  /** Closes an unpaid order (an order already closed is fine). */
  abstract close(outTradeNo: string, merchant: PayMerchant): Promise<void>;
  /**
   * Asks for a refund; idempotent by outRefundNo (the same number answers the refund it made). Answers the refund's
   * status (SUCCESS, PROCESSING, ABNORMAL, CLOSED); throws ProviderRefused when the provider says it made none.
   */
  abstract refund(order: RefundOrder): Promise<{ refundId: string; status: string }>;
  /**
   * Asks the provider where a refund is: its state, or null when the provider has no refund of that number (v3:
   * 404 RESOURCE_NOT_EXISTS, so it was never made). Any other failure throws (the answer is unknown).
   */
  abstract queryRefund(outRefundNo: string, merchant: PayMerchant): Promise<ProviderRefundState | null>;
  /**
   * One merchant's trade bill (交易账单, bill_type ALL) of one day, China time: v3 `GET /v3/bill/tradebill` with
   * sub_mchid, then its download_url, the file checked against the answer's SHA1 hash_value. Answers the CSV text as
   * WeChat writes it, or null when WeChat has no bill of that day for the merchant (NO_STATEMENT_EXIST: no trade).
   * Throws BillNotReady while WeChat is still making it (STATEMENT_CREATING, or before 10:00 the next day).
   */
  abstract tradeBill(subMchid: string, billDate: string): Promise<string | null>;
  /**
   * Verifies a notify callback (signature over timestamp, nonce and the raw body with the platform key; timestamp
   * within 5 minutes; the key id), decrypts its resource and tells a payment's from a refund's. Throws NotifyRefused.
   */
  abstract verifyNotify(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): ProviderNotify;
  /** Where the provider sends notifies for this deployment. */
  abstract notifyUrl(): string;
}
