import { SetMetadata } from '@nestjs/common';
import type { Who } from '@wantuo/shared';

export const ACCESS = Symbol('access');

/**
 * Declares who may call a route that is not an action of the catalogue (health, dev tools).
 * Catalogue actions take their rule from actions.tsv or their declaration (extraOf) and must not use this.
 */
export const Access = (...who: Who[]) => SetMetadata(ACCESS, who);
