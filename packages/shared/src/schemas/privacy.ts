import { z } from 'zod';
import { CHILD_DATA_KINDS, POLICY_KINDS } from '../privacy';
import { pageQuery, plainText, lineText } from './common';

/** Inputs of module `privacy` (issue 37, docs/modules/privacy.md). */

const blank = (v: unknown) => (v === '' ? undefined : v);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const day = z.string({ error: 'privacy.v.date_invalid' }).regex(DATE_RE, { error: 'privacy.v.date_invalid' });
const id = (coerce: boolean) =>
  (coerce ? z.coerce.number({ error: 'privacy.v.id_invalid' }) : z.number({ error: 'privacy.v.id_invalid' }))
    .int({ error: 'privacy.v.id_invalid' })
    .min(1, { error: 'privacy.v.id_invalid' })
    .max(2_147_483_647, { error: 'privacy.v.id_invalid' });
const version = z.number({ error: 'privacy.v.version_invalid' }).int({ error: 'privacy.v.version_invalid' }).min(0).max(1_000_000);
const policyKind = z.enum(POLICY_KINDS, { error: 'privacy.v.kind_invalid' });

/** The current documents; `school_id` names the school on a public page (a signed-in caller's own school otherwise). */
export const PrivacyPoliciesQuery = z.strictObject({ school_id: z.preprocess(blank, id(true).optional()) });
export type PrivacyPoliciesQuery = z.infer<typeof PrivacyPoliciesQuery>;

export const PrivacyPolicyHistoryQuery = z.strictObject({ ...pageQuery, kind: policyKind });
export type PrivacyPolicyHistoryQuery = z.infer<typeof PrivacyPolicyHistoryQuery>;

/** The operator publishes a new version; `expected_version` is the current one they edited (two never cross). */
export const PublishPrivacyPolicyInput = z.strictObject({
  kind: policyKind,
  title: lineText(60).pipe(z.string().min(1, { error: 'privacy.v.title_required' })),
  body_zh: plainText(20_000).pipe(z.string().min(20, { error: 'privacy.v.body_required' })),
  body_en: plainText(20_000).default(''),
  summary: lineText(200).pipe(z.string().min(1, { error: 'privacy.v.summary_required' })),
  expected_version: version,
});
export type PublishPrivacyPolicyInput = z.infer<typeof PublishPrivacyPolicyInput>;

/** A guardian accepts the versions they read, for every child of theirs at once. */
export const AcceptPoliciesInput = z.strictObject({ privacy_version: version, children_version: version });
export type AcceptPoliciesInput = z.infer<typeof AcceptPoliciesInput>;

/**
 * A guardian's decision for one child: photos or health notes granted or withdrawn, or the documents withdrawn
 * (`policies` with granted false; accepting them is acceptPolicies). Takes effect at once.
 */
export const SetConsentInput = z.strictObject({
  student_id: id(false),
  kind: z.enum(['policies', 'photos', 'health'], { error: 'privacy.v.consent_kind_invalid' }),
  granted: z.boolean({ error: 'privacy.v.granted_invalid' }),
});
export type SetConsentInput = z.infer<typeof SetConsentInput>;

/** The access log: the admin's whole school or one child; a guardian's own child (student_id required). */
export const ChildAccessLogQuery = z.strictObject({
  ...pageQuery,
  student_id: z.preprocess(blank, id(true).optional()),
  what: z.preprocess(blank, z.enum(CHILD_DATA_KINDS, { error: 'privacy.v.what_invalid' }).optional()),
  from: z.preprocess(blank, day.optional()),
  to: z.preprocess(blank, day.optional()),
});
export type ChildAccessLogQuery = z.infer<typeof ChildAccessLogQuery>;

/** Staff call a guardian or a pick-up person: the whole mobile, once, logged. Exactly one of the two ids. */
export const CallGuardianInput = z
  .strictObject({
    student_id: id(false),
    user_id: id(false).optional(),
    pickup_person_id: id(false).optional(),
  })
  .refine((v) => (v.user_id === undefined) !== (v.pickup_person_id === undefined), { error: 'privacy.v.call_target' });
export type CallGuardianInput = z.infer<typeof CallGuardianInput>;

/** Everything held about one child, as a zip. */
export const ChildDataExportQuery = z.strictObject({ student_id: id(true) });
export type ChildDataExportQuery = z.infer<typeof ChildDataExportQuery>;

export const PRIVACY_REQUEST_KINDS = ['correction', 'deletion'] as const;
export type PrivacyRequestKind = (typeof PRIVACY_REQUEST_KINDS)[number];
export const PRIVACY_REQUEST_STATUSES = ['open', 'done', 'refused'] as const;
export type PrivacyRequestStatus = (typeof PRIVACY_REQUEST_STATUSES)[number];

/** A guardian asks for a correction (saying what is wrong) or for deletion of their child's data. */
export const PrivacyRequestInput = z.strictObject({
  student_id: id(false),
  kind: z.enum(PRIVACY_REQUEST_KINDS, { error: 'privacy.v.request_kind_invalid' }),
  body: plainText(500).default(''),
});
export type PrivacyRequestInput = z.infer<typeof PrivacyRequestInput>;

export const MyPrivacyRequestsQuery = z.strictObject({ ...pageQuery });
export type MyPrivacyRequestsQuery = z.infer<typeof MyPrivacyRequestsQuery>;

export const PrivacyRequestsQuery = z.strictObject({
  ...pageQuery,
  status: z.preprocess(blank, z.enum(PRIVACY_REQUEST_STATUSES, { error: 'privacy.v.status_invalid' }).optional()),
  kind: z.preprocess(blank, z.enum(PRIVACY_REQUEST_KINDS, { error: 'privacy.v.request_kind_invalid' }).optional()),
});
export type PrivacyRequestsQuery = z.infer<typeof PrivacyRequestsQuery>;

/**
 * The admin completes (`done`: for a deletion, the child's personal data is erased, which cannot be undone) or refuses
 * a request with a note; `version` is the request as they read it.
 */
export const HandlePrivacyRequestInput = z.strictObject({
  id: id(false),
  version: version,
  outcome: z.enum(['done', 'refused'], { error: 'privacy.v.outcome_invalid' }),
  note: plainText(500).default(''),
});
export type HandlePrivacyRequestInput = z.infer<typeof HandlePrivacyRequestInput>;
