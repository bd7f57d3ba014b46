import { Inject, Injectable } from '@nestjs/common';
import { cutSmsParams, maskSmsParams, SMS_CLAIM_SECONDS, SMS_KINDS, smsNextStep, smsRefNames, smsUnits, type SmsProviderName } from '@wantuo/shared';
import type { Logger } from 'pino';
import { LOGGER } from '../../core/logging/logger';
import { GatewayError, type GatewayFailure, type ProviderRecord, type SendOutcome } from './gateways/gateway';
import { SmsGateways } from './gateways/gateways';
import { renderSms } from './render';
import { SmsRepository, type SmsResult } from './sms.repository';

/** A message claimed for a send (`unknown`: claimed again from `sending`, its request may have reached the provider). */
type Claimed = Awaited<ReturnType<SmsRepository['claim']>>[number];

/** What becomes of one message after a send: one row of the set-based update. */
type Result = SmsResult;

/** Mobiles of a wholly refused batch sent alone at once. */
const ALONE_AT_ONCE = 8;

/** A request's error as a refusal: the provider's (GatewayError), else a transient one (network, timeout, 5xx). */
const failureOf = (err: unknown): GatewayFailure =>
  err instanceof GatewayError
    ? err.failure
    : { class: 'transient', code: (err as { code?: string }).code ?? 'network', message: String((err as Error).message ?? err).slice(0, 300) };

/** Mobiles whose records are asked at once; how much earlier than the row a provider's clock may say it was sent. */
const ASK_PARALLEL = 8;
const CLOCK_SKEW_MS = 60_000;

/** Thrown after recording a batch when some of its messages wait for another try: the `sms.send` job retries with backoff. */
export class RetryLater extends Error {}

/**
 * Hands messages to their provider and records what became of each (design: issue 23). A message is claimed by one
 * worker (queued → sending) before its request, so two jobs for it never both send it; the provider's answer per
 * message moves it to sent (with the provider's id and units), to delivered (the outbox), back to queued for another
 * try (a transient refusal with tries left: the job retries), to the fallback provider (an account refusal, or
 * transient ones exhausted: sent by it at once, never handed over twice) or to failed (final: the mobile's limit, a
 * bad number, an unapproved template; kept with the provider's code for the consoles).
 */
@Injectable()
export class SmsDelivery {
  constructor(
    private readonly repo: SmsRepository,
    private readonly gateways: SmsGateways,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** The `sms.send` job: sends the messages of `ids` still to be sent; throws RetryLater when some wait for another try. */
  async send(ids: number[]): Promise<void> {
    // a row claimed again from `sending` is `unknown`: the worker that claimed it may have died with its request at the
    // provider (the locked rows are checked again after a concurrent claim: one job takes each)
    const claimed = await this.repo.claim(ids, SMS_CLAIM_SECONDS);
    if (!claimed.length) return;
    const results: Result[] = [];
    const known = await this.askFirst(claimed.filter((m) => m.unknown));
    results.push(...known.values());
    let pending = claimed.filter((m) => !known.has(m.id));
    // at most twice: the provider, then the fallback for what it handed over
    for (let round = 0; round < 2 && pending.length; round++) {
      const byProvider = new Map<SmsProviderName, Claimed[]>();
      for (const m of pending) byProvider.set(m.provider, [...(byProvider.get(m.provider) ?? []), m]);
      pending = [];
      for (const [provider, msgs] of byProvider) {
        for (const r of await this.attempt(provider, msgs)) {
          if (r.state === 'sending') {
            // handed over: sent by the fallback in the next round, as its first try
            const m = msgs.find((x) => x.id === r.id)!;
            pending.push({ ...m, provider: r.provider, handed_over: true, tries: 1, error_code: r.error_code, error_message: r.error_message });
          }
          results.push(r);
        }
      }
    }
    await this.record(results, claimed);
    const retry = results.filter((r) => r.state === 'queued').length;
    if (retry) throw new RetryLater(`${retry} of ${claimed.length} texts wait for another try`);
  }

  /**
   * Before sending again texts whose fate is unknown, asks their provider what it accepted for their mobiles since
   * they were written (Aliyun QuerySendDetails, Tencent PullSmsSendStatusByPhoneNumber): a text it has is the result
   * (sent with its id, or delivered / failed by its receipt), never sent again. A record matches a text by our ids in
   * its reference (OutId / SessionContext) when it carries them, by the template and the variables in its content
   * when it answers them, sent after the text was written, not a provider id already recorded; each record once. A
   * provider that cannot say keeps its texts `sending`, never sent blind: `sms.poll` hands them to a job again later,
   * which asks again.
   */
  private async askFirst(unknown: Claimed[]): Promise<Map<number, Result>> {
    const out = new Map<number, Result>();
    const byProvider = new Map<SmsProviderName, Claimed[]>();
    for (const m of unknown) byProvider.set(m.provider, [...(byProvider.get(m.provider) ?? []), m]);
    for (const [provider, msgs] of byProvider) {
      const gateway = this.gateways.get(provider);
      if (!gateway) continue;
      const byMobile = new Map<string, Claimed[]>();
      for (const m of msgs) byMobile.set(m.mobile, [...(byMobile.get(m.mobile) ?? []), m]);
      const mobiles = [...byMobile.keys()];
      const records = new Map<string, ProviderRecord[]>();
      let failed: unknown = null;
      for (let i = 0; i < mobiles.length; i += ASK_PARALLEL) {
        await Promise.all(
          mobiles.slice(i, i + ASK_PARALLEL).map(async (mobile) => {
            const since = new Date(Math.min(...byMobile.get(mobile)!.map((m) => new Date(m.created_at).getTime())) - CLOCK_SKEW_MS);
            try {
              records.set(mobile, await gateway.records(mobile, since));
            } catch (err) {
              failed ??= err;
            }
          }),
        );
      }
      if (failed) {
        const f = failureOf(failed);
        this.log.warn({ provider, texts: msgs.length, code: f.code }, 'sms: the provider could not say what it accepted; texts kept to ask again');
      }
      const ids = [...records.values()].flat().flatMap((r) => (r.messageId ? [r.messageId] : []));
      const recorded = ids.length ? await this.repo.recordedIds(provider, ids) : [];
      const taken = new Set(recorded);
      for (const [mobile, texts] of byMobile) {
        const got = records.get(mobile);
        if (!got) {
          // asked and not answered: kept claimed, not sent
          for (const m of texts) out.set(m.id, { ...this.unchanged(m), state: 'sending', tries: m.tries - 1 });
          continue;
        }
        const left = got.filter((r) => !r.messageId || !taken.has(r.messageId));
        for (const m of texts) {
          const template = this.gateways.templateOf(provider, m.kind) ?? null;
          const params = Number.isFinite(gateway.paramMax) ? cutSmsParams(m.kind, m.params, gateway.paramMax) : m.params;
          const i = left.findIndex((r) => {
            const named = smsRefNames(r.ref, m.id);
            if (named === false) return false;
            if (r.at && r.at.getTime() < new Date(m.created_at).getTime() - CLOCK_SKEW_MS) return false;
            if (r.templateCode !== null && r.templateCode !== template) return false;
            if (r.content !== null && Object.values(params).some((v) => v && !r.content!.includes(v))) return false;
            // a reference naming us, or anything else the provider says (its id not recorded here is one of ours)
            return named === true || r.content !== null || r.templateCode !== null || r.at !== null || r.messageId !== null;
          });
          if (i < 0) continue;
          const [r] = left.splice(i, 1);
          const base = {
            ...this.unchanged(m),
            tries: m.tries - 1,
            template_code: template,
            provider_message_id: r.messageId,
            units: smsUnits(m.content),
          };
          if (!r.report) out.set(m.id, { ...base, state: 'sent' });
          else if (r.report.delivered) out.set(m.id, { ...base, state: 'delivered', done_at: r.report.at?.toISOString() ?? null });
          else
            out.set(m.id, {
              ...base,
              state: 'failed',
              error_code: (r.report.code ?? 'UNDELIVERED').slice(0, 80),
              error_message: r.report.message?.slice(0, 300) ?? null,
              done_at: r.report.at?.toISOString() ?? null,
            });
        }
      }
      const had = msgs.filter((m) => out.has(m.id) && out.get(m.id)!.state !== 'sending').length;
      if (had) this.log.info({ provider, texts: msgs.length, had }, 'sms: texts of unknown fate the provider already had, not sent again');
    }
    return out;
  }

  /** A message's result before anything happens to it (the base of askFirst's). */
  private unchanged(m: Claimed): Omit<Result, 'state'> {
    return {
      id: m.id,
      provider: m.provider,
      handed_over: m.handed_over,
      tries: m.tries,
      template_code: null,
      provider_message_id: null,
      error_code: m.error_code,
      error_message: m.error_message,
      units: null,
    };
  }

  /** One provider request for messages of one kind and variables; the outcome of each. */
  private async attempt(provider: SmsProviderName, msgs: Claimed[]): Promise<Result[]> {
    const first = msgs[0];
    const gateway = this.gateways.get(provider);
    const template = gateway ? this.gateways.templateOf(provider, first.kind) : undefined;
    let outcomes: SendOutcome[];
    if (!gateway || !template) {
      const failure: GatewayFailure = gateway
        ? { class: 'account', code: 'template_missing', message: `${provider} 未配置 ${first.kind} 的短信模板` }
        : { class: 'account', code: 'provider_missing', message: `${provider} 短信通道未配置` };
      outcomes = msgs.map((m) => ({ id: m.id, ok: false, failure }));
    } else {
      const request = {
        kind: first.kind,
        templateCode: template,
        params: Number.isFinite(gateway.paramMax) ? cutSmsParams(first.kind, first.params, gateway.paramMax) : first.params,
        content: first.content,
      };
      const send = async (batch: Claimed[]): Promise<SendOutcome[]> => {
        try {
          return await gateway.send({ ...request, messages: batch.map((m) => ({ id: m.id, mobile: m.mobile })) });
        } catch (err) {
          const failure = failureOf(err);
          this.log.warn({ provider, kind: first.kind, texts: batch.length, code: failure.code, class: failure.class }, 'sms request refused');
          return batch.map((m) => ({ id: m.id, ok: false, failure }));
        }
      };
      outcomes = await send(msgs);
      // a batch refused as a whole for a business reason (Aliyun's SendBatchSms answers one code for all its mobiles,
      // e.g. one mobile's daily limit): each mobile alone, so one mobile's refusal is not every parent's
      const refused = outcomes.every((o) => !o.ok && o.failure.class === 'final');
      if (msgs.length > 1 && refused) {
        outcomes = [];
        for (let i = 0; i < msgs.length; i += ALONE_AT_ONCE)
          outcomes.push(...(await Promise.all(msgs.slice(i, i + ALONE_AT_ONCE).map((m) => send([m])))).flat());
      }
    }
    const byId = new Map(outcomes.map((o) => [o.id, o]));
    return msgs.map((m): Result => {
      const o: SendOutcome = byId.get(m.id) ?? {
        id: m.id,
        ok: false,
        failure: { class: 'transient', code: 'no_answer', message: 'the provider did not answer for this mobile' },
      };
      const base = {
        id: m.id,
        provider,
        handed_over: m.handed_over,
        tries: m.tries,
        template_code: template ?? null,
        provider_message_id: null,
        units: null,
      };
      // sent by the fallback: the first provider's refusal stays, to show why
      const kept = m.handed_over ? { error_code: m.error_code, error_message: m.error_message } : { error_code: null, error_message: null };
      if (o.ok) return { ...base, ...kept, state: o.delivered ? 'delivered' : 'sent', provider_message_id: o.messageId, units: o.units };
      const next = smsNextStep(o.failure.class, m.tries, { provider, fallback: this.gateways.fallback, handedOver: m.handed_over });
      const error = { error_code: o.failure.code.slice(0, 80), error_message: o.failure.message.slice(0, 300) };
      if (next.do === 'retry') return { ...base, ...error, state: 'queued' };
      if (next.do === 'fallback')
        return { ...base, ...error, state: 'sending', provider: next.provider, handed_over: true, tries: 0, template_code: null };
      return { ...base, ...error, state: 'failed' };
    });
  }

  /**
   * Every result of a job in one statement (a handed-over message: its last result, the fallback's). A code text the
   * provider has (or that failed) keeps its code masked: the code is at the phone, sms_codes keeps its hash.
   */
  private async record(results: Result[], claimed: Claimed[]): Promise<void> {
    const last = new Map(results.map((r) => [r.id, r]));
    for (const m of claimed) {
      const r = last.get(m.id);
      if (!r || !(SMS_KINDS[m.kind] as { code?: boolean }).code || r.state === 'queued' || r.state === 'sending') continue;
      const params = maskSmsParams(m.kind, m.params);
      last.set(m.id, { ...r, params, content: renderSms(m.kind, params) });
    }
    await this.repo.record([...last.values()]);
  }
}
