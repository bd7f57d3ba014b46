import { z } from 'zod';
import { isCalendarDay } from '../school-time';
import { SMS_KIND_NAMES, SMS_PROVIDERS, SMS_STATES } from '../sms';
import { pageQuery } from './common';

/** The SMS consoles: the operator's gateways and every school's counts; a school's own counts and texts. */

const day = z.string({ error: 'sms.v.day_invalid' }).refine(isCalendarDay, { error: 'sms.v.day_invalid' });
/** a day range of the counts: at most this many days */
export const SMS_USAGE_MAX_DAYS = 92;

/** the filters both lists share: a day range and (the operator's) school */
const scope = {
  from: day.optional(),
  to: day.optional(),
  school_id: z.coerce
    .number({ error: 'sms.v.school_invalid' })
    .int({ error: 'sms.v.school_invalid' })
    .min(1, { error: 'sms.v.school_invalid' })
    .optional(),
};
const ordered = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;

/** smsUsage: counts per school and day (the operator: every school or one; an admin: their own), newest day first. */
export const SmsUsageQuery = z
  .strictObject({
    ...pageQuery,
    ...scope,
  })
  .refine(ordered, { error: 'sms.v.range_invalid', path: ['to'] });
export type SmsUsageQuery = z.infer<typeof SmsUsageQuery>;

/** smsMessages: the texts themselves, newest first, by state, kind, mobile (digits it contains) and day range. */
export const SmsMessagesQuery = z
  .strictObject({
    ...pageQuery,
    ...scope,
    state: z.enum(SMS_STATES, { error: 'sms.v.state_invalid' }).optional(),
    kind: z.enum(SMS_KIND_NAMES as [string, ...string[]], { error: 'sms.v.kind_invalid' }).optional(),
    provider: z.enum(SMS_PROVIDERS, { error: 'sms.v.provider_invalid' }).optional(),
    mobile: z
      .string({ error: 'sms.v.mobile_invalid' })
      .trim()
      .regex(/^\d{3,11}$/, { error: 'sms.v.mobile_invalid' })
      .optional(),
  })
  .refine(ordered, { error: 'sms.v.range_invalid', path: ['to'] });
export type SmsMessagesQuery = z.infer<typeof SmsMessagesQuery>;
