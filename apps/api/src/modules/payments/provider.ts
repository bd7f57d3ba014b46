/**
 * The one interface every provider payment goes through (design.md §5a). The adapter for WeChat Pay API v3 (Native QR)
 * (Native QR, JSAPI, H5) implements it; the money core never sees a provider's wire format.
 */
export interface NativeOrder {
  outTradeNo: string;
  description: string;
  amountFen: number;
  expiresAt: Date;
  notifyUrl: string;
}

/** A JSAPI order (inside WeChat): the payer is the openid of the merchant's app id. */
export type JsapiOrder = NativeOrder & { openid: string };
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
  /** SUCCESS is paid; NOTPAY / USERPAYING are still open; CLOSED / REVOKED / PAYERROR / REFUND are final otherwise */
  tradeState: string;
  transactionId: string | null;
  amountFen: number | null;
  successTime: string | null;
}

/** What a verified REFUND.* notify says of one refund (its decrypted resource). */
export interface ProviderRefundNotice {
  outTradeNo: string;
  outRefundNo: string;
  refundId: string | null;
  /** SUCCESS (the payer has it), CLOSED (it was not made), ABNORMAL (it left the merchant, the payer's account refused it) */
  status: 'SUCCESS' | 'CLOSED' | 'ABNORMAL';
  refundFen: number | null;
}

/** A verified, decrypted notify: a payment's (TRANSACTION.*) or a refund's (REFUND.*). */
export type ProviderNotify = { type: 'transaction'; transaction: ProviderTransaction } | { type: 'refund'; refund: ProviderRefundNotice };

export interface RefundOrder {
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

export abstract class PaymentProvider {
  /** Places a Native (QR) order; answers the code_url the payer scans. */
  abstract createNative(order: NativeOrder): Promise<{ codeUrl: string }>;
  /** Places a JSAPI order (v3 `pay/transactions/jsapi`, payer.openid); answers its prepay_id. */
  abstract createJsapi(order: JsapiOrder): Promise<{ prepayId: string }>;
  /** Places an H5 order (v3 `pay/transactions/h5`, scene_info); answers the cashier page (h5_url) to send the payer to. */
  abstract createH5(order: H5Order): Promise<{ h5Url: string }>;
  /** The app id the merchant's orders are made for: a JSAPI payer's openid must be of it (the official account's). */
  abstract appId(): string;
  /** The getBrandWCPayRequest parameters of a JSAPI order, paySign made with the merchant's private key. */
  abstract jsapiParams(prepayId: string): JsapiParams;
  abstract query(outTradeNo: string): Promise<ProviderTransaction>;
  /** Closes an unpaid order (an order already closed is fine). */
  abstract close(outTradeNo: string): Promise<void>;
  /**
   * Asks for a refund; idempotent by outRefundNo (the same number answers the refund it made). Answers the refund's
   * status (SUCCESS, PROCESSING, ABNORMAL, CLOSED); throws ProviderRefused when the provider says it made none.
   */
  abstract refund(order: RefundOrder): Promise<{ refundId: string; status: string }>;
  /**
   * Asks the provider where a refund is: its state, or null when the provider has no refund of that number (v3:
   * 404 RESOURCE_NOT_EXISTS, so it was never made). Any other failure throws (the answer is unknown).
   */
  abstract queryRefund(outRefundNo: string): Promise<ProviderRefundState | null>;
  /**
   * Verifies a notify callback (signature over timestamp, nonce and the raw body with the platform key; timestamp
   * within 5 minutes; the key id), decrypts its resource and tells a payment's from a refund's. Throws NotifyRefused.
   */
  abstract verifyNotify(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): ProviderNotify;
  /** Where the provider sends notifies for this deployment. */
  abstract notifyUrl(): string;
}
