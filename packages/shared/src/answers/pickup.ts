import { z } from 'zod';
import { wire } from '../api/define';

const student = z.object({ id: wire.id, name: z.string() });

/** pickupCode, pickupCodeByLink: the current code (a QR's text) and when the page shows the next one. */
export const PickupCodeAnswer = z.object({
  code: z.string(),
  /** the end of the code's 30 s window: the page asks for a new one then */
  window_ends_at: wire.at,
  /** the last instant the code is accepted (its window and the next) */
  valid_until: wire.at,
  /** 'g<user id>' or 'p<pickup_people id>' */
  person: z.string(),
  name: z.string(),
  relation: z.string(),
  school_name: z.string(),
  students: z.array(student),
});
export type PickupCodeAnswer = z.infer<typeof PickupCodeAnswer>;

/** One of the guardian's children's pick-up people, with the share link they have (if any). */
export const PickupShareRow = z.object({
  pickup_person_id: wire.id,
  name: z.string(),
  relation: z.string(),
  mobile: z.string(),
  students: z.array(student),
  /** the live link, or null (the token itself is shown once, when created) */
  link: z.object({ id: wire.id, created_at: wire.at, last_used_at: wire.at.nullable() }).nullable(),
});
export type PickupShareRow = z.infer<typeof PickupShareRow>;

export const PickupShareList = z.object({ list: z.array(PickupShareRow) });
export type PickupShareList = z.infer<typeof PickupShareList>;

/** pickupShareLink: the new link (the only time the token is answered) and whether a text took it to the person. */
export const PickupShareLinkAnswer = z.object({
  id: wire.id,
  token: z.string(),
  /** the path of the person's page, /m/pickup/<token> (the phone app; /pickup/<token> still opens the desktop page) */
  path: z.string(),
  /** absolute, with the web's public address */
  url: z.string(),
  /** the link went to the person's phone by SMS (false: copy it and send it yourself) */
  sent: z.boolean(),
});
export type PickupShareLinkAnswer = z.infer<typeof PickupShareLinkAnswer>;

/** pickupVerifyKey: what a staff phone needs to check codes offline. */
export const PickupVerifyKeyAnswer = z.object({
  school_id: wire.id,
  /** Ed25519, base64url (32 bytes) */
  public_key: z.string(),
  /** who a code may name, for showing the person offline: 'g12' / 'p34' → name, relation and students */
  people: z.array(z.object({ person: z.string(), name: z.string(), relation: z.string(), students: z.array(wire.id) })),
  /** revoked pick-up people (their codes are refused even offline) */
  revoked: z.array(z.string()),
  fetched_at: wire.at,
});
export type PickupVerifyKeyAnswer = z.infer<typeof PickupVerifyKeyAnswer>;
