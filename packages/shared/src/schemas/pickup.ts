import { z } from 'zod';

/** Verified pick-up (接送码, issue 27): the inputs of module `pickup`. */

const bodyId = z
  .number({ error: 'pickup.v.id_invalid' })
  .int({ error: 'pickup.v.id_invalid' })
  .positive({ error: 'pickup.v.id_invalid' })
  .max(2_147_483_647, { error: 'pickup.v.id_invalid' });

/** a share link's token: 32 base64url characters (24 random bytes) */
export const PICKUP_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

/** pickupShareLink: a link for one of the guardian's children's pick-up people (a new link replaces the person's old one). */
export const PickupShareLinkInput = z.strictObject({ pickup_person_id: bodyId });
export type PickupShareLinkInput = z.infer<typeof PickupShareLinkInput>;

/** pickupRevoke: a share link of the guardian's children's pick-up people; its codes stop working at once. */
export const PickupRevokeInput = z.strictObject({ link_id: bodyId });
export type PickupRevokeInput = z.infer<typeof PickupRevokeInput>;

/** pickupCodeByLink: the pick-up person's link token. */
export const PickupCodeByLinkQuery = z.strictObject({
  token: z.string({ error: 'pickup.v.token_invalid' }).regex(PICKUP_TOKEN_RE, { error: 'pickup.v.token_invalid' }),
});
export type PickupCodeByLinkQuery = z.infer<typeof PickupCodeByLinkQuery>;

/**
 * reportPickupAttempt: a code the teacher's phone refused on its own (another child's, a revoked person's), reported so
 * the API checks it too and, when it is unauthorised, logs it and alerts at once; it never records a departure.
 */
export const ReportPickupAttemptInput = z.strictObject({
  student_ids: z.array(bodyId, { error: 'pickup.v.id_invalid' }).min(1, { error: 'pickup.v.id_invalid' }).max(50, { error: 'pickup.v.id_invalid' }),
  pickup_code: z
    .string({ error: 'pickup.v.code_invalid' })
    .max(2000, { error: 'pickup.v.code_invalid' })
    .regex(/^PK1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, { error: 'pickup.v.code_invalid' }),
});
export type ReportPickupAttemptInput = z.infer<typeof ReportPickupAttemptInput>;
