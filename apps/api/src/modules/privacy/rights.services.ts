import { ErasureService } from './erasure.service';
import { ChildExportService } from './export.service';
import { PrivacyRequestsService } from './requests.service';

/** The services of the guardians' rights: listed once for PrivacyModule. */
export const RightsServices = [PrivacyRequestsService, ErasureService, ChildExportService];
