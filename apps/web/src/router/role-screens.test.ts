import { accessOf, ACTIONS, mayCall, Role } from '@wantuo/shared';
import { describe, expect, it } from 'vitest';
import { leaveActionsOf } from '../areas/flow/leave-review';
import { mayEnter } from './guard';
import { ROUTES, type Page } from './route-table';

/** May this role call this action (the declaration's `who`, as the API's guard reads it)? */
const may = (action: string, role: Role) => {
  const defs = ACTIONS.filter((a) => a.action === action && a.method === 'GET');
  expect(defs).toHaveLength(1);
  return mayCall(accessOf(defs[0].who), role);
};

// issue 34: the screens of actions actions.tsv allows a role that had no screen for them, and what each reads
const SCREENS: Array<{ path: string; role: Role; page: Page; reads: string[] }> = [
  { path: '/principal_leave', role: Role.Admin, page: () => import('../areas/flow/leave-review'), reads: ['adminLeaveList', 'adminLeaveInfo'] },
  {
    path: '/principal_attendance',
    role: Role.Admin,
    page: () => import('../areas/flow/attendance-records'),
    reads: ['clockingInList', 'clockingInInfo', 'classList'],
  },
  {
    path: '/principal_class_schedule',
    role: Role.Admin,
    page: () => import('../areas/schedule/class-schedule'),
    reads: ['classSchedule', 'classList', 'teachingClassList'],
  },
  {
    path: '/teacher_leave',
    role: Role.Teacher,
    page: () => import('../areas/flow/leave-review'),
    reads: ['teacherStudentLeaveList', 'teacherStudentLeaveInfo'],
  },
  {
    path: '/teacher_classes',
    role: Role.Teacher,
    page: () => import('../areas/teaching/teacher-classes'),
    reads: ['teachManage', 'teachingClassInfo', 'teachingClassStudent'],
  },
  {
    path: '/parent_growth',
    role: Role.Parent,
    page: () => import('../areas/parent/growth'),
    reads: ['parentChildren', 'teacherStudentGrowth', 'studentTeachingClassList'],
  },
];

describe('role screens of issue 34', () => {
  it.each(SCREENS)('$path: a menu entry the role reaches, on a page whose reads the role may call', async ({ path, role, page, reads }) => {
    const def = ROUTES.find((r) => r.path === path);
    expect(def).toMatchObject({ menu: expect.anything() });
    expect((await def!.page()).default).toBe((await page()).default);
    expect(mayEnter(def!.area, role)).toBe(true);
    for (const action of reads) expect({ action, allowed: may(action, role) }).toEqual({ action, allowed: true });
  });

  it('the leave screens read with the actions of the role and offer the decision only to who may decide', () => {
    expect(leaveActionsOf(Role.Admin)).toEqual({ list: 'adminLeaveList', info: 'adminLeaveInfo', mayDecide: true });
    expect(leaveActionsOf(Role.HeadTeacher)).toEqual({ list: 'teacherStudentLeaveList', info: 'teacherStudentLeaveInfo', mayDecide: true });
    expect(leaveActionsOf(Role.Teacher)).toEqual({ list: 'teacherStudentLeaveList', info: 'teacherStudentLeaveInfo', mayDecide: false });
    for (const role of [Role.Admin, Role.HeadTeacher, Role.Teacher]) {
      const a = leaveActionsOf(role);
      expect([may(a.list, role), may(a.info, role)]).toEqual([true, true]);
    }
  });
});

// issue 37: the consoles' privacy screens
const PRIVACY_SCREENS: Array<{ path: string; role: Role; page: Page; reads: string[] }> = [
  {
    path: '/principal_privacy',
    role: Role.Admin,
    page: () => import('../areas/privacy/principal-privacy'),
    reads: ['childAccessLog', 'privacyRequests', 'studentList'],
  },
  {
    path: '/operator_privacy',
    role: Role.Operator,
    page: () => import('../areas/privacy/operator-privacy'),
    reads: ['privacyPolicyHistory', 'privacyPolicies'],
  },
];

describe('privacy screens of issue 37', () => {
  it.each(PRIVACY_SCREENS)('$path: a menu entry the role reaches, on a page whose reads the role may call', async ({ path, role, page, reads }) => {
    const def = ROUTES.find((r) => r.path === path);
    expect(def).toMatchObject({ menu: expect.anything() });
    expect((await def!.page()).default).toBe((await page()).default);
    expect(mayEnter(def!.area, role)).toBe(true);
    for (const action of reads) expect({ action, allowed: may(action, role) }).toEqual({ action, allowed: true });
  });
});
