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

/** Web identity (spec §4): 0 signed out, 1 principal, 2 teacher, 3 head teacher; parents and operators have their own areas. */
export enum Identity {
  None = 0,
  Principal = 1,
  Teacher = 2,
  Adviser = 3,
  Parent = 4,
  Operator = 5,
}

export function identityOf(role: Role | number | null | undefined): Identity {
  switch (role) {
    case undefined:
    case null:
      return Identity.None;
    case Role.Admin:
      return Identity.Principal;
    case Role.HeadTeacher:
      return Identity.Adviser;
    case Role.Parent:
      return Identity.Parent;
    case Role.Operator:
      return Identity.Operator;
    default:
      return Identity.Teacher;
  }
}
