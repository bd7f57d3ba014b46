import type { ActionDef } from './actions';

/**
 * Actions the product needs that actions.tsv does not list (yet). Declared here, like the catalogue,
 * so the one role guard and the OpenAPI document know them. `O` is the platform operator.
 */
export const EXTRA_ACTIONS: readonly ActionDef[] = [
  { method: 'POST', action: 'index', module: 'site', who: ['O'], meaning: 'platform operator saves the start-up page configuration' },
  { method: 'POST', action: 'aboutUs', module: 'site', who: ['O'], meaning: 'platform operator saves the about-us rich text (sanitised)' },
  { method: 'GET', action: 'loginLog', module: 'auth', who: ['any'], meaning: 'recent sign-ins and actions of the signed-in user, paged' },
];
