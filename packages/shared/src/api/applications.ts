import { GET, POST, extraOf } from './define';
import { AccountApplication, AccountApplicationsAnswer, ApplyAccountResult } from '../answers/applications';
import { AccountApplicationsQuery, ApplyAccountInput, HandleAccountApplicationInput } from '../schemas/applications';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('applications');

/** The actions of module `applications` (docs/modules/applications.md). */
export const applicationsActions = [
  POST(
    'applyAccount',
    ApplyAccountInput,
    ApplyAccountResult,
    extra(['pub'], 'sign-in screen "create new account": an institution not yet on the platform applies; rate-limited per mobile and per IP'),
  ),
  GET(
    'accountApplications',
    AccountApplicationsQuery,
    AccountApplicationsAnswer,
    extra(['O'], 'platform operator lists account applications, newest first, paged, filterable by status'),
  ),
  POST(
    'handleAccountApplication',
    HandleAccountApplicationInput,
    AccountApplication,
    extra(['O'], 'platform operator approves or rejects a pending account application with a note (optimistic concurrency on version)'),
  ),
] as const;
