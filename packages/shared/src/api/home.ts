import { GET } from './define';
import { PrincipalHome } from '../answers/home';
import { EmptyInput } from '../schemas/auth';

/** The actions of module `home` (docs/modules/home.md). */
export const homeActions = [GET('principalHome', EmptyInput, PrincipalHome)] as const;
