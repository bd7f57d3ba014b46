import { PrivacyRequestsService } from './requests.service';

/** The services of the guardians' rights: listed once for PrivacyModule. */
export const RightsServices = [PrivacyRequestsService];
