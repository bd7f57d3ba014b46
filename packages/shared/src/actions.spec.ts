import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessOf, ACTIONS, actionPath, CATALOGUE, findAction, mayCall } from './actions';
import { DECLARED } from './api';
import { Role } from './roles';

const root = join(__dirname, '..', '..', '..');
// the repository's copy of the product's actions.tsv (gen-actions --check also compares it with ../shared/spec/ when there)
const tsv = join(root, 'spec', 'actions.tsv');

describe('action catalogue', () => {
  it('is generated from spec/actions.tsv (the copy of shared/spec/actions.tsv) and current', () => {
    const out = execFileSync('node', [join(root, 'scripts', 'gen-actions.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toContain('current');
    const rows = readFileSync(tsv, 'utf8').trim().split('\n').slice(1);
    expect(CATALOGUE).toHaveLength(rows.length);
  });

  it('has 105 GET and 89 POST actions plus sms/send', () => {
    expect(CATALOGUE.filter((a) => a.method === 'GET')).toHaveLength(105);
    expect(CATALOGUE.filter((a) => a.method === 'POST' && a.action !== 'sms/send')).toHaveLength(89);
  });

  it('each method+name appears once', () => {
    const keys = ACTIONS.map((a) => `${a.method} ${a.action}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('maps names to paths: /api/index/<action>, sms/send to /api/sms/send', () => {
    expect(actionPath({ action: 'userInfo' })).toBe('/api/index/userInfo');
    expect(actionPath({ action: 'sms/send' })).toBe('/api/sms/send');
    expect(findAction('post', '/api/index/login')?.module).toBe('auth');
    expect(findAction('GET', '/api/index/login')).toBeUndefined();
    expect(findAction('GET', '/api/index/resetpwd')?.who).toEqual(['pub']);
  });

  it('turns `who` into an access rule', () => {
    expect(accessOf(['pub'])).toEqual({ kind: 'public' });
    expect(accessOf(['any'])).toEqual({ kind: 'signed-in' });
    expect(accessOf(['T', 'H', 'A'])).toEqual({ kind: 'roles', roles: [Role.Teacher, Role.HeadTeacher, Role.Admin] });
    const teachers = accessOf(['T', 'H']);
    expect(mayCall(teachers, Role.Teacher)).toBe(true);
    expect(mayCall(teachers, Role.Admin)).toBe(false);
    expect(mayCall(teachers, undefined)).toBe(false);
    expect(mayCall({ kind: 'signed-in' }, Role.Parent)).toBe(true);
    expect(mayCall({ kind: 'signed-in' }, undefined)).toBe(false);
    expect(mayCall({ kind: 'public' }, undefined)).toBe(true);
  });

  it('declares every action once (packages/shared/src/api), under its module, and nothing else', () => {
    const declared = DECLARED.map((d) => `${d.method} ${d.action}`);
    expect(new Set(declared).size).toBe(declared.length);
    expect(ACTIONS.map((a) => `${a.method} ${a.action}`).filter((k) => !declared.includes(k))).toEqual([]);
    for (const d of DECLARED) expect(d.def.method === d.method && d.def.action === d.action).toBe(true);
  });
});
