import { GUARDIAN_PHONE_PAGES, Role } from '@wantuo/shared';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../router/route-table';
import { matchPath, phoneHomeOf, phoneRouteAt, phoneTwinOf, PHONE_ROUTES, TABS, tabOf } from './route-table';

describe('the phone app’s routes (issue 35)', () => {
  it('every route is under /m, has its page, and every desktop twin is a route of the consoles', () => {
    const desktop = new Set(ROUTES.map((r) => r.path));
    for (const r of PHONE_ROUTES) {
      expect(r.path.startsWith('/m/')).toBe(true);
      expect(r.page).toBeTypeOf('function');
      for (const d of r.desktop ?? []) if (d !== '/pickup/:token') expect(desktop.has(d), `${r.path}: ${d}`).toBe(true);
    }
    expect(new Set(PHONE_ROUTES.map((r) => r.path)).size).toBe(PHONE_ROUTES.length);
  });

  it('every page a guardian’s message links has its phone page at /m + the same path', () => {
    for (const page of GUARDIAN_PHONE_PAGES) {
      const found = phoneRouteAt(`/m${page}`);
      expect(found?.route.roles, page).toEqual([Role.Parent]);
      expect(found?.route.desktop, page).toContain(page);
    }
  });

  it('the tab bars: four tabs each, every tab a route of its kind of user', () => {
    for (const [kind, tabs] of Object.entries(TABS)) {
      expect(tabs).toHaveLength(4);
      for (const tab of tabs) {
        const r = phoneRouteAt(tab.path)!.route;
        expect(r.root).toBe(true);
        expect(r.roles).toContain(kind === 'parent' ? Role.Parent : Role.Teacher);
      }
    }
  });

  it.each([
    ['/teacher_today', '', Role.Teacher, '/m/teacher_today'],
    ['/teacher_today', '', Role.HeadTeacher, '/m/teacher_today'],
    ['/AStudentTransport', '', Role.HeadTeacher, '/m/teacher_shuttle'],
    ['/parent_report', '?student=3', Role.Parent, '/m/parent_report?student=3'],
    ['/parent_report', '', Role.Teacher, null],
    ['/settings', '', Role.Parent, '/m/settings'],
    ['/settings', '', Role.Admin, null],
    ['/pickup/a%20b', '', undefined, '/m/pickup/a%20b'],
    ['/principalIndex', '', Role.Admin, null],
  ])('the phone twin of %s%s for role %s is %s', (path, search, role, twin) => {
    expect(phoneTwinOf(path, search, role)).toBe(twin);
  });

  it('matches segments and trailing slashes, nothing else', () => {
    expect(matchPath('/m/pickup/:token', '/m/pickup/abc')).toEqual({ token: 'abc' });
    expect(matchPath('/m/parent', '/m/parent/')).toEqual({});
    expect(matchPath('/m/pickup/:token', '/m/pickup/')).toBeNull();
    expect(matchPath('/m/parent', '/m/parent_report')).toBeNull();
  });

  it('homes and tabs by role; settings sits under the role’s 我的', () => {
    expect(phoneHomeOf(Role.Teacher)).toBe('/m/teacher_today');
    expect(phoneHomeOf(Role.Parent)).toBe('/m/parent');
    expect(phoneHomeOf(Role.Admin)).toBeNull();
    const settings = phoneRouteAt('/m/settings')!.route;
    expect(tabOf(settings, Role.Parent)?.key).toBe('parent_me');
    expect(tabOf(settings, Role.Teacher)?.key).toBe('teacher_me');
    expect(tabOf(phoneRouteAt('/m/pickup/x')!.route, undefined)).toBeNull();
  });
});
