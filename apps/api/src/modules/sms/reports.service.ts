import { Inject, Injectable } from '@nestjs/common';
import type { SmsProviderName } from '@wantuo/shared';
import type { Logger } from 'pino';
import { JobsService } from '../../core/jobs/jobs.service';
import { LOGGER } from '../../core/logging/logger';
import type { DeliveryReport } from './gateways/gateway';
import { SmsGateways } from './gateways/gateways';
import { SmsRepository } from './sms.repository';
import { SmsTexts } from './texts.service';

/** How long after sending a message's receipt is still asked for (the providers keep them a few days). */
const RECEIPT_DAYS = 3;
/** Sent messages whose receipts one poll asks for, per provider. */
const POLL_BATCH = 2_000;
/** A queued or claimed message untouched this long lost its job (a worker died): queued again. */
const STUCK_MINUTES = 10;

/**
 * Delivery receipts: applied from the providers' report callbacks (POST /api/sms-report/<provider>) and from polling
 * (`sms.poll`, every minute: QuerySendDetails / PullSmsSendStatus for what no callback reported). A report moves a
 * sent message to delivered or failed (with the carrier's code) once; a report that comes before its send was
 * recorded is kept and applied again (`sms.reports`). The same poll hands to a job again messages whose job was lost
 * (a claimed one is asked of its provider first: SmsDelivery).
 */
@Injectable()
export class SmsReports {
  constructor(
    private readonly repo: SmsRepository,
    private readonly gateways: SmsGateways,
    private readonly texts: SmsTexts,
    private readonly jobs: JobsService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Applies reports; answers the ones that matched no sent message (yet). */
  async apply(provider: SmsProviderName, reports: readonly DeliveryReport[]): Promise<DeliveryReport[]> {
    if (!reports.length) return [];
    const matched = await this.repo.applyReports(
      provider,
      reports.map((r) => ({
        message_id: r.messageId,
        mobile: r.mobile,
        delivered: r.delivered,
        code: r.code,
        message: r.message,
        at: r.at,
        units: r.units,
      })),
    );
    const seen = new Set(matched.map((m) => `${m.message_id}\u0000${m.mobile}`));
    return reports.filter((r) => !seen.has(`${r.messageId}\u0000${r.mobile}`));
  }

  /** A report callback's reports (parsed by the provider's gateway), applied; reports before their send go to `sms.reports`. */
  async receive(provider: SmsProviderName, reports: DeliveryReport[]): Promise<{ reports: number; early: number }> {
    const early = await this.apply(provider, reports);
    if (early.length)
      await this.jobs.enqueue(
        'sms.reports',
        { provider, reports: early.map((r) => ({ ...r, at: r.at ? r.at.toISOString() : null })) },
        { delayMs: 1_000 },
      );
    return { reports: reports.length, early: early.length };
  }

  /** `sms.reports`: reports that matched nothing, applied again; still unmatched ones retry (the job's backoff), then are dropped. */
  async applyLate(provider: SmsProviderName, reports: Array<Omit<DeliveryReport, 'at'> & { at: string | null }>): Promise<void> {
    const left = await this.apply(
      provider,
      reports.map((r) => ({ ...r, at: r.at ? new Date(r.at) : null })),
    );
    if (left.length) throw new Error(`${left.length} ${provider} reports match no sent message yet`);
  }

  /** `sms.poll`: receipts asked from each gateway for messages sent over a minute ago; stuck messages queued again. */
  async poll(): Promise<{ reports: number; requeued: number }> {
    let reports = 0;
    for (const gateway of this.gateways.receiptGateways()) {
      const pending = await this.repo.awaitingReceipts(gateway.name, RECEIPT_DAYS, POLL_BATCH);
      if (!pending.length) continue;
      try {
        const got = await gateway.poll(pending.map((p) => ({ id: p.id, mobile: p.mobile, messageId: p.message_id, sentAt: p.sent_at })));
        await this.apply(gateway.name, got);
        reports += got.length;
      } catch (err) {
        this.log.warn({ err, provider: gateway.name }, 'sms receipts poll failed');
      }
    }
    // a queued message's job was lost; a claimed one's worker died, maybe with its request at the provider: it stays
    // `sending` (old enough to be claimed again), and the job that claims it asks the provider before sending it again
    const stuck = await this.repo.stuck(STUCK_MINUTES, RECEIPT_DAYS);
    await this.texts.dispatch(stuck);
    return { reports, requeued: stuck.length };
  }
}
