import { ACTION_ROWS } from './actions.generated';
import { DECLARED } from './api';
import { Role } from './roles';

/** Who may call an action: the `who` column of actions.tsv, plus `O` (platform operator) for extra actions. */
export type Who = 'pub' | 'any' | 'A' | 'H' | 'T' | 'P' | 'O';
export type HttpMethod = 'GET' | 'POST';

export interface ActionDef {
  method: HttpMethod;
  /** name under /api/index/ (or `sms/send`, served at /api/sms/send) */
  action: string;
  module: string;
  who: Who[];
  meaning: string;
}

/** The catalogue of actions.tsv. */
export const CATALOGUE: readonly ActionDef[] = ACTION_ROWS;
/**
 * Actions the product needs that actions.tsv does not list (yet): declared in their modules' api files beside the
 * catalogue's (`extraOf`), so the one role guard and the OpenAPI document know them. `O` is the platform operator.
 */
export const EXTRA_ACTIONS: readonly ActionDef[] = DECLARED.map((d) => d.def as ActionDef).filter((d) => !ACTION_ROWS.includes(d));
/** Every action the API may serve: the catalogue plus the extra actions. */
export const ACTIONS: readonly ActionDef[] = [...ACTION_ROWS, ...EXTRA_ACTIONS];

const WHO_ROLES: Record<Exclude<Who, 'pub' | 'any'>, Role> = {
  A: Role.Admin,
  H: Role.HeadTeacher,
  T: Role.Teacher,
  P: Role.Parent,
  O: Role.Operator,
};

/** The HTTP path of an action. */
export function actionPath(def: Pick<ActionDef, 'action'>): string {
  return def.action.includes('/') ? `/api/${def.action}` : `/api/index/${def.action}`;
}

const byKey = new Map(ACTIONS.map((a) => [`${a.method} ${actionPath(a)}`, a]));

/** Finds the catalogue row for a method and path such as `GET /api/index/userInfo`. */
export function findAction(method: string, path: string): ActionDef | undefined {
  return byKey.get(`${method.toUpperCase()} ${path}`);
}

export type Access = { kind: 'public' } | { kind: 'signed-in' } | { kind: 'roles'; roles: Role[] };

/** Turns a `who` list into the access rule the role guard enforces. */
export function accessOf(who: readonly Who[]): Access {
  if (who.includes('pub')) return { kind: 'public' };
  if (who.includes('any')) return { kind: 'signed-in' };
  return { kind: 'roles', roles: [...new Set(who.map((w) => WHO_ROLES[w as keyof typeof WHO_ROLES]))] };
}

export function mayCall(access: Access, role: Role | undefined): boolean {
  switch (access.kind) {
    case 'public':
      return true;
    case 'signed-in':
      return role !== undefined;
    case 'roles':
      return role !== undefined && access.roles.includes(role);
  }
}
