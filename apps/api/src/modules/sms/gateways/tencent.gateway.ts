import { classifyTencent, nationalMobile, orderedSmsParams, SMS_PARAM_MAX, smsRef, smsUnits, TENCENT_OK } from '@wantuo/shared';
import { Agent } from 'node:http';
import { sms } from 'tencentcloud-sdk-nodejs-sms';
import type { GatewayEndpoint, TencentSmsConfig } from '../../../core/config/sms-config';
import {
  GatewayError,
  SmsGateway,
  type DeliveryReport,
  type GatewaySend,
  type PendingReceipt,
  type ProviderRecord,
  type SendOutcome,
} from './gateway';

type SmsClient = InstanceType<typeof sms.v20210111.Client>;

/** PullSmsSendStatus answers at most 100 receipts a call; a poll takes at most this many calls (1,000 receipts). */
const PULL_LIMIT = 100;
const PULL_CALLS = 10;
/** SessionContext is echoed back and must stay under 512 bytes */
const SESSION_MAX = 500;

/** One entry of Tencent's delivery-status callback (短信下发状态通知): a JSON array of these per request. */
export interface TencentReport {
  /** when the phone got it, China time: "2015-10-17 08:03:04" */
  user_receive_time: string;
  nationcode: string;
  mobile: string;
  report_status: 'SUCCESS' | 'FAIL';
  /** the carrier's code: DELIVRD on success */
  errmsg: string;
  description: string;
  /** SendSms's SerialNo */
  sid: string;
}

/** "2015-10-17 08:03:04" in China time (as Tencent writes report times), or null. */
function chinaTime(s: unknown): Date | null {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s)) return null;
  const d = new Date(`${s.replace(' ', 'T')}+08:00`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A request-level refusal the SDK threw (TencentCloudSDKHttpException with the answer's Error.Code) as a GatewayError. */
function refusal(e: unknown): unknown {
  // only the SDK's exception (it always carries requestId) with the API's code: not a system error's code (ECONNRESET…)
  const { code, requestId } = (e ?? {}) as { code?: unknown; requestId?: unknown };
  if (typeof code !== 'string' || !code || typeof requestId !== 'string') return e; // network, timeout, HTTP ≠ 200: transient
  return new GatewayError({ class: classifyTencent(code), code, message: (e as Error).message ?? '' });
}

/**
 * Tencent Cloud SMS (API 3.0, version 2021-01-11) through its Node SDK: SendSms for up to 200 mobiles of one template
 * and variables, PullSmsSendStatus for receipts (when the account has pulling enabled), and the delivery-status
 * callback's body. The SDK signs with TC3-HMAC-SHA256 and throws a TencentCloudSDKHttpException carrying `code` when
 * the API answered an Error (request-level refusal); without `code` it is the network or an HTTP status (transient).
 */
export class TencentGateway extends SmsGateway {
  readonly name = 'tencent' as const;
  readonly batchSize = 200;
  readonly paramMax = SMS_PARAM_MAX.tencent;
  readonly reportAnswer = { result: 0, errmsg: 'OK' };

  private client: { at: string; sdk: SmsClient } | null = null;

  constructor(
    private readonly account: Omit<TencentSmsConfig, 'endpoint'>,
    private readonly endpoint: () => GatewayEndpoint,
  ) {
    super();
  }

  /** Built on first use: the fake's endpoint (this process's port) is known only once the HTTP server listens. */
  private sdk(): SmsClient {
    const at = this.endpoint();
    const key = `${at.protocol}://${at.host}`;
    if (this.client?.at !== key) {
      // the SDK sends through $http_proxy when set and no agent is given: never for this process's own fake
      const loopback = /^(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(at.host);
      const sdk = new sms.v20210111.Client({
        credential: { secretId: this.account.secretId, secretKey: this.account.secretKey },
        region: this.account.region,
        profile: { httpProfile: { endpoint: at.host, protocol: `${at.protocol}://`, reqTimeout: 15, ...(loopback ? { agent: new Agent() } : {}) } },
      });
      this.client = { at: key, sdk };
    }
    return this.client.sdk;
  }

  async send(req: GatewaySend): Promise<SendOutcome[]> {
    let answer: Awaited<ReturnType<SmsClient['SendSms']>>;
    try {
      answer = await this.sdk().SendSms({
        PhoneNumberSet: req.messages.map((m) => `+86${m.mobile}`),
        SmsSdkAppId: this.account.sdkAppId,
        SignName: this.account.signName,
        TemplateId: req.templateCode,
        TemplateParamSet: orderedSmsParams(req.kind, req.params),
        // our ids as ranges (smsRef), for Tencent's console and echoed by its queries (records()); a batch too long for
        // it names its first id and size
        SessionContext: smsRef(
          req.messages.map((m) => m.id),
          SESSION_MAX,
        ),
      });
    } catch (e) {
      throw refusal(e);
    }
    // statuses are matched by the number as sent and echoed (the API does not promise their order); the same mobile
    // twice: in turn
    const byPhone = new Map<string, NonNullable<typeof answer.SendStatusSet>>();
    for (const s of answer.SendStatusSet ?? []) {
      const phone = s.PhoneNumber ?? '';
      byPhone.set(phone, [...(byPhone.get(phone) ?? []), s]);
    }
    return req.messages.map((m): SendOutcome => {
      const s = (byPhone.get(`+86${m.mobile}`) ?? byPhone.get(m.mobile))?.shift();
      if (!s) return { id: m.id, ok: false, failure: { class: 'transient', code: 'NoSendStatus', message: '腾讯云未返回该号码的发送状态' } };
      if (s.Code === TENCENT_OK)
        return {
          id: m.id,
          ok: true,
          messageId: s.SerialNo ?? '',
          units: typeof s.Fee === 'number' && s.Fee > 0 ? s.Fee : smsUnits(req.content),
        };
      const code = s.Code ?? 'Unknown';
      return { id: m.id, ok: false, failure: { class: classifyTencent(code), code, message: s.Message ?? '' } };
    });
  }

  /**
   * The account's receipts not pulled yet (each is answered once, for every message of the app, not only `pending`):
   * all of them are returned, the caller matches them by messageId and mobile. Nothing pending: no call.
   */
  async poll(pending: PendingReceipt[]): Promise<DeliveryReport[]> {
    if (!pending.length) return [];
    const out: DeliveryReport[] = [];
    for (let call = 0; call < PULL_CALLS; call++) {
      let answer: Awaited<ReturnType<SmsClient['PullSmsSendStatus']>>;
      try {
        answer = await this.sdk().PullSmsSendStatus({ SmsSdkAppId: this.account.sdkAppId, Limit: PULL_LIMIT });
      } catch (e) {
        throw refusal(e);
      }
      const set = answer.PullSmsSendStatusSet ?? [];
      for (const r of set) {
        if (!r.SerialNo) continue;
        const delivered = r.ReportStatus === 'SUCCESS';
        out.push({
          messageId: r.SerialNo,
          mobile: nationalMobile(r.PhoneNumber || r.SubscriberNumber || ''),
          delivered,
          // the pull answers no carrier code, only its status and description
          code: delivered ? 'DELIVRD' : (r.ReportStatus ?? 'FAIL'),
          message: r.Description ?? null,
          at: r.UserReceiveTime ? new Date(r.UserReceiveTime * 1000) : null,
          units: null,
        });
      }
      if (set.length < PULL_LIMIT) break;
    }
    return out;
  }

  /**
   * What Tencent has for a mobile since a moment: PullSmsSendStatusByPhoneNumber (by number and time, at most 7 days
   * back; each text with its SerialNo and SessionContext, its status once the carrier reported).
   */
  async records(mobile: string, since: Date): Promise<ProviderRecord[]> {
    const now = Math.floor(Date.now() / 1000);
    let answer: Awaited<ReturnType<SmsClient['PullSmsSendStatusByPhoneNumber']>>;
    try {
      answer = await this.sdk().PullSmsSendStatusByPhoneNumber({
        SmsSdkAppId: this.account.sdkAppId,
        PhoneNumber: `+86${mobile}`,
        BeginTime: Math.max(Math.floor(since.getTime() / 1000), now - 7 * 86_400 + 60),
        EndTime: now + 60,
        Offset: 0,
        Limit: PULL_LIMIT,
      });
    } catch (e) {
      throw refusal(e);
    }
    return (answer.PullSmsSendStatusSet ?? [])
      .filter((r) => r.SerialNo)
      .map((r) => {
        const status = r.ReportStatus === 'SUCCESS' || r.ReportStatus === 'FAIL' ? r.ReportStatus : null;
        const at = r.UserReceiveTime ? new Date(r.UserReceiveTime * 1000) : null;
        return {
          mobile,
          messageId: r.SerialNo!,
          at,
          templateCode: null,
          content: null,
          ref: r.SessionContext ?? null,
          report: status
            ? { delivered: status === 'SUCCESS', code: status === 'SUCCESS' ? 'DELIVRD' : 'FAIL', message: r.Description ?? null, at }
            : null,
        };
      });
  }

  /** The callback's body (raw bytes, text or parsed JSON): an array of TencentReport; anything else is refused. */
  parseReport(body: unknown): DeliveryReport[] {
    let data = body;
    if (Buffer.isBuffer(data)) data = data.toString('utf8');
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        throw new Error('腾讯云回执不是 JSON');
      }
    }
    if (!Array.isArray(data)) throw new Error('腾讯云回执应为数组');
    return data.map((r: Partial<TencentReport> | null, i): DeliveryReport => {
      if (!r || typeof r !== 'object') throw new Error(`腾讯云回执第 ${i + 1} 条不是对象`);
      if (typeof r.sid !== 'string' || !r.sid) throw new Error(`腾讯云回执第 ${i + 1} 条缺少 sid`);
      if (r.report_status !== 'SUCCESS' && r.report_status !== 'FAIL') throw new Error(`腾讯云回执第 ${i + 1} 条 report_status 无效`);
      const mobile = nationalMobile(`${r.nationcode ?? ''}${r.mobile ?? ''}`);
      if (!/^1\d{10}$/.test(mobile)) throw new Error(`腾讯云回执第 ${i + 1} 条手机号无效`);
      return {
        messageId: r.sid,
        mobile,
        delivered: r.report_status === 'SUCCESS',
        code: typeof r.errmsg === 'string' && r.errmsg ? r.errmsg : null,
        message: typeof r.description === 'string' && r.description ? r.description : null,
        at: chinaTime(r.user_receive_time),
        units: null,
      };
    });
  }
}
