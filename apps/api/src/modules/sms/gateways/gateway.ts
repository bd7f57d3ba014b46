import type { SmsFailureClass, SmsKind, SmsProviderName } from '@wantuo/shared';

/** One request to a gateway: messages of one kind with the same variables (a single text, or a batch of a fan-out). */
export interface GatewaySend {
  kind: SmsKind;
  /** the provider's approved template for the kind (the outbox: the kind itself) */
  templateCode: string;
  /** the template's variables by name, already cut to the provider's limit (cutSmsParams) */
  params: Record<string, string>;
  /** the full rendered text (what the outbox stores; the units of a provider that does not answer its fee) */
  content: string;
  /** our message ids with their mobiles (11 digits); at most the gateway's batchSize */
  messages: Array<{ id: number; mobile: string }>;
}

export interface GatewayFailure {
  class: SmsFailureClass;
  /** the provider's own code (isv.BUSINESS_LIMIT_CONTROL, LimitExceeded.PhoneNumberDailyLimit, …) or a network error's */
  code: string;
  message: string;
}

/** The answer for one message of a send: accepted with the provider's id, or refused. */
export type SendOutcome =
  { id: number; ok: true; messageId: string; units: number; delivered?: boolean } | { id: number; ok: false; failure: GatewayFailure };

/** The provider refused the whole request (credentials, balance, throttling…): every message of it has this failure. */
export class GatewayError extends Error {
  constructor(readonly failure: GatewayFailure) {
    super(`${failure.code}: ${failure.message}`);
  }
}

/** A message the provider accepted and has not reported on yet. */
export interface PendingReceipt {
  id: number;
  mobile: string;
  messageId: string;
  sentAt: Date;
}

/** A provider's delivery report for one message (from its report callback or from polling). */
export interface DeliveryReport {
  messageId: string;
  /** 11 digits (nationalMobile) */
  mobile: string;
  delivered: boolean;
  /** the carrier's code when not delivered (e.g. MK:0001, DELIVRD on success) */
  code: string | null;
  message: string | null;
  at: Date | null;
  /** billed units when the report says (Tencent's Fee); null: keep what the send said */
  units: number | null;
}

/**
 * A text the provider says it accepted for a mobile (asked before sending again a text whose fate is unknown: a worker
 * killed with the request at the provider). What the provider's query answers; null where it answers nothing.
 */
export interface ProviderRecord {
  mobile: string;
  /** the provider's id (Tencent SerialNo); null when the query does not answer it (Aliyun QuerySendDetails) */
  messageId: string | null;
  /** when it was sent (Aliyun SendDate); Tencent answers when it was received, if it was */
  at: Date | null;
  templateCode: string | null;
  /** the text as the provider sent it (Aliyun Content) */
  content: string | null;
  /** our reference given with the send (Aliyun OutId, Tencent SessionContext: smsRef of our ids), '' or null if none */
  ref: string | null;
  /** its receipt, when the provider has one */
  report: Omit<DeliveryReport, 'messageId' | 'mobile' | 'units'> | null;
}

/**
 * A text-message gateway. send() answers an outcome per message, or throws a GatewayError when the provider refused
 * the request as a whole; any other error (network, timeout, 5xx) counts as transient. poll() asks the provider for
 * the receipts of pending messages, records() what it accepted for a mobile; parseReport() reads the body of the provider's report callback (already
 * authenticated by its URL token) and reportAnswer is what the provider expects back.
 */
export abstract class SmsGateway {
  abstract readonly name: SmsProviderName;
  /** the most mobiles one request takes (Aliyun SendBatchSms 100, Tencent SendSms 200) */
  abstract readonly batchSize: number;
  /** the longest template variable the provider accepts (SMS_PARAM_MAX); the outbox: unlimited */
  abstract readonly paramMax: number;
  abstract send(req: GatewaySend): Promise<SendOutcome[]>;
  abstract poll(pending: PendingReceipt[]): Promise<DeliveryReport[]>;
  /** What the provider accepted for a mobile since a moment (by mobile and day); throws when it cannot say. */
  abstract records(mobile: string, since: Date): Promise<ProviderRecord[]>;
  abstract parseReport(body: unknown): DeliveryReport[];
  abstract readonly reportAnswer: unknown;
}
