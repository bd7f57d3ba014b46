import { Identity, Role, type LoginResult } from '@wantuo/shared';
import { describe, expect, it } from 'vitest';
import { useSession } from '../stores/session';
import { destination, mayEnter } from './guard';
import { HOME_OF, REDIRECTS, ROUTES } from './route-table';

describe('role → identity and areas', () => {
  it.each([
    [Role.Admin, Identity.Principal],
    [Role.HeadTeacher, Identity.Adviser],
    [Role.Teacher, Identity.Teacher],
    [Role.Parent, Identity.Teacher],
    [Role.Operator, Identity.Teacher],
  ])('sign-in with role %i gives identity %i; sign-out gives 0', (role, identity) => {
    const result: LoginResult = { userinfo: { token: 't', id: 1, role, nickname: 'n', avatar_text: null, school_id: 1, expires_at: '' } };
    useSession.getState().signIn(result, false);
    expect(useSession.getState().identity).toBe(identity);
    useSession.getState().clear();
    expect(useSession.getState().identity).toBe(Identity.None);
  });

  it('each role reaches only its areas, and its home is one of them', () => {
    expect(mayEnter('principal', Role.Admin)).toBe(true);
    expect(mayEnter('principal', Role.HeadTeacher)).toBe(false);
    expect(mayEnter('adviser', Role.HeadTeacher)).toBe(true);
    expect(mayEnter('adviser', Role.Teacher)).toBe(false);
    expect(mayEnter('teacher', Role.Teacher)).toBe(true);
    expect(mayEnter('teacher', Role.HeadTeacher)).toBe(true);
    expect(mayEnter('teacher', Role.Parent)).toBe(false);
    expect(mayEnter('parent', Role.Parent)).toBe(true);
    expect(mayEnter('account', undefined)).toBe(false);
    expect(mayEnter('public', undefined)).toBe(true);
    for (const [role, home] of Object.entries(HOME_OF)) {
      const def = ROUTES.find((r) => r.path === home)!;
      expect(mayEnter(def.area, Number(role) as Role)).toBe(true);
    }
  });

  it('has every path of spec §2 once, and its redirects', () => {
    const spec = [
      '/home',
      '/about',
      '/richText',
      '/pdf-viewer',
      '/resource',
      '/attendClass',
      '/principalIndex',
      '/sparePart',
      '/CoursewareResource',
      '/principal_user',
      '/principalCenter_lessonware',
      '/principalCenter_matching',
      '/principalCenter_record',
      '/onlineStore',
      '/onlineStore_detail',
      '/confirmOrder',
      '/principal_class_Job',
      '/principal_class_Job1',
      '/principal_class_family',
      '/principal_add_class',
      '/principal_class_Editing',
      '/principal_account',
      '/principal_courseware',
      '/principal_teaching',
      '/principal_class',
      '/principal_classCompile',
      '/principal_educationals',
      '/principal_educationalsTeacher_add',
      '/principal_educationalsStudent_add',
      '/principal_educationals_student',
      '/principal_educationals_studentrecord',
      '/principal_contract',
      '/principal_data',
      '/principal_shop',
      '/principal_shop_add',
      '/principal_order',
      '/principal_order_add',
      '/TeacherClass',
      '/Teacher_educationals',
      '/Teacher_classSchedule',
      '/AAccountManagement',
      '/AClassSchedule',
      '/AStudentTransport',
      '/AMentorStudent',
      '/AStudentAttendance',
      '/ALeaveReview',
      '/AOrderReservation',
      '/AClassList',
      '/Astudentmanagement',
      '/AClassNotice',
      '/A_data',
    ];
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of spec) expect(paths).toContain(p);
    expect(REDIRECTS).toMatchObject({
      '/': '/home',
      '/prexy': '/principal_account',
      '/principalCenter': '/principalCenter_lessonware',
      '/ClassAdviser': '/AAccountManagement',
    });
    expect(ROUTES.find((r) => r.path === '/pdf-viewer')!.title).toBeNull();
    expect(ROUTES.find((r) => r.path === '/attendClass')!.hideHeader).toBe(true);
  });

  it("after sign-in: back to where the visitor was going when the role may, the API's pages by a full load, else home", () => {
    expect(destination('/ALeaveReview', Role.HeadTeacher)).toEqual({ path: '/ALeaveReview' });
    // the phone app's pages are another entry: a full load; a role that may not open one goes home
    expect(destination('/m/teacher_today', Role.Teacher)).toEqual({ path: '/m/teacher_today', server: true });
    expect(destination('/m/parent_report?student=3', Role.Parent)).toEqual({ path: '/m/parent_report?student=3', server: true });
    expect(destination('/m/teacher_today', Role.Parent, 'Mozilla/5.0 (X11; Linux x86_64)')).toEqual({ path: HOME_OF[Role.Parent] });
    // no destination: on a phone, the phone app's home for the roles that have one
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 MicroMessenger/8.0.50';
    expect(destination(null, Role.Parent, iphone)).toEqual({ path: '/m/parent', server: true });
    expect(destination(null, Role.Teacher, iphone)).toEqual({ path: '/m/teacher_today', server: true });
    expect(destination(null, Role.Admin, iphone)).toEqual({ path: HOME_OF[Role.Admin] });
    expect(destination('/ALeaveReview', Role.Parent)).toEqual({ path: HOME_OF[Role.Parent] });
    expect(destination('/admin/queues', Role.Operator)).toEqual({ path: '/admin/queues', server: true });
    expect(destination('/admin/queues', Role.Admin)).toEqual({ path: HOME_OF[Role.Admin] });
    expect(destination('//evil.example/admin/queues', Role.Operator)).toEqual({ path: HOME_OF[Role.Operator] });
    expect(destination('https://evil.example', Role.Operator)).toEqual({ path: HOME_OF[Role.Operator] });
    expect(destination(null, Role.Teacher)).toEqual({ path: HOME_OF[Role.Teacher] });
  });
});
