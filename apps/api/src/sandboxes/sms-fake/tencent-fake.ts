import { Controller, Get, Inject, Injectable, OnModuleDestroy, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { localDay, SMS_KINDS, SMS_PARAM_MAX, smsUnits } from '@wantuo/shared';
import type { Request, Response } from 'express';
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { Access } from '../../core/auth/access.decorator';
import { Input, parseInput } from '../../core/http/input.decorator';
import { langOf, type AppRequest } from '../../core/http/request-context';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { InFlight } from '../../core/events/in-flight';
import { LOGGER } from '../../core/logging/logger';
import { sandboxKindOf, SANDBOX_TENCENT } from '../../modules/sms/gateways/sandbox-account';
import type { TencentReport } from '../../modules/sms/gateways/tencent.gateway';
import { FakeControlInput, FakeMessagesQuery, jsonBody, reportUrl, type FakeControl, type FakeMessage } from './fake-common';

/** The API version the fake speaks (the SDK's sms.v20210111 client). */
const VERSION = '2021-01-11';
/** how far X-TC-Timestamp may be from the server's clock (AuthFailure.SignatureExpire) */
const CLOCK_SKEW_S = 300;
/** the most numbers one SendSms takes */
const MAX_NUMBERS = 200;
/** messages kept for GET messages and receipts (the oldest are forgotten first) */
const STORE_MAX = 100_000;
/** receipts pushed per callback request (Aliyun's fake sends all pending at once; 100 a request held 10,000 texts' reports to 1,000/s), and how often */
const PUSH_BATCH = 1_000;
const PUSH_EVERY_MS = 100;
/** the fixed words of a template besides its variables, for the Fee (the fake has no template texts) */
const TEMPLATE_WORDS = 40;

interface TencentError {
  Response: { Error: { Code: string; Message: string }; RequestId: string };
}
type TencentAnswer = TencentError | { Response: Record<string, unknown> & { RequestId: string } };

interface Stored extends FakeMessage {
  params: string[];
  fee: number;
}

const err = (Code: string, Message: string): TencentError => ({ Response: { Error: { Code, Message }, RequestId: randomUUID() } });
const ok = (body: Record<string, unknown>): TencentAnswer => ({ Response: { ...body, RequestId: randomUUID() } });

const sha256hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** YYYY-MM-DD of a Unix time in UTC (TC3's credential date). */
/** TC3's credential date: the UTC date of the request's timestamp (the protocol's, not a school's day) */
const utcDate = (ts: number) => localDay(ts * 1000, 'UTC');
/** "2015-10-17 08:03:04" in China time, as Tencent's callbacks write it */
const chinaTime = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

/** The request as the signature check needs it (the express request's parts). */
export interface SignedRequest {
  method: string;
  /** the path as sent, without the query: what the SDK signed as the canonical URI */
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Checks a request's TC3-HMAC-SHA256 signature as Tencent Cloud API 3.0 does: the canonical request (method, URI,
 * query, the signed headers lower-cased and trimmed, their names, the SHA-256 of the exact body), the credential
 * scope's date (the UTC day of X-TC-Timestamp) and the key chain "TC3"+secret → date → service → "tc3_request".
 * Answers the Error Tencent answers, or null when it verifies.
 *
 * Two deviations, both because the fake lives on a path of a local port rather than at sms.tencentcloudapi.com:
 * - host: the SDK signs the URL's hostname without its port (sign.js: `host:${urlObj.hostname}`) while it sends
 *   "127.0.0.1:PORT" in Host; the real service never sees a port, so the fake signs the Host header without it;
 * - service and URI: the SDK takes the service from the endpoint's first dot-segment ("127" for
 *   "127.0.0.1:PORT/api/dev/sms/tencent", "sms" for the real host) and signs the URL's whole path
 *   ("/api/dev/sms/tencent/", "/" for the real one); the fake expects exactly what the SDK derives from the address
 *   it was reached at, as the real service expects "sms" and "/".
 */
export function verifyTc3(
  req: SignedRequest,
  basePath: string,
  secrets: Record<string, string>,
  nowS = Math.floor(Date.now() / 1000),
): TencentError | null {
  const header = (name: string): string | undefined => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(',') : v;
  };
  const auth = /^TC3-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(header('authorization') ?? '');
  if (!auth) return err('AuthFailure.InvalidAuthorization', 'Authorization header is not TC3-HMAC-SHA256 (Credential, SignedHeaders, Signature).');
  const scope = /^([^/]+)\/(\d{4}-\d{2}-\d{2})\/(.+)\/tc3_request$/.exec(auth[1]);
  if (!scope) return err('AuthFailure.InvalidAuthorization', 'Credential is not <SecretId>/<Date>/<Service>/tc3_request.');
  const [, secretId, date, service] = scope;
  const timestamp = Number(header('x-tc-timestamp'));
  if (!Number.isSafeInteger(timestamp)) return err('MissingParameter', 'The request is missing a required parameter `Timestamp`.');
  if (Math.abs(nowS - timestamp) > CLOCK_SKEW_S)
    return err('AuthFailure.SignatureExpire', 'Signature expired. Timestamp and server time cannot differ by more than five minutes.');
  const secretKey = Object.hasOwn(secrets, secretId) ? secrets[secretId] : undefined;
  if (secretKey === undefined) return err('AuthFailure.SecretIdNotFound', 'The SecretId is not found, please ensure that your SecretId is correct.');
  const failure = err('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
  const hostHeader = header('host') ?? '';
  if (date !== utcDate(timestamp) || service !== `${hostHeader}${basePath}`.split('.')[0]) return failure;
  const signed = auth[2].split(';');
  if (!signed.includes('content-type') || !signed.includes('host')) return failure;
  let canonicalHeaders = '';
  for (const name of signed) {
    let value = (name === 'host' ? hostHeader.replace(/:\d+$/, '') : header(name)) ?? '';
    value = value.trim().toLowerCase();
    canonicalHeaders += `${name}:${value}\n`;
  }
  const canonicalRequest = [req.method.toUpperCase(), req.path, req.query, canonicalHeaders, auth[2], sha256hex(req.body)].join('\n');
  const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/${service}/tc3_request`, sha256hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(`TC3${secretKey}`, date), service), 'tc3_request');
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(auth[3]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? null : failure;
}

/** The body of one Tencent delivery-status callback for these messages (exported for the gateway's tests). */
export function tencentReportBody(messages: Array<Pick<Stored, 'messageId' | 'mobile'>>, delivered: boolean, at = new Date()): TencentReport[] {
  return messages.map((m) => ({
    user_receive_time: chinaTime(at),
    nationcode: '86',
    mobile: m.mobile,
    report_status: delivered ? 'SUCCESS' : 'FAIL',
    errmsg: delivered ? 'DELIVRD' : 'MK:0001',
    description: delivered ? '用户短信送达成功' : '用户短信接收失败：运营商返回 MK:0001',
    sid: m.messageId,
  }));
}

/**
 * The local Tencent Cloud SMS (outside production): SendSms, PullSmsSendStatus and PullSmsSendStatusByPhoneNumber of
 * API 3.0 2021-01-11 with the
 * sandbox account (SANDBOX_TENCENT) only, answered in Tencent's shapes; delivery reports pushed to this API's report
 * callback as Tencent's console would have it configured, or kept for pulling. Failures are forced by a test through
 * control(): transient (request-level InternalError.SendAndRecvFail), account (request-level
 * FailedOperation.InsufficientBalanceInSmsPackage), final (per number LimitExceeded.PhoneNumberDailyLimit). A forced
 * request-level failure uses one of `times` per request, a final one per number refused.
 */
@Injectable()
export class TencentFake implements OnModuleDestroy {
  static readonly basePath = '/api/dev/sms/tencent';

  private readonly store = new Map<string, Stored>();
  private readonly toPush: Stored[] = [];
  private readonly toPull = new Map<string, Stored>();
  private fail: NonNullable<FakeControl['fail']> | null = null;
  private reports: NonNullable<FakeControl['reports']> = 'push';
  private timer: NodeJS.Timeout | null = null;
  private serial = 0;
  private readonly pushes = new InFlight((e) => this.log.warn({ err: e }, 'tencent fake: report push failed'));

  constructor(
    private readonly host: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pushes.settled();
  }

  /** One API 3.0 request: the signature, then the action. */
  handle(req: SignedRequest): TencentAnswer {
    const refused = verifyTc3(req, TencentFake.basePath, { [SANDBOX_TENCENT.secretId]: SANDBOX_TENCENT.secretKey });
    if (refused) return refused;
    const h = (n: string) => String(req.headers[n] ?? '');
    if (h('x-tc-version') !== VERSION) return err('NoSuchVersion', `The fake speaks version ${VERSION} only.`);
    if (!h('x-tc-region')) return err('MissingParameter', 'The request is missing a required parameter `Region`.');
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(req.body.toString('utf8') || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return err('FailedOperation.JsonParseFail', 'Failed to parse the request body.');
    }
    switch (h('x-tc-action')) {
      case 'SendSms':
        return this.sendSms(body);
      case 'PullSmsSendStatus':
        return this.pull(body);
      case 'PullSmsSendStatusByPhoneNumber':
        return this.pullByNumber(body);
      default:
        return err('InvalidAction', `The action \`${h('x-tc-action')}\` is not supported by the fake.`);
    }
  }

  private sendSms(b: Record<string, unknown>): TencentAnswer {
    if (typeof b.SmsSdkAppId !== 'string' || !b.SmsSdkAppId)
      return err('MissingParameter', 'The request is missing a required parameter `SmsSdkAppId`.');
    if (b.SmsSdkAppId !== SANDBOX_TENCENT.sdkAppId)
      return err('UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'SmsSdkAppId verify failed: it does not belong to the SecretId’s account.');
    const phones = b.PhoneNumberSet;
    if (!Array.isArray(phones) || !phones.length) return err('MissingParameter.EmptyPhoneNumberSet', 'The PhoneNumberSet is empty.');
    if (phones.length > MAX_NUMBERS) return err('LimitExceeded.PhoneNumberCountLimit', 'More than 200 numbers in one request.');
    const params = b.TemplateParamSet ?? [];
    if (!Array.isArray(params) || params.some((p) => typeof p !== 'string'))
      return err('InvalidParameter', 'TemplateParamSet must be an array of strings.');
    // mainland numbers in E.164 (+86 and 11 digits) only: the real API also takes 0086…, 86… and bare numbers, the gateway sends +86
    const mobiles = phones.map((p) => (typeof p === 'string' && /^\+861\d{10}$/.test(p) ? p.slice(3) : null));

    // forced request-level failures (the provider's trouble, the account's balance)
    const f = this.fail;
    if (f && f.times > 0 && f.mode !== 'final' && (!f.mobile || mobiles.includes(f.mobile))) {
      f.times--;
      return f.mode === 'transient'
        ? err('InternalError.SendAndRecvFail', 'Interface timeout or SMS sending/receiving timeout.')
        : err('FailedOperation.InsufficientBalanceInSmsPackage', 'Insufficient balance in the SMS package.');
    }

    // what Tencent refuses number by number: the sign, the template, its variables (same answer for every number)
    const kind = typeof b.TemplateId === 'string' ? sandboxKindOf(SANDBOX_TENCENT.templates, b.TemplateId) : undefined;
    let refusal: [string, string] | null = null;
    if (b.SignName !== SANDBOX_TENCENT.signName)
      refusal = ['FailedOperation.SignatureIncorrectOrUnapproved', 'signature format is incorrect or signature is not approved'];
    else if (!kind)
      refusal = [
        'FailedOperation.TemplateIncorrectOrUnapproved',
        'template is not approved or request content does not match the approved template content',
      ];
    else if (params.length !== SMS_KINDS[kind].vars.length)
      refusal = ['FailedOperation.TemplateParamSetNotMatchApprovedTemplate', 'request content does not match the approved template content'];
    else if (params.some((p: string) => Array.from(p).length > SMS_PARAM_MAX.tencent))
      refusal = [
        'InvalidParameterValue.TemplateParameterLengthLimit',
        `the length of a template parameter exceeds ${SMS_PARAM_MAX.tencent} characters`,
      ];

    const session = typeof b.SessionContext === 'string' ? b.SessionContext : '';
    const fee = smsUnits(`【${SANDBOX_TENCENT.signName}】${params.join('')}${'字'.repeat(TEMPLATE_WORDS)}`);
    const status = (phone: unknown, Code: string, Message: string, SerialNo = '', Fee = 0) => ({
      SerialNo,
      PhoneNumber: typeof phone === 'string' ? phone : '',
      Fee,
      SessionContext: session,
      Code,
      Message,
      IsoCode: 'CN',
    });
    const SendStatusSet = phones.map((phone, i) => {
      const mobile = mobiles[i];
      if (!mobile) return status(phone, 'InvalidParameterValue.IncorrectPhoneNumber', 'incorrect phone number');
      if (refusal) return status(phone, ...refusal);
      if (f && f.times > 0 && f.mode === 'final' && (!f.mobile || f.mobile === mobile)) {
        f.times--;
        return status(
          phone,
          'LimitExceeded.PhoneNumberDailyLimit',
          'the number of SMS messages sent from a single mobile number every day exceeds the upper limit',
        );
      }
      const m = this.keep(mobile, b.TemplateId as string, params as string[], fee, session);
      return status(phone, 'Ok', 'send success', m.messageId, fee);
    });
    return ok({ SendStatusSet });
  }

  private keep(mobile: string, templateCode: string, params: string[], fee: number, ref: string): Stored {
    const messageId = `2640:${Date.now()}${String(++this.serial).padStart(8, '0')}${randomBytes(2).readUInt16BE()}`;
    const m: Stored = {
      messageId,
      mobile,
      signName: SANDBOX_TENCENT.signName,
      templateCode,
      params,
      ref,
      at: new Date().toISOString(),
      report: null,
      fee,
    };
    this.store.set(messageId, m);
    if (this.store.size > STORE_MAX) {
      const oldest = this.store.keys().next().value as string;
      this.store.delete(oldest);
      this.toPull.delete(oldest);
    }
    if (this.reports === 'poll') this.toPull.set(messageId, m);
    else this.queuePush(m);
    return m;
  }

  /** PullSmsSendStatus: the oldest receipts not pulled yet, each answered once. */
  private pull(b: Record<string, unknown>): TencentAnswer {
    if (b.SmsSdkAppId !== SANDBOX_TENCENT.sdkAppId)
      return err('UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'SmsSdkAppId verify failed: it does not belong to the SecretId’s account.');
    const limit = b.Limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100)
      return err('InvalidParameterValue.LimitVerifyFail', 'Limit must be an integer from 1 to 100.');
    const set: Array<Record<string, unknown>> = [];
    for (const m of this.toPull.values()) {
      if (set.length >= limit) break;
      this.toPull.delete(m.messageId);
      m.report = 'delivered';
      set.push({
        UserReceiveTime: Math.floor(Date.now() / 1000),
        CountryCode: '86',
        SubscriberNumber: m.mobile,
        PhoneNumber: `+86${m.mobile}`,
        SerialNo: m.messageId,
        ReportStatus: 'SUCCESS',
        Description: '用户短信送达成功',
        SessionContext: '',
      });
    }
    return ok({ PullSmsSendStatusSet: set });
  }

  /**
   * PullSmsSendStatusByPhoneNumber: the texts sent to one number from BeginTime to EndTime (at most 7 days back), not
   * consumed; the receipt's fields (status, receive time, description) only once the carrier reported, as Tencent
   * answers them ("仅当运营商有返回短信接收状态时回包中才会有状态数据").
   */
  private pullByNumber(b: Record<string, unknown>): TencentAnswer {
    if (b.SmsSdkAppId !== SANDBOX_TENCENT.sdkAppId)
      return err('UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'SmsSdkAppId verify failed: it does not belong to the SecretId’s account.');
    const int = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
    if (!int(b.BeginTime)) return err('MissingParameter', 'The request is missing a required parameter `BeginTime`.');
    if (b.Offset !== 0) return err('InvalidParameterValue', 'Offset must be 0.');
    const limit = b.Limit;
    if (!int(limit) || (limit as number) < 1 || (limit as number) > 100)
      return err('InvalidParameterValue.LimitVerifyFail', 'Limit must be an integer from 1 to 100.');
    const now = Math.floor(Date.now() / 1000);
    const begin = b.BeginTime as number;
    const end = b.EndTime === undefined ? now : b.EndTime;
    if (!int(end) || (end as number) < begin) return err('InvalidParameterValue', 'EndTime must be an integer not before BeginTime.');
    if (begin < now - 7 * 86_400) return err('InvalidParameterValue.BeginTimeVerifyFail', 'BeginTime must be within the last 7 days.');
    const phone = typeof b.PhoneNumber === 'string' && /^\+861\d{10}$/.test(b.PhoneNumber) ? b.PhoneNumber.slice(3) : null;
    if (!phone) return err('InvalidParameterValue.IncorrectPhoneNumber', 'incorrect phone number');
    const set: Array<Record<string, unknown>> = [];
    for (const m of this.store.values()) {
      const at = Math.floor(Date.parse(m.at) / 1000);
      if (m.mobile !== phone || at < begin || at > (end as number)) continue;
      if (set.length >= (limit as number)) break;
      const reported = m.report !== null;
      set.push({
        UserReceiveTime: reported ? at : null,
        CountryCode: '86',
        SubscriberNumber: m.mobile,
        PhoneNumber: `+86${m.mobile}`,
        SerialNo: m.messageId,
        ReportStatus: reported ? (m.report === 'delivered' ? 'SUCCESS' : 'FAIL') : null,
        Description: reported ? (m.report === 'delivered' ? '用户短信送达成功' : '用户短信接收失败：运营商返回 MK:0001') : null,
        SessionContext: m.ref,
      });
    }
    return ok({ PullSmsSendStatusSet: set });
  }

  private queuePush(m: Stored): void {
    this.toPush.push(m);
    if (this.toPush.length > STORE_MAX) this.toPush.shift();
    if (this.timer) return;
    this.timer = setInterval(() => this.pushSome(), PUSH_EVERY_MS);
    this.timer.unref();
  }

  private pushSome(): void {
    const batch = this.toPush.splice(0, PUSH_BATCH);
    if (!this.toPush.length && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    if (!batch.length) return;
    const delivered = this.reports !== 'undelivered';
    this.pushes.track(this.post(batch, delivered));
  }

  private async post(batch: Stored[], delivered: boolean): Promise<void> {
    const url = reportUrl(this.host, this.config, 'tencent');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tencentReportBody(batch, delivered)),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await res.json().catch(() => null)) as { result?: unknown } | null;
    if (res.status !== 200 || answer?.result !== 0) throw new Error(`report callback answered HTTP ${res.status} ${JSON.stringify(answer)}`);
    for (const m of batch) m.report = delivered ? 'delivered' : 'failed';
  }

  control(c: FakeControl): { reports: string; fail: FakeControl['fail'] | null } {
    if (c.reset) {
      this.store.clear();
      this.toPull.clear();
      this.toPush.length = 0;
      this.fail = null;
      this.reports = 'push';
    }
    if (c.fail) this.fail = { ...c.fail };
    if (c.reports) this.reports = c.reports;
    return { reports: this.reports, fail: this.fail };
  }

  /** Messages accepted, newest first (to one mobile when given). */
  messages(mobile?: string, limit = 50): FakeMessage[] {
    const all = [...this.store.values()];
    const out: FakeMessage[] = [];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      const m = all[i];
      if (mobile && m.mobile !== mobile) continue;
      out.push({
        messageId: m.messageId,
        mobile: m.mobile,
        signName: m.signName,
        templateCode: m.templateCode,
        params: m.params,
        ref: m.ref,
        at: m.at,
        report: m.report,
      });
    }
    return out;
  }
}

/**
 * The fake's HTTP side. Tencent's API answers HTTP 200 with its own JSON, never this API's envelope: every route
 * writes its answer itself (@Res), like the WeChat Pay sandbox; no token (`pub`), outside production only.
 */
@Controller('api/dev/sms/tencent')
export class TencentFakeController {
  constructor(private readonly fake: TencentFake) {}

  /** API 3.0: the SDK posts to the endpoint's path + "/" with X-TC-Action naming the action. */
  @Post()
  @Access('pub')
  api(@Req() req: Request, @Res() res: Response): void {
    const [path, query = ''] = req.originalUrl.split(/\?(.*)/s);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res
      .status(200)
      .type('application/json')
      .send(JSON.stringify(this.fake.handle({ method: req.method, path, query, headers: req.headers, body })));
  }

  /** Tells the fake how to answer next (FakeControl); enveloped, as the other dev routes. */
  @Post('control')
  @Access('pub')
  control(@Req() req: AppRequest) {
    return this.fake.control(parseInput(FakeControlInput, jsonBody(req.body), langOf(req)));
  }

  /** What it accepted, newest first; enveloped. */
  @Get('messages')
  @Access('pub')
  messages(@Input(FakeMessagesQuery) q: z.infer<typeof FakeMessagesQuery>) {
    return this.fake.messages(q.mobile, q.limit);
  }
}
