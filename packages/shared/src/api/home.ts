import { GET, Pending } from './define';
import { EmptyInput } from '../schemas/auth';

/** The actions of module `home` (docs/modules/home.md). */
export const homeActions = [GET('principalHome', EmptyInput, Pending)] as const;
