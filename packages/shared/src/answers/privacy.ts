import { z } from 'zod';
import { pageOf, wire } from '../api/define';
import { CHILD_DATA_KINDS, POLICY_KINDS } from '../privacy';
import { PRIVACY_REQUEST_KINDS, PRIVACY_REQUEST_STATUSES } from '../schemas/privacy';

/** Answers of module `privacy` (issue 37). */

/** A document as a reader gets it: the caller's language (English falls back to Chinese), the names filled in. */
export const PolicyDoc = z.object({
  kind: z.enum(POLICY_KINDS),
  version: wire.int,
  title: z.string(),
  body: z.string(),
  summary: z.string(),
  published_at: wire.at,
});
export type PolicyDoc = z.infer<typeof PolicyDoc>;

export const PrivacyPolicies = z.object({
  platform_name: z.string(),
  school_name: z.string().nullable(),
  privacy: PolicyDoc,
  children: PolicyDoc,
});
export type PrivacyPolicies = z.infer<typeof PrivacyPolicies>;

/** A version as the operator edits it: both languages, unfilled. */
export const PolicyVersion = z.object({
  id: wire.id,
  kind: z.enum(POLICY_KINDS),
  version: wire.int,
  title: z.string(),
  body_zh: z.string(),
  body_en: z.string(),
  summary: z.string(),
  published_at: wire.at,
  published_by_name: z.string().nullable(),
});
export type PolicyVersion = z.infer<typeof PolicyVersion>;
export const PolicyHistoryAnswer = pageOf(PolicyVersion);

/** One child's consents as the guardian sees them (photos / health: null when nobody has decided yet). */
export const ChildConsent = z.object({
  student_id: wire.id,
  name: z.string(),
  policies_accepted: z.boolean(),
  accepted_at: wire.at.nullable(),
  photos: z.boolean().nullable(),
  health: z.boolean().nullable(),
});
export type ChildConsent = z.infer<typeof ChildConsent>;

export const MyConsents = z.object({
  privacy_version: wire.int,
  children_version: wire.int,
  /** true while any child of theirs lacks the current versions: the API shows no child's data until they accept */
  needs_consent: z.boolean(),
  children: z.array(ChildConsent),
});
export type MyConsents = z.infer<typeof MyConsents>;

export const AccessLogRow = z.object({
  id: wire.id,
  created_at: wire.at,
  actor_name: z.string(),
  actor_role: wire.int,
  what: z.array(z.enum(CHILD_DATA_KINDS)),
  action: z.string(),
  /** where from (the admin's view; null for a guardian) */
  ip: z.string().nullable(),
  /** the children of the row the caller may see (a guardian: theirs only), at most 20 */
  students: z.array(z.object({ id: wire.id, name: z.string() })),
  /** how many children the read touched in all */
  student_count: wire.count,
});
export type AccessLogRow = z.infer<typeof AccessLogRow>;
export const AccessLogAnswer = pageOf(AccessLogRow);

export const CallGuardianAnswer = z.object({ mobile: z.string(), name: z.string() });
export type CallGuardianAnswer = z.infer<typeof CallGuardianAnswer>;

export const PrivacyRequestRow = z.object({
  id: wire.id,
  student_id: wire.id,
  student_name: z.string(),
  guardian_name: z.string(),
  kind: z.enum(PRIVACY_REQUEST_KINDS),
  body: z.string(),
  status: z.enum(PRIVACY_REQUEST_STATUSES),
  due_at: wire.at,
  overdue: z.boolean(),
  handled_by_name: z.string().nullable(),
  handled_at: wire.at.nullable(),
  result_note: z.string(),
  version: wire.int,
  created_at: wire.at,
});
export type PrivacyRequestRow = z.infer<typeof PrivacyRequestRow>;
export const PrivacyRequestsAnswer = pageOf(PrivacyRequestRow);
