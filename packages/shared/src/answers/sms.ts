import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { SMS_KIND_NAMES, SMS_PROVIDERS, SMS_STATES } from '../sms';

const provider = z.enum(SMS_PROVIDERS);
const state = z.enum(SMS_STATES);

/** Counts of texts: handed to a provider (sent, delivered and those awaiting their receipt), delivered, failed, waiting, units billed. */
export const SmsCounts = z.object({
  total: wire.count,
  sent: wire.count,
  delivered: wire.count,
  failed: wire.count,
  waiting: wire.count,
  units: wire.count,
});
export type SmsCounts = z.infer<typeof SmsCounts>;

/** One school's (or the platform's own, school_id null) texts of one day. */
export const SmsUsageRow = SmsCounts.extend({
  day: wire.day,
  school_id: wire.id.nullable(),
  school_name: z.string().nullable(),
});
export type SmsUsageRow = z.infer<typeof SmsUsageRow>;

/** The page of usage rows, with the totals of the whole filtered range. */
export const SmsUsagePage = pageOf(SmsUsageRow).extend({ totals: SmsCounts });
export type SmsUsagePage = z.infer<typeof SmsUsagePage>;

export const SmsMessageRow = z.object({
  id: wire.id,
  school_id: wire.id.nullable(),
  /** null: the platform's own text */
  school_name: z.string().nullable(),
  day: wire.day,
  mobile: z.string(),
  kind: z.enum(SMS_KIND_NAMES as [string, ...string[]]),
  content: z.string(),
  provider,
  handed_over: z.boolean(),
  template_code: z.string().nullable(),
  state,
  provider_message_id: z.string().nullable(),
  /** the provider's or carrier's code when it failed (or the last transient one while it waits) */
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  units: wire.count,
  tries: wire.count,
  created_at: wire.at,
  sent_at: wire.at.nullable(),
  done_at: wire.at.nullable(),
});
export type SmsMessageRow = z.infer<typeof SmsMessageRow>;
export const SmsMessagePage = pageOf(SmsMessageRow);
export type SmsMessagePage = z.infer<typeof SmsMessagePage>;

/** The operator's view of the gateways: which provider, the fallback, and each gateway's template per kind (null: none). */
export const SmsOverview = z.object({
  provider,
  fallback: provider.nullable(),
  gateways: z.array(
    z.object({
      provider,
      /** the local fake with its sandbox account (outside production) */
      sandbox: z.boolean(),
      templates: z.array(z.object({ kind: z.enum(SMS_KIND_NAMES as [string, ...string[]]), code: z.string().nullable() })),
      missing: wire.count,
    }),
  ),
  /** the report callback paths to give each provider's console (with ?token=SMS_REPORT_TOKEN) */
  report_paths: z.array(z.object({ provider, path: z.string() })),
  /** today's (China date) texts of the whole platform */
  today: SmsCounts,
});
export type SmsOverview = z.infer<typeof SmsOverview>;
