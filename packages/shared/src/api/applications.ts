import { GET, POST } from './define';
import { AccountApplication, AccountApplicationsAnswer, ApplyAccountResult } from '../answers/applications';
import { AccountApplicationsQuery, ApplyAccountInput, HandleAccountApplicationInput } from '../schemas/applications';

/** The actions of module `applications` (docs/modules/applications.md). */
export const applicationsActions = [
  POST('applyAccount', ApplyAccountInput, ApplyAccountResult),
  GET('accountApplications', AccountApplicationsQuery, AccountApplicationsAnswer),
  POST('handleAccountApplication', HandleAccountApplicationInput, AccountApplication),
] as const;
