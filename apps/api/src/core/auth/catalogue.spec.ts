import { ACTIONS, actionPath, CATALOGUE, Code, DECLARED, mayCall, Role, ROLES, type ActionDef } from '@wantuo/shared';
import { startTestApp, type DemoUser, type TestApp } from '../../../test/harness';
import { RouteCatalogue } from './route-catalogue';

const USER_OF: Record<Role, DemoUser> = {
  [Role.Admin]: 'admin',
  [Role.Teacher]: 'teacher',
  [Role.HeadTeacher]: 'adviser',
  [Role.Parent]: 'parent',
  [Role.Operator]: 'operator',
};

let t: TestApp;
let served: Set<string>;
beforeAll(async () => {
  t = await startTestApp({ runJobs: false });
  served = new Set(
    t.app
      .get(RouteCatalogue)
      .all()
      .map((r) => `${r.method} ${r.path}`),
  );
});
afterAll(() => t.close());

const key = (a: ActionDef) => `${a.method} ${actionPath(a)}`;
const call = (a: ActionDef, token?: string) => (a.method === 'GET' ? t.get(actionPath(a), token) : t.post(actionPath(a), token).send({}));

it('the catalogue has the 194 actions of actions.tsv plus sms/send', () => {
  expect(CATALOGUE.filter((a) => a.method === 'GET')).toHaveLength(105);
  expect(CATALOGUE.filter((a) => a.method === 'POST' && a.action !== 'sms/send')).toHaveLength(89);
  expect(CATALOGUE.some((a) => a.action === 'sms/send')).toBe(true);
});

it('every served /api/index and /api/sms route is an action of the catalogue (or a declared extra action)', () => {
  const known = new Set(ACTIONS.map(key));
  const stray = [...served].filter((r) => /^\w+ \/api\/(index|sms)\//.test(r) && !known.has(r));
  expect(stray).toEqual([]);
});

it('every declared action has a handler routed by its declaration, and every catalogue handler a declaration', () => {
  const routes = t.app.get(RouteCatalogue).all();
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  const unhandled = DECLARED.filter((d) => byKey.get(`${d.method} ${actionPath(d)}`)?.declaration !== d).map((d) => `${d.method} ${d.action}`);
  expect(unhandled).toEqual([]);
  expect(routes.filter((r) => r.action && !r.declaration).map((r) => `${r.method} ${r.path}`)).toEqual([]);
});

it('every action of the catalogue is served; an action nobody declares answers HTTP 404 from the router, for everyone', async () => {
  expect(CATALOGUE.filter((a) => !served.has(key(a))).map(key)).toEqual([]);
  const token = await t.login('admin');
  for (const unknown of [
    { method: 'GET', action: 'noSuchAction' },
    { method: 'POST', action: 'noSuchAction' },
  ] as ActionDef[]) {
    for (const tk of [undefined, token]) {
      const res = await call(unknown, tk);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 404 });
    }
  }
});

describe('every implemented action enforces its `who` with every role', () => {
  const tokens = new Map<Role, string>();
  beforeAll(async () => {
    for (const role of ROLES) tokens.set(role, await t.login(USER_OF[role]));
  });

  it.each(ACTIONS.map((a) => [key(a), a] as const))('%s', async (_, a) => {
    if (!served.has(key(a))) return;
    const access = a.who.includes('pub') ? 'public' : a.who.includes('any') ? 'signed-in' : 'roles';
    const anonymous = await call(a);
    if (access !== 'public') expect(anonymous.body.code).toBe(Code.Untoken);
    for (const role of ROLES) {
      const allowed = mayCall(access === 'roles' ? { kind: 'roles', roles: rolesOf(a) } : { kind: access }, role);
      if (!allowed) {
        const res = await call(a, tokens.get(role));
        expect({ role, code: res.body.code, msg: res.body.msg }).toEqual({ role, code: Code.Error, msg: '当前账号没有权限执行此操作' });
      } else {
        // logout ends the session it is called with: give it a fresh one
        const res = await call(a, a.action === 'logout' ? await t.login(USER_OF[role]) : tokens.get(role));
        expect({ role, status: res.status }).toEqual({ role, status: 200 });
        // a download (an export) answers its file, past the envelope
        if (!/^attachment/.test(String(res.headers['content-disposition'] ?? ''))) expect([Code.Ok, Code.Error]).toContain(res.body.code);
        expect(res.body.msg).not.toBe('当前账号没有权限执行此操作');
      }
    }
  });
});

function rolesOf(a: ActionDef): Role[] {
  const map: Record<string, Role> = { A: Role.Admin, H: Role.HeadTeacher, T: Role.Teacher, P: Role.Parent, O: Role.Operator };
  return a.who.map((w) => map[w]);
}
