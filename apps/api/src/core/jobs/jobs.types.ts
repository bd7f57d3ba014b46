import type { GuardianMessageKind, SmsKind, SmsProviderName } from '@wantuo/shared';
import type { DeliveryReport } from '../../modules/sms/gateways/gateway';
/**
 * Every background job: its queue and payload. Adding a job means adding it here, enqueuing it with
 * JobsService.enqueue and registering one handler for it in a processor (jobs/*.processor.ts).
 */
export interface JobPayloads {
  /** hand queued messages (sms_messages ids: one kind, the same variables, one provider batch) to their provider */
  'sms.send': { ids: number[] };
  /**
   * one text to many mobiles (a notice to a whole school): the worker writes one message per mobile (dedupe key
   * `<key>-<mobile>`, so a retried fan-out queues none twice) and their `sms.send` batches; a request adds a few of these
   */
  'sms.fanout': { key: string; school_id: number | null; mobiles: string[]; template: SmsTemplate; params: Record<string, string> };
  /** every minute: delivery receipts of sent messages asked from the providers, stuck messages queued again */
  'sms.poll': { at?: string };
  /** delivery reports that came before their message's send was recorded: applied again a little later */
  'sms.reports': { provider: SmsProviderName; reports: Array<Omit<DeliveryReport, 'at'> & { at: string | null }> };
  /** hand queued WeChat template messages (wechat_messages ids, due) to the official account; refusals fall back to SMS */
  'wechat.send': { ids: number[] };
  /** every minute: due WeChat messages whose job was lost (or never dispatched) get one again */
  'wechat.poll': { at?: string };
  /** guardians' texts the quiet hours held: written and sent at 07:00 school time (GuardianMessages.send, keyed) */
  'messages.send': {
    items: Array<{ school_id: number; user_id: number; kind: GuardianMessageKind; params: Record<string, string>; link: string; key?: string }>;
  };
  /** every minute: raise and clear the daily-flow alerts of every school */
  'alerts.scan': { at?: string };
  /** a provider payment still pending: ask the provider, close it past its time, come back later if still open */
  'payments.check': { out_trade_no: string };
  /** a refund the provider did not answer: ask again with the same out_refund_no */
  'payments.refund': { out_refund_no: string };
  /** every 5 minutes: paid surplus payments (their object paid otherwise, cancelled, changed) with no refund are refunded */
  'payments.surplus': Record<string, never>;
  /** every 2 minutes: provider refunds unfinished 5 minutes on (a lost notify) are asked about, with backoff per refund */
  'payments.refundQuery': Record<string, never>;
  /**
   * hourly (idempotent): from 10:00 China time, the previous day's WeChat trade bill of every merchant (the platform's
   * own sub-merchant and each school's) compared with the payments and refunds recorded; each merchant once a day
   */
  'payments.tradebill': { at?: string };
  /** hourly (idempotent): text the admins of schools whose service expires in 30, 7 or 1 days (school-local dates) */
  'school.remind': { at?: string };
  /** hourly (idempotent): each school from 08:00 local time: contract renewals, expiring reminders, expiries */
  'contracts.daily': { at?: string };
  /**
   * hourly (idempotent): archived students past PRIVACY_RETENTION_DAYS erased (each once: students.anonymised_at), the
   * access log past PRIVACY_ACCESS_LOG_DAYS pruned (issue 37)
   */
  'privacy.retention': { at?: string };
  /** every 3 minutes: receipts of paid contracts and dinners and of their refunds that the after-commit listeners missed */
  'receipts.sweep': Record<string, never>;
  /** the family conversations' notices to guardians who did not read a school message (issue 40) */
  'conversations.notify': { at?: string };
  /** 30 minutes after a mall order is placed: cancel it and release its stock if still unpaid (idempotent) */
  'store.release': { order_id: number };
}

/** a text's kind: its template at each provider (packages/shared/src/sms.ts) */
export type SmsTemplate = SmsKind;

export type JobName = keyof JobPayloads;
export const QUEUE_NAMES = ['sms', 'contracts', 'alerts', 'payments', 'store', 'privacy', 'receipts'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobSpec {
  queue: QueueName;
  attempts: number;
  /** first retry delay; doubles each time */
  backoffMs: number;
}

export const JOB_SPECS: { [K in JobName]: JobSpec } = {
  'sms.send': { queue: 'sms', attempts: 5, backoffMs: 2_000 },
  'sms.fanout': { queue: 'sms', attempts: 5, backoffMs: 2_000 },
  'sms.poll': { queue: 'sms', attempts: 1, backoffMs: 60_000 },
  'sms.reports': { queue: 'sms', attempts: 7, backoffMs: 1_000 },
  'wechat.send': { queue: 'sms', attempts: 5, backoffMs: 2_000 },
  'wechat.poll': { queue: 'sms', attempts: 1, backoffMs: 60_000 },
  'messages.send': { queue: 'sms', attempts: 5, backoffMs: 2_000 },
  'alerts.scan': { queue: 'alerts', attempts: 1, backoffMs: 1_000 },
  'payments.check': { queue: 'payments', attempts: 5, backoffMs: 10_000 },
  'payments.refund': { queue: 'payments', attempts: 8, backoffMs: 60_000 },
  // scheduled sweeps: a failed run is made up by the next one
  'payments.surplus': { queue: 'payments', attempts: 1, backoffMs: 60_000 },
  'payments.refundQuery': { queue: 'payments', attempts: 1, backoffMs: 60_000 },
  'payments.tradebill': { queue: 'payments', attempts: 1, backoffMs: 60_000 },
  'school.remind': { queue: 'payments', attempts: 3, backoffMs: 60_000 },
  'contracts.daily': { queue: 'contracts', attempts: 3, backoffMs: 60_000 },
  'store.release': { queue: 'store', attempts: 5, backoffMs: 10_000 },
  'privacy.retention': { queue: 'privacy', attempts: 1, backoffMs: 60_000 },
  'receipts.sweep': { queue: 'receipts', attempts: 1, backoffMs: 60_000 },
  'conversations.notify': { queue: 'sms', attempts: 1, backoffMs: 30_000 },
};

/** Jobs that run on a schedule: every `everyMs`, once across all workers. */
export const SCHEDULES: { name: JobName; everyMs: number }[] = [
  { name: 'alerts.scan', everyMs: 60_000 },
  // a daily reminder, run every hour: a run that fails or a worker that is down is made up by the next one
  { name: 'school.remind', everyMs: 3_600_000 },
  // every school from 08:00 its time; each effect once per contract, so the hourly runs after that do nothing again
  { name: 'contracts.daily', everyMs: 3_600_000 },
  // the durable halves of the money rules: each payment or refund once (request keys, states), so a run again does nothing
  { name: 'payments.surplus', everyMs: 300_000 },
  { name: 'payments.refundQuery', everyMs: 120_000 },
  // a daily reconciliation, run every hour: bills are ready from 10:00 China time; a merchant reconciled is not asked
  // again, one failed or whose bill WeChat was still making is, so a run that fails is made up by the next one
  { name: 'payments.tradebill', everyMs: 3_600_000 },
  // receipts of texts the providers did not report by callback, and texts whose job was lost
  { name: 'sms.poll', everyMs: 60_000 },
  // WeChat template messages whose job was lost
  { name: 'wechat.poll', everyMs: 60_000 },
  // the daily retention, run every hour: each student once, so a run after another finds nothing new
  { name: 'privacy.retention', everyMs: 3_600_000 },
  // receipts the listeners missed (a crash between a commit and its listener): each source once, so a run again does nothing
  { name: 'receipts.sweep', everyMs: 180_000 },
  // a guardian who has not read a school message for a minute is told (once per conversation per quiet period)
  { name: 'conversations.notify', everyMs: 30_000 },
];

export type JobHandler<K extends JobName> = (data: JobPayloads[K]) => Promise<void>;
