import type Dysmsapi from '@alicloud/dysmsapi20170525';
import { classifyAliyun, localDay, nationalMobile, SMS_PARAM_MAX, smsRef, smsUnits } from '@wantuo/shared';
import type { AliyunSmsConfig, GatewayEndpoint } from '../../../core/config/sms-config';
import {
  GatewayError,
  SmsGateway,
  type DeliveryReport,
  type GatewaySend,
  type PendingReceipt,
  type ProviderRecord,
  type SendOutcome,
} from './gateway';

/** One entry of Aliyun's SmsReport push (a JSON array of them is POSTed to the report callback). */
export interface AliyunSmsReport {
  phone_number: string;
  /** China-local yyyy-MM-dd HH:mm:ss */
  send_time: string;
  report_time: string;
  success: boolean;
  /** DELIVERED on success, else the carrier's code (MK:0001, …) */
  err_code: string;
  err_msg: string;
  /** billed units, as a string ("1") */
  sms_size?: string;
  biz_id: string;
  out_id?: string;
}

/** QuerySendDetails' SendStatus: 1 waiting for the receipt, 2 failed, 3 delivered. */
const WAITING = 1;
const FAILED = 2;
const DELIVERED = 3;
/** QuerySendDetails calls run at once (one per pending message) */
const POLL_PARALLEL = 8;
/** OutId: our ids (smsRef) up to this long; the page size and pages of records() per day (at most 200 texts a mobile a day) */
const OUT_ID_MAX = 64;
const RECORDS_PAGE = 50;
const RECORDS_PAGES = 4;
/** the days records() asks for (the day of `since` up to today, China time) */
const RECORDS_DAYS = 4;

/** yyyyMMdd of a moment in China (QuerySendDetails' SendDate), by the school-time helper: never the process's TZ */
export const chinaDay = (d: Date) => localDay(d, 'Asia/Shanghai').replace(/-/g, '');
/** A China-local "yyyy-MM-dd HH:mm:ss" (Aliyun's reports and receipts), or null. */
function chinaTime(s: string | null | undefined): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(s?.trim() ?? '');
  if (!m) return null;
  const d = new Date(`${m[1]}T${m[2]}+08:00`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An error of the SDK carrying the provider's answer (HTTP 4xx/5xx): ClientError, ServerError, ThrottlingError. */
interface SdkResponseError {
  code: string;
  statusCode: number;
  message: string;
  data?: { Code?: string; Message?: string };
}
const isResponseError = (e: unknown): e is SdkResponseError =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as Partial<SdkResponseError>).code === 'string' &&
  typeof (e as Partial<SdkResponseError>).statusCode === 'number';

/** Calls the SDK: an answer of the provider's that refuses the request becomes a GatewayError; network errors go through. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isResponseError(e)) {
      const code = e.data?.Code ?? e.code;
      throw new GatewayError({ class: classifyAliyun(code), code, message: e.data?.Message ?? e.message });
    }
    throw e;
  }
}

/**
 * Aliyun SMS (dysmsapi 2017-05-25) through its SDK: SendSms for one mobile, SendBatchSms for several (up to 100, one
 * BizId for the request: the receipts are matched by BizId and mobile), QuerySendDetails to poll receipts, and the
 * SmsReport push read by parseReport. The client is made on first use: the fake's endpoint is known only once the
 * HTTP server listens.
 */
export class AliyunGateway extends SmsGateway {
  readonly name = 'aliyun' as const;
  readonly batchSize = 100;
  readonly paramMax = SMS_PARAM_MAX.aliyun;
  /** what Aliyun expects back from the report callback */
  readonly reportAnswer = { code: 0, msg: '成功' };
  private client: Promise<{ client: Dysmsapi; sdk: typeof import('@alicloud/dysmsapi20170525') }> | null = null;

  constructor(
    private readonly account: Omit<AliyunSmsConfig, 'endpoint'>,
    private readonly endpoint: () => GatewayEndpoint,
  ) {
    super();
  }

  /** The SDK, loaded on first use (about 0.6 s of require): a process that never texts through Aliyun never loads it. */
  private sdk(): Promise<{ client: Dysmsapi; sdk: typeof import('@alicloud/dysmsapi20170525') }> {
    this.client ??= this.load().catch((err) => {
      this.client = null;
      throw err;
    });
    return this.client;
  }

  private async load(): Promise<{ client: Dysmsapi; sdk: typeof import('@alicloud/dysmsapi20170525') }> {
    const [sdk, { $OpenApiUtil }] = await Promise.all([import('@alicloud/dysmsapi20170525'), import('@alicloud/openapi-core')]);
    const { protocol, host } = this.endpoint();
    return {
      sdk,
      client: new sdk.default(
        new $OpenApiUtil.Config({
          accessKeyId: this.account.accessKeyId,
          accessKeySecret: this.account.accessKeySecret,
          endpoint: host,
          protocol,
          // a send is answered in well under a second; a hung connection must not hold a worker. No SDK retries: the
          // queue retries transient failures itself. Keep-alive: the SDK's HTTP client (httpx) reuses one agent.
          connectTimeout: 5_000,
          readTimeout: 10_000,
        }),
      ),
    };
  }

  async send(req: GatewaySend): Promise<SendOutcome[]> {
    if (!req.messages.length) return [];
    if (req.messages.length > this.batchSize) throw new Error(`aliyun: at most ${this.batchSize} mobiles a request (${req.messages.length})`);
    const { signName } = this.account;
    const params = JSON.stringify(req.params);
    const { client, sdk } = await this.sdk();
    const body =
      req.messages.length === 1
        ? (
            await call(() =>
              client.sendSms(
                new sdk.SendSmsRequest({
                  phoneNumbers: req.messages[0].mobile,
                  signName,
                  templateCode: req.templateCode,
                  templateParam: params,
                  outId: smsRef([req.messages[0].id], OUT_ID_MAX),
                }),
              ),
            )
          ).body
        : (
            await call(() =>
              client.sendBatchSms(
                new sdk.SendBatchSmsRequest({
                  phoneNumberJson: JSON.stringify(req.messages.map((m) => m.mobile)),
                  signNameJson: JSON.stringify(req.messages.map(() => signName)),
                  templateCode: req.templateCode,
                  templateParamJson: JSON.stringify(req.messages.map(() => req.params)),
                  outId: smsRef(
                    req.messages.map((m) => m.id),
                    OUT_ID_MAX,
                  ),
                }),
              ),
            )
          ).body;
    const code = body?.code ?? 'isp.SYSTEM_ERROR';
    if (code !== 'OK' || !body?.bizId)
      throw new GatewayError({ class: classifyAliyun(code), code, message: body?.message ?? 'no BizId in the answer' });
    // the units of the text the provider sends: its sign and the template's words (approximated by our rendering
    // without our own sign prefix; the send does not answer the fee, the report's sms_size corrects it)
    const units = smsUnits(`【${signName}】${req.content.replace(/^【[^】]*】/, '')}`);
    return req.messages.map((m) => ({ id: m.id, ok: true, messageId: body.bizId!, units }));
  }

  /**
   * The receipts of pending messages by QuerySendDetails (one call per message, a few at a time). A message still
   * waiting gives no report. When every query failed the first error is thrown (nothing was learned).
   */
  async poll(pending: PendingReceipt[]): Promise<DeliveryReport[]> {
    const { client, sdk } = await this.sdk();
    const reports: DeliveryReport[] = [];
    const errors: unknown[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const p = pending[next++];
        try {
          const r = await this.pollOne(client, sdk, p);
          if (r) reports.push(r);
        } catch (e) {
          errors.push(e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(POLL_PARALLEL, pending.length) }, worker));
    if (errors.length && errors.length === pending.length) throw errors[0];
    return reports;
  }

  private async pollOne(client: Dysmsapi, sdk: typeof import('@alicloud/dysmsapi20170525'), p: PendingReceipt): Promise<DeliveryReport | null> {
    const res = await call(() =>
      client.querySendDetails(
        new sdk.QuerySendDetailsRequest({ phoneNumber: p.mobile, bizId: p.messageId, sendDate: chinaDay(p.sentAt), pageSize: 10, currentPage: 1 }),
      ),
    );
    const body = res.body;
    if (body?.code !== 'OK') {
      const code = body?.code ?? 'isp.SYSTEM_ERROR';
      throw new GatewayError({ class: classifyAliyun(code), code, message: body?.message ?? '' });
    }
    const d = body.smsSendDetailDTOs?.smsSendDetailDTO?.[0];
    if (!d || d.sendStatus === WAITING || (d.sendStatus !== DELIVERED && d.sendStatus !== FAILED)) return null;
    return {
      messageId: p.messageId,
      mobile: p.mobile,
      delivered: d.sendStatus === DELIVERED,
      code: d.errCode || null,
      message: null,
      at: chinaTime(d.receiveDate),
      units: null,
    };
  }

  /**
   * What Aliyun accepted for a mobile since a moment: QuerySendDetails by mobile and day (no BizId: every text of the
   * day, with its template, OutId, content and status), each day from `since` to today. Its answer names no BizId.
   */
  async records(mobile: string, since: Date): Promise<ProviderRecord[]> {
    const { client, sdk } = await this.sdk();
    const days: string[] = [];
    for (let d = since.getTime(); days.length < RECORDS_DAYS; d += 86_400_000) {
      const day = chinaDay(new Date(d));
      if (!days.includes(day)) days.push(day);
      if (day === chinaDay(new Date())) break;
    }
    const out: ProviderRecord[] = [];
    for (const sendDate of days) {
      for (let page = 1; page <= RECORDS_PAGES; page++) {
        const res = await call(() =>
          client.querySendDetails(new sdk.QuerySendDetailsRequest({ phoneNumber: mobile, sendDate, pageSize: RECORDS_PAGE, currentPage: page })),
        );
        const body = res.body;
        if (body?.code !== 'OK') {
          const code = body?.code ?? 'isp.SYSTEM_ERROR';
          throw new GatewayError({ class: classifyAliyun(code), code, message: body?.message ?? '' });
        }
        const details = body.smsSendDetailDTOs?.smsSendDetailDTO ?? [];
        for (const d of details) {
          const done = d.sendStatus === DELIVERED || d.sendStatus === FAILED;
          out.push({
            mobile,
            messageId: null,
            at: chinaTime(d.sendDate),
            templateCode: d.templateCode ?? null,
            content: d.content ?? null,
            ref: d.outId ?? null,
            report: done ? { delivered: d.sendStatus === DELIVERED, code: d.errCode || null, message: null, at: chinaTime(d.receiveDate) } : null,
          });
        }
        if (details.length < RECORDS_PAGE) break;
      }
    }
    return out;
  }

  /** Aliyun's SmsReport push: a JSON array (the raw body, its text or already parsed); entries without a BizId are skipped. */
  parseReport(body: unknown): DeliveryReport[] {
    let data: unknown = body;
    if (Buffer.isBuffer(data)) data = data.toString('utf8');
    if (typeof data === 'string') data = data.trim() ? JSON.parse(data) : [];
    if (!Array.isArray(data)) throw new Error('aliyun SmsReport: expected a JSON array');
    const out: DeliveryReport[] = [];
    for (const r of data as Array<Partial<AliyunSmsReport>>) {
      if (!r || typeof r.biz_id !== 'string' || typeof r.phone_number !== 'string') continue;
      const size = Number(r.sms_size);
      const delivered = r.success === true || String(r.success) === 'true';
      out.push({
        messageId: r.biz_id,
        mobile: nationalMobile(r.phone_number),
        delivered,
        code: r.err_code || null,
        message: r.err_msg || null,
        at: chinaTime(r.report_time),
        units: Number.isInteger(size) && size > 0 ? size : null,
      });
    }
    return out;
  }
}
