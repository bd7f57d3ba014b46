import { GET, POST, EmptyAnswer } from './define';
import { PickupCodeAnswer, PickupShareLinkAnswer, PickupShareList, PickupVerifyKeyAnswer } from '../answers/pickup';
import { EmptyInput } from '../schemas/auth';
import { PickupCodeByLinkQuery, PickupRevokeInput, PickupShareLinkInput, ReportPickupAttemptInput } from '../schemas/pickup';

/** The actions of module `pickup` (issue 27): verified pick-up codes. The departure itself is studentLiyuan with pickup_code. */
export const pickupActions = [
  GET('pickupCode', EmptyInput, PickupCodeAnswer),
  GET('pickupShareLinks', EmptyInput, PickupShareList),
  POST('pickupShareLink', PickupShareLinkInput, PickupShareLinkAnswer),
  POST('pickupRevoke', PickupRevokeInput, EmptyAnswer),
  POST('reportPickupAttempt', ReportPickupAttemptInput, EmptyAnswer),
  GET('pickupCodeByLink', PickupCodeByLinkQuery, PickupCodeAnswer),
  GET('pickupVerifyKey', EmptyInput, PickupVerifyKeyAnswer),
] as const;
