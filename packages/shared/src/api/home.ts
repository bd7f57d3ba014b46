import { GET, extraOf } from './define';
import { PrincipalHome } from '../answers/home';
import { EmptyInput } from '../schemas/auth';

/** The access and meaning of this module's actions that actions.tsv does not list. */
const extra = extraOf('home');

/** The actions of module `home` (docs/modules/home.md). */
export const homeActions = [
  GET(
    'principalHome',
    EmptyInput,
    PrincipalHome,
    extra(['A'], "the admin's landing page: today's flow counts by state, open alerts, pending leave requests, balance and service expiry"),
  ),
] as const;
