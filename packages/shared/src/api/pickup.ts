import { GET, POST, EmptyAnswer, extraOf } from './define';
import { PickupCodeAnswer, PickupShareLinkAnswer, PickupShareList, PickupVerifyKeyAnswer } from '../answers/pickup';
import { EmptyInput } from '../schemas/auth';
import { PickupCodeByLinkQuery, PickupRevokeInput, PickupShareLinkInput, ReportPickupAttemptInput } from '../schemas/pickup';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('pickup');

/** The actions of module `pickup` (issue 27): verified pick-up codes. The departure itself is studentLiyuan with pickup_code. */
export const pickupActions = [
  GET(
    'pickupCode',
    EmptyInput,
    PickupCodeAnswer,
    extra(
      ['P'],
      "the guardian's own pick-up code (PK1, Ed25519-signed by the school's key) for all their children: good for its 30 s window and the next; answers when the window ends (the page shows a new one then)",
    ),
  ),
  GET(
    'pickupShareLinks',
    EmptyInput,
    PickupShareList,
    extra(['P'], "the guardian's children's authorised pick-up people with their live share link (no token: it is shown once)"),
  ),
  POST(
    'pickupShareLink',
    PickupShareLinkInput,
    PickupShareLinkAnswer,
    extra(
      ['P'],
      "a share link /pickup/<token> for one of the guardian's children's pick-up people (replaces their previous link; only the token's hash is kept): answered to copy and send",
    ),
  ),
  POST(
    'pickupRevoke',
    PickupRevokeInput,
    EmptyAnswer,
    extra(
      ['P'],
      "revoke a share link of the guardian's children's pick-up people: the link shows nothing more and the person's codes are refused at once",
    ),
  ),
  POST(
    'reportPickupAttempt',
    ReportPickupAttemptInput,
    EmptyAnswer,
    extra(
      ['T', 'H', 'A'],
      "a pick-up code the teacher's phone refused on its own (another child's, a revoked person's): checked by the API as at 离园, logged, and when unauthorised the head teacher and the children's guardians are alerted at once; never records a departure (refused with the code's reason)",
    ),
  ),
  GET(
    'pickupCodeByLink',
    PickupCodeByLinkQuery,
    PickupCodeAnswer,
    extra(
      ['pub'],
      "a pick-up person without an account: their own code by their share link's token (refused once revoked or the person removed); rate-limited per IP",
    ),
  ),
  GET(
    'pickupVerifyKey',
    EmptyInput,
    PickupVerifyKeyAnswer,
    extra(
      ['T', 'H', 'A'],
      "the school's public key for checking pick-up codes offline on a staff phone, with the names of the people a code may name (a teacher's and head teacher's own students; the admin's whole school) and the revoked ones",
    ),
  ),
] as const;
