import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { cutSmsParams, SMS_CLAIM_SECONDS, smsNextStep, type SmsKind, type SmsProviderName } from '@wantuo/shared';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { LOGGER } from '../../core/logging/logger';
import { GatewayError, type GatewayFailure, type SendOutcome } from './gateways/gateway';
import { SmsGateways } from './gateways/gateways';

interface Claimed {
  id: number;
  mobile: string;
  kind: SmsKind;
  params: Record<string, string>;
  content: string;
  provider: SmsProviderName;
  handed_over: boolean;
  tries: number;
  /** the last refusal (kept on a handed-over message: why the first provider did not send it) */
  error_code: string | null;
  error_message: string | null;
}

/** What becomes of one message after a send: one row of the set-based update. */
interface Result {
  id: number;
  state: 'queued' | 'sending' | 'sent' | 'delivered' | 'failed';
  provider: SmsProviderName;
  handed_over: boolean;
  tries: number;
  template_code: string | null;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  units: number | null;
}

/** Mobiles of a wholly refused batch sent alone at once. */
const ALONE_AT_ONCE = 8;

/** A request's error as a refusal: the provider's (GatewayError), else a transient one (network, timeout, 5xx). */
const failureOf = (err: unknown): GatewayFailure =>
  err instanceof GatewayError
    ? err.failure
    : { class: 'transient', code: (err as { code?: string }).code ?? 'network', message: String((err as Error).message ?? err).slice(0, 300) };

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: SmsGateways,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** The `sms.send` job: sends the messages of `ids` still to be sent; throws RetryLater when some wait for another try. */
  async send(ids: number[]): Promise<void> {
    const claimed: Claimed[] = await this.db.query(
      `with claimed as (
         update sms_messages set state = 'sending', tries = tries + 1, updated_at = now()
          where id = any($1::bigint[])
            and (state = 'queued' or (state = 'sending' and updated_at < now() - make_interval(secs => $2)))
          returning id::int, mobile, kind, params, content, provider, handed_over, tries, error_code, error_message
       ) select * from claimed order by id`,
      [ids, SMS_CLAIM_SECONDS],
    );
    if (!claimed.length) return;
    const results: Result[] = [];
    let pending = claimed;
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
    await this.record(results);
    const retry = results.filter((r) => r.state === 'queued').length;
    if (retry) throw new RetryLater(`${retry} of ${claimed.length} texts wait for another try`);
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

  /** Every result of a job in one statement (a handed-over message: its last result, the fallback's). */
  private async record(results: Result[]): Promise<void> {
    const last = new Map(results.map((r) => [r.id, r]));
    await this.db.query(
      `update sms_messages m set
          state = r.state, provider = r.provider, handed_over = r.handed_over, tries = r.tries,
          template_code = coalesce(r.template_code, m.template_code),
          provider_message_id = coalesce(r.provider_message_id, m.provider_message_id),
          error_code = r.error_code, error_message = r.error_message, units = coalesce(r.units, m.units),
          sent_at = case when r.state in ('sent', 'delivered') then now() else m.sent_at end,
          done_at = case when r.state in ('delivered', 'failed') then now() else m.done_at end,
          updated_at = now()
         from jsonb_to_recordset($1::jsonb) as r(id bigint, state text, provider text, handed_over boolean, tries int, template_code text,
                                                 provider_message_id text, error_code text, error_message text, units int)
        where m.id = r.id`,
      [JSON.stringify([...last.values()])],
    );
  }
}
