import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { localDateTime, SMS_KINDS, SMS_PARAM_MAX, smsUnits, type SmsKind } from '@wantuo/shared';
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { InFlight } from '../../core/events/in-flight';
import { LOGGER } from '../../core/logging/logger';
import { chinaDay, type AliyunSmsReport } from '../../modules/sms/gateways/aliyun.gateway';
import { SANDBOX_ALIYUN, sandboxKindOf } from '../../modules/sms/gateways/sandbox-account';
import { reportUrl, type FakeControl, type FakeMessage } from './fake-common';

/** What the fake answers: an HTTP status and Aliyun's JSON body. */
export interface AliyunAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A request as the fake sees it: the path below the mount (/api/dev/sms/aliyun), the raw query, headers, bytes. */
export interface AliyunRequest {
  method: string;
  path: string;
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

interface StoredMessage {
  bizId: string;
  mobile: string;
  signName: string;
  templateCode: string;
  params: Record<string, string>;
  content: string;
  outId: string;
  at: Date;
  /** QuerySendDetails' SendStatus: 1 waiting, 2 failed, 3 delivered */
  status: 1 | 2 | 3;
  errCode: string;
  receivedAt: Date | null;
  /** what the report will say, decided at the send (the reports mode then) */
  outcome: 'push' | 'poll' | 'undelivered';
}

const ALGORITHM = 'ACS3-HMAC-SHA256';
const VERSION = '2017-05-25';
const HOST_ID = 'dysmsapi.aliyuncs.com';
/** x-acs-date's tolerance and how long a nonce is remembered */
const SKEW_MS = 15 * 60_000;
const MAX_MESSAGES = 100_000;
const MAX_PER_MOBILE = 50;
const MAX_NONCES = 200_000;
/** receipts come this long after the send, one report POST for all of them */
const REPORT_DELAY_MS = 100;

/** "yyyy-MM-dd HH:mm:ss" in China, as Aliyun writes times */
export const aliyunTime = (d: Date) => localDateTime(d, 'Asia/Shanghai', true);

/** Aliyun's percent-encoding (RFC 3986: only A-Z a-z 0-9 - _ . ~ stay as they are). */
export const acsEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The SmsReport body Aliyun POSTs to the report callback for these messages (a JSON array). */
export function aliyunReportBody(messages: ReadonlyArray<StoredMessage>): AliyunSmsReport[] {
  return messages.map((m) => ({
    phone_number: m.mobile,
    send_time: aliyunTime(m.at),
    report_time: aliyunTime(m.receivedAt ?? new Date()),
    success: m.status === 3,
    err_code: m.errCode,
    err_msg: m.status === 3 ? '用户接收成功' : '运营商拦截或用户状态异常',
    sms_size: String(smsUnits(m.content)),
    biz_id: m.bizId,
    out_id: m.outId,
  }));
}

const header = (h: AliyunRequest['headers'], name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v.join(',') : v;
};

/** the forced failures (FakeControl.fail) as Aliyun answers them */
const FORCED: Record<NonNullable<FakeControl['fail']>['mode'], { Code: string; Message: string }> = {
  transient: { Code: 'isp.SYSTEM_ERROR', Message: '系统错误' },
  account: { Code: 'isv.AMOUNT_NOT_ENOUGH', Message: '账户余额不足' },
  final: { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发天级流控Permits:10' },
};

/**
 * The local Aliyun SMS (dysmsapi 2017-05-25) for development and tests: the SDK's requests are checked as Aliyun checks
 * them (ACS3-HMAC-SHA256 over the canonical request, x-acs-date within 15 minutes, nonces used once, the AccessKey),
 * SendSms / SendBatchSms check the sign, the approved template and its variables (SANDBOX_ALIYUN) and answer with
 * Aliyun's codes; accepted messages get their receipt shortly after: POSTed as SmsReport to the report callback
 * (`push`, `undelivered`) or only kept for QuerySendDetails (`poll`). Everything is in memory and bounded.
 */
@Injectable()
export class AliyunFake implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly stored = new Map<string, StoredMessage>();
  private readonly byMobile = new Map<string, StoredMessage[]>();
  /** nonce → when it was first seen (insertion order is time order) */
  private readonly nonces = new Map<string, number>();
  private fail: FakeControl['fail'] | null = null;
  private reports: NonNullable<FakeControl['reports']> = 'push';
  private pending: StoredMessage[] = [];
  private timer: NodeJS.Timeout | null = null;
  private destroyed = false;
  private seq = 0;
  private readonly pushes = new InFlight((err) => this.log.debug({ err }, 'aliyun fake: the SmsReport push failed'));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly host: HttpAdapterHost,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onModuleDestroy(): void {
    this.destroyed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.pushes.settled();
  }

  /** Resolves once the receipts due are decided and their pushes answered (tests). */
  async settled(): Promise<void> {
    while (this.timer || this.pending.length || this.pushes.size) {
      await new Promise((r) => setTimeout(r, REPORT_DELAY_MS / 2));
      await this.pushes.settled();
    }
  }

  control(c: FakeControl): { reports: string; fail: FakeControl['fail'] | null } {
    if (c.reset) {
      this.stored.clear();
      this.byMobile.clear();
      this.pending = [];
      this.fail = null;
      this.reports = 'push';
    }
    if (c.fail) this.fail = c.fail.times > 0 ? { ...c.fail } : null;
    if (c.reports) this.reports = c.reports;
    return { reports: this.reports, fail: this.fail };
  }

  /** The messages accepted for a mobile (or any), newest first, at most `limit`. */
  messages(mobile?: string, limit = 50): FakeMessage[] {
    const all = mobile ? (this.byMobile.get(mobile) ?? []) : [...this.stored.values()].slice(-limit);
    return all
      .slice(-limit)
      .reverse()
      .map((m) => ({
        messageId: m.bizId,
        mobile: m.mobile,
        signName: m.signName,
        templateCode: m.templateCode,
        params: m.params,
        ref: m.outId,
        at: m.at.toISOString(),
        report: m.status === 3 ? 'delivered' : m.status === 2 ? 'failed' : null,
      }));
  }

  /** One request of the SDK: authenticated, then dispatched on x-acs-action. */
  handle(req: AliyunRequest): AliyunAnswer {
    const refused = this.authenticate(req);
    if (refused) return refused;
    const action = header(req.headers, 'x-acs-action');
    if (header(req.headers, 'x-acs-version') !== VERSION) return this.error(400, 'InvalidVersion', `Specified parameter Version is not valid.`);
    const params = new URLSearchParams(req.rawQuery);
    const type = header(req.headers, 'content-type') ?? '';
    if (req.body.length && type.startsWith('application/x-www-form-urlencoded'))
      for (const [k, v] of new URLSearchParams(req.body.toString('utf8'))) params.append(k, v);
    const p = (k: string) => params.get(k) ?? undefined;
    switch (action) {
      case 'SendSms':
        return this.sendSms(p);
      case 'SendBatchSms':
        return this.sendBatchSms(p);
      case 'QuerySendDetails':
        return this.querySendDetails(p);
      default:
        return this.error(404, 'InvalidAction.NotFound', `Specified api is not found, please check your url and method.`);
    }
  }

  // ---------------------------------------------------------------- signature

  /** Aliyun's ACS3-HMAC-SHA256 check; null when the request is signed by the sandbox account. */
  private authenticate(req: AliyunRequest): AliyunAnswer | null {
    const auth = header(req.headers, 'authorization') ?? '';
    const m = /^(\S+) Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]+)$/.exec(auth);
    if (!m || m[1] !== ALGORITHM) return this.error(400, 'IncompleteSignature', 'The request signature does not conform to Aliyun standards.');
    const [, , accessKeyId, signedList, signature] = m;
    if (accessKeyId !== SANDBOX_ALIYUN.accessKeyId) return this.error(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    const date = header(req.headers, 'x-acs-date') ?? '';
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(date) ? Date.parse(date) : NaN;
    if (Number.isNaN(at)) return this.error(400, 'MissingTimestamp', 'x-acs-date is mandatory for this action.');
    if (Math.abs(Date.now() - at) > SKEW_MS) return this.error(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    const nonce = header(req.headers, 'x-acs-signature-nonce');
    if (!nonce) return this.error(400, 'MissingSignatureNonce', 'x-acs-signature-nonce is mandatory for this action.');

    const signed = signedList.split(';');
    const present = Object.keys(req.headers).filter((h) => h.startsWith('x-acs-'));
    const unsigned = ['host', ...present].find((h) => !signed.includes(h));
    const payloadHash = sha256(req.body);
    const stringToSign = `${ALGORITHM}\n${sha256(canonicalRequest(req, signed, payloadHash))}`;
    const expected = createHmac('sha256', SANDBOX_ALIYUN.accessKeySecret).update(stringToSign).digest();
    const given = Buffer.from(signature, 'hex');
    const ok =
      !unsigned &&
      header(req.headers, 'x-acs-content-sha256') === payloadHash &&
      given.length === expected.length &&
      timingSafeEqual(given, expected);
    if (!ok)
      return this.error(400, 'SignatureDoesNotMatch', `Specified signature does not match our calculation. server string to sign is:${stringToSign}`);
    // a nonce counts once it came with a good signature (a forged request cannot burn one)
    this.forgetNonces();
    if (this.nonces.has(nonce)) return this.error(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    this.nonces.set(nonce, Date.now());
    return null;
  }

  private forgetNonces(): void {
    const horizon = Date.now() - SKEW_MS;
    for (const [n, at] of this.nonces) {
      if (at >= horizon && this.nonces.size < MAX_NONCES) break;
      this.nonces.delete(n);
    }
  }

  // ---------------------------------------------------------------- actions

  private sendSms(p: (k: string) => string | undefined): AliyunAnswer {
    const phones = p('PhoneNumbers');
    const sign = p('SignName');
    const template = p('TemplateCode');
    if (!phones) return this.error(400, 'MissingPhoneNumbers', 'PhoneNumbers is mandatory for this action.');
    if (!sign) return this.error(400, 'MissingSignName', 'SignName is mandatory for this action.');
    if (!template) return this.error(400, 'MissingTemplateCode', 'TemplateCode is mandatory for this action.');
    const mobiles = phones.split(',').map((s) => s.trim());
    if (mobiles.length > 1000) return this.business('isv.MOBILE_COUNT_OVER_LIMIT', '手机号码数量超过限制');
    const raw = p('TemplateParam');
    let params: unknown = {};
    if (raw !== undefined) {
      try {
        params = JSON.parse(raw);
      } catch {
        return this.business('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
      }
    }
    return this.accept(
      mobiles.map((mobile) => ({ mobile, sign, params })),
      template,
      p('OutId') ?? '',
    );
  }

  private sendBatchSms(p: (k: string) => string | undefined): AliyunAnswer {
    const template = p('TemplateCode');
    if (!p('PhoneNumberJson')) return this.error(400, 'MissingPhoneNumberJson', 'PhoneNumberJson is mandatory for this action.');
    if (!p('SignNameJson')) return this.error(400, 'MissingSignNameJson', 'SignNameJson is mandatory for this action.');
    if (!template) return this.error(400, 'MissingTemplateCode', 'TemplateCode is mandatory for this action.');
    let mobiles: unknown, signs: unknown, params: unknown;
    try {
      mobiles = JSON.parse(p('PhoneNumberJson')!);
      signs = JSON.parse(p('SignNameJson')!);
      params = p('TemplateParamJson') === undefined ? undefined : JSON.parse(p('TemplateParamJson')!);
    } catch {
      return this.business('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    if (!Array.isArray(mobiles) || !Array.isArray(signs) || (params !== undefined && !Array.isArray(params)))
      return this.business('isv.INVALID_PARAMETERS', '参数格式不正确');
    if (mobiles.length > 100) return this.business('isv.MOBILE_COUNT_OVER_LIMIT', '手机号码数量超过限制');
    if (signs.length !== mobiles.length || (params && params.length !== mobiles.length))
      return this.business('isv.INVALID_PARAMETERS', '参数格式不正确');
    return this.accept(
      mobiles.map((mobile, i) => ({ mobile: String(mobile), sign: String(signs[i]), params: params ? params[i] : {} })),
      template,
      p('OutId') ?? '',
    );
  }

  /** The checks of a send, in Aliyun's order, then the forced failure, then the messages are kept under one BizId. */
  private accept(items: Array<{ mobile: string; sign: string; params: unknown }>, template: string, outId: string): AliyunAnswer {
    const kind = sandboxKindOf(SANDBOX_ALIYUN.templates, template);
    for (const it of items) {
      if (!/^(\+?86)?1\d{10}$/.test(it.mobile)) return this.business('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');
      if (it.sign !== SANDBOX_ALIYUN.signName) return this.business('isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
    }
    if (!kind) return this.business('isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    const vars: readonly string[] = SMS_KINDS[kind].vars;
    const checked: Array<Record<string, string>> = [];
    for (const it of items) {
      const params = it.params;
      if (!params || typeof params !== 'object' || Array.isArray(params) || Object.values(params).some((v) => typeof v !== 'string'))
        return this.business('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
      const given = params as Record<string, string>;
      const keys = Object.keys(given);
      if (vars.some((v) => !keys.includes(v)) || keys.some((k) => !vars.includes(k)))
        return this.business('isv.TEMPLATE_MISSING_PARAMETERS', '模板变量缺少对应参数值');
      if (keys.some((k) => Array.from(given[k]).length > SMS_PARAM_MAX.aliyun)) return this.business('isv.PARAM_LENGTH_LIMIT', '参数超出长度限制');
      checked.push(given);
    }
    const forced = this.forcedFailure(items.map((i) => i.mobile.slice(-11)));
    if (forced) return this.business(forced.Code, forced.Message);

    const bizId = `${Date.now()}${String(this.seq++ % 100_000).padStart(5, '0')}^0`;
    const at = new Date();
    items.forEach((it, i) => this.keep(kind, { bizId, mobile: it.mobile.slice(-11), template, outId, at, params: checked[i] }));
    return { status: 200, body: { RequestId: requestId(), Code: 'OK', Message: 'OK', BizId: bizId } };
  }

  private forcedFailure(mobiles: string[]): { Code: string; Message: string } | null {
    const f = this.fail;
    if (!f || (f.mobile && !mobiles.includes(f.mobile))) return null;
    f.times -= 1;
    if (f.times <= 0) this.fail = null;
    return FORCED[f.mode];
  }

  private keep(kind: SmsKind, m: { bizId: string; mobile: string; template: string; outId: string; at: Date; params: Record<string, string> }): void {
    const stored: StoredMessage = {
      bizId: m.bizId,
      mobile: m.mobile,
      signName: SANDBOX_ALIYUN.signName,
      templateCode: m.template,
      params: m.params,
      content: fakeContent(kind, m.params),
      outId: m.outId,
      at: m.at,
      status: 1,
      errCode: '',
      receivedAt: null,
      outcome: this.reports,
    };
    this.stored.set(`${m.bizId}|${m.mobile}`, stored);
    const list = this.byMobile.get(m.mobile) ?? [];
    list.push(stored);
    if (list.length > MAX_PER_MOBILE) list.shift();
    this.byMobile.set(m.mobile, list);
    // the oldest go first (a Map iterates in insertion order)
    while (this.stored.size > MAX_MESSAGES) {
      const [key, old] = this.stored.entries().next().value as [string, StoredMessage];
      this.stored.delete(key);
      const ofMobile = this.byMobile.get(old.mobile);
      if (ofMobile?.[0] === old) ofMobile.shift();
      if (ofMobile && !ofMobile.length) this.byMobile.delete(old.mobile);
    }
    this.pending.push(stored);
    this.timer ??= setTimeout(() => this.settle(), REPORT_DELAY_MS).unref();
  }

  /** The receipts of the messages sent since the last tick: decided, then pushed in one SmsReport POST. */
  private settle(): void {
    this.timer = null;
    const batch = this.pending.splice(0);
    const now = new Date();
    for (const m of batch) {
      m.receivedAt = now;
      m.status = m.outcome === 'undelivered' ? 2 : 3;
      m.errCode = m.outcome === 'undelivered' ? 'MK:0001' : 'DELIVERED';
    }
    const pushed = batch.filter((m) => m.outcome !== 'poll');
    if (pushed.length && !this.destroyed) this.pushes.track(this.push(aliyunReportBody(pushed)));
  }

  /** One SmsReport POST, as Aliyun's callback sends it (JSON array). Not retried: QuerySendDetails still answers. */
  private async push(body: AliyunSmsReport[]): Promise<void> {
    const res = await fetch(reportUrl(this.host, this.config, 'aliyun'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
    await res.arrayBuffer();
    if (!res.ok) this.log.debug({ status: res.status, reports: body.length }, 'aliyun fake: the report callback refused the SmsReport');
  }

  private querySendDetails(p: (k: string) => string | undefined): AliyunAnswer {
    const mobile = p('PhoneNumber');
    const day = p('SendDate');
    const size = Number(p('PageSize'));
    const page = Number(p('CurrentPage'));
    if (!mobile) return this.error(400, 'MissingPhoneNumber', 'PhoneNumber is mandatory for this action.');
    if (!day) return this.error(400, 'MissingSendDate', 'SendDate is mandatory for this action.');
    if (!/^\d{8}$/.test(day) || !Number.isInteger(size) || size < 1 || size > 50 || !Number.isInteger(page) || page < 1)
      return this.business('isv.INVALID_PARAMETERS', '参数格式不正确');
    const bizId = p('BizId');
    const found = (this.byMobile.get(mobile.slice(-11)) ?? []).filter((m) => chinaDay(m.at) === day && (!bizId || m.bizId === bizId)).reverse();
    const shown = found.slice((page - 1) * size, page * size).map((m) => ({
      SendStatus: m.status,
      ErrCode: m.errCode,
      TemplateCode: m.templateCode,
      Content: m.content,
      SendDate: aliyunTime(m.at),
      ReceiveDate: m.receivedAt ? aliyunTime(m.receivedAt) : '',
      PhoneNum: m.mobile,
      OutId: m.outId,
    }));
    return {
      status: 200,
      body: { RequestId: requestId(), Code: 'OK', Message: 'OK', TotalCount: found.length, SmsSendDetailDTOs: { SmsSendDetailDTO: shown } },
    };
  }

  // ---------------------------------------------------------------- answers

  /** a refusal of the gateway (credentials, signature, parameters): HTTP 4xx with Aliyun's error body */
  private error(status: number, code: string, message: string): AliyunAnswer {
    const id = requestId();
    return {
      status,
      body: {
        RequestId: id,
        HostId: HOST_ID,
        Code: code,
        Message: message,
        Recommend: `https://api.aliyun.com/troubleshoot?q=${encodeURIComponent(code)}&product=Dysmsapi&requestId=${id}`,
      },
    };
  }

  /** a refusal of the SMS service itself: HTTP 200 with its Code and Message */
  private business(code: string, message: string): AliyunAnswer {
    return { status: 200, body: { RequestId: requestId(), Code: code, Message: message } };
  }
}

const requestId = () => randomUUID().toUpperCase();

/**
 * The text "sent" (QuerySendDetails' Content, the report's sms_size): the fake has no template texts, so the sign, the
 * kind and its variables stand for them (the API's rendering, sms/render.ts, is the real wording).
 */
const fakeContent = (kind: SmsKind, params: Record<string, string>) =>
  `【${SANDBOX_ALIYUN.signName}】${kind}：${SMS_KINDS[kind].vars.map((v: string) => params[v]).join('，')}`;

/** Aliyun's canonical request (ACS3): method, canonical URI, sorted encoded query, signed headers, payload hash. */
export function canonicalRequest(req: AliyunRequest, signed: string[], payloadHash: string): string {
  const uri = (req.path || '/').split('/').map(acsEncode).join('/') || '/';
  const query = [...new URLSearchParams(req.rawQuery)]
    .map(([k, v]) => [acsEncode(k), acsEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signed.map((h) => `${h}:${(header(req.headers, h) ?? '').trim()}\n`).join('');
  return `${req.method}\n${uri}\n${query}\n${headers}\n${signed.join(';')}\n${payloadHash}`;
}
