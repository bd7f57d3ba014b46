import { GET, POST, Pending } from './define';
import { AccountApplicationsQuery, ApplyAccountInput, HandleAccountApplicationInput } from '../schemas/applications';

/** The actions of module `applications` (docs/modules/applications.md). */
export const applicationsActions = [
  POST('applyAccount', ApplyAccountInput, Pending),
  GET('accountApplications', AccountApplicationsQuery, Pending),
  POST('handleAccountApplication', HandleAccountApplicationInput, Pending),
] as const;
