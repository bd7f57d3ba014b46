/** user.role values (design.md §2). */
export enum Role {
  Admin = 1,
  Teacher = 2,
  HeadTeacher = 5,
  Parent = 6,
  Operator = 9,
}

export const ROLES: readonly Role[] = [Role.Admin, Role.Teacher, Role.HeadTeacher, Role.Parent, Role.Operator];

export function isRole(value: unknown): value is Role {
  return typeof value === 'number' && (ROLES as number[]).includes(value);
}

/**
 * Web identity (spec §4): 0 signed out; after the user loads, role 1 → 1 (principal), role 5 → 3 (head teacher), any
 * other role → 2. Parents and operators therefore have identity 2, as the spec says: their areas are told apart by role
 * (router/route-table.ts), never by identity.
 */
export enum Identity {
  None = 0,
  Principal = 1,
  Teacher = 2,
  Adviser = 3,
}

export function identityOf(role: Role | number | null | undefined): Identity {
  if (role === undefined || role === null) return Identity.None;
  if (role === Role.Admin) return Identity.Principal;
  if (role === Role.HeadTeacher) return Identity.Adviser;
  return Identity.Teacher;
}
