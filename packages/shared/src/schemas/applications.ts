import { z } from 'zod';
import { mobile, pageQuery, plainText, text } from './common';

/**
 * "Create new account" on the sign-in screen: an institution not yet on the platform applies; the platform
 * operator lists the applications and approves or rejects them.
 */
export const ApplicationStatus = { Pending: 0, Approved: 1, Rejected: 2 } as const;
export type ApplicationStatus = (typeof ApplicationStatus)[keyof typeof ApplicationStatus];

/** At most this many applications per mobile in 24 hours and per IP address in an hour. */
export const APPLICATION_LIMITS = { perMobilePerDay: 3, perIpPerHour: 20 } as const;

/** Names (institution, contact, city): letters of any script, digits, spaces and the punctuation names use. */
const NAME_RE = /^[\p{L}\p{M}\p{N} ()（）·・.\-—_&、,，'’]+$/u;

/** ids and versions are PostgreSQL int columns: a larger number is refused here, not by the database (HTTP 500) */
const version = z.number().int().min(1).max(2_147_483_647);

export const ApplyAccountInput = z.strictObject({
  institution_name: text(100).min(2, { error: 'v.institution_name_invalid' }).regex(NAME_RE, { error: 'v.institution_name_invalid' }),
  contact_name: text(64).min(1, { error: 'v.contact_name_invalid' }).regex(NAME_RE, { error: 'v.contact_name_invalid' }),
  mobile,
  /** an empty string counts as not given */
  city: text(64)
    .refine((v) => v === '' || NAME_RE.test(v), { error: 'v.city_invalid' })
    .optional(),
  students_estimate: z
    .number({ error: 'v.students_estimate_invalid' })
    .int({ error: 'v.students_estimate_invalid' })
    .min(1, { error: 'v.students_estimate_invalid' })
    .max(100_000, { error: 'v.students_estimate_invalid' })
    .optional(),
  /** an empty string counts as not given */
  message: plainText(1000).optional(),
});
export type ApplyAccountInput = z.infer<typeof ApplyAccountInput>;

const statusFilter = z.coerce
  .number({ error: 'v.application_status_invalid' })
  .pipe(z.literal([ApplicationStatus.Pending, ApplicationStatus.Approved, ApplicationStatus.Rejected], { error: 'v.application_status_invalid' }));

export const AccountApplicationsQuery = z.strictObject({
  ...pageQuery,
  /** 0 pending, 1 approved, 2 rejected; absent (or empty) lists all */
  status: z.preprocess((v) => (v === '' ? undefined : v), statusFilter.optional()),
});
export type AccountApplicationsQuery = z.infer<typeof AccountApplicationsQuery>;

export const HandleAccountApplicationInput = z.strictObject({
  id: z.number().int().min(1).max(2_147_483_647),
  /** the version the operator read: a concurrent change answers error.conflict */
  version,
  status: z.literal([ApplicationStatus.Approved, ApplicationStatus.Rejected], { error: 'v.handle_status_invalid' }),
  note: plainText(500).optional(),
});
export type HandleAccountApplicationInput = z.infer<typeof HandleAccountApplicationInput>;
