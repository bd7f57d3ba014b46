import { identityOf, Identity, Role } from './roles';
import { t, normalizeLang } from './messages';

describe('role → identity (spec §4)', () => {
  it.each([
    [Role.Admin, Identity.Principal],
    [Role.HeadTeacher, Identity.Adviser],
    [Role.Teacher, Identity.Teacher],
    // any other role → 2 (spec §4): parents and operators are told apart by role, not identity
    [Role.Parent, Identity.Teacher],
    [Role.Operator, Identity.Teacher],
    [3, Identity.Teacher],
    [undefined, Identity.None],
    [null, Identity.None],
  ])('role %p → identity %p', (role, identity) => expect(identityOf(role)).toBe(identity));
});

describe('messages', () => {
  it('fills parameters in both languages', () => {
    expect(t('zh-CN', 'auth.locked', { minutes: 15 })).toBe('密码错误次数过多，账号已锁定，请 15 分钟后再试');
    expect(t('en', 'auth.locked', { minutes: 15 })).toContain('15 minutes');
  });
  it('reads the language from a header value, zh-CN by default', () => {
    expect(normalizeLang('en')).toBe('en');
    expect(normalizeLang('en-US')).toBe('en');
    expect(normalizeLang('zh-CN')).toBe('zh-CN');
    expect(normalizeLang(undefined)).toBe('zh-CN');
    expect(normalizeLang('fr')).toBe('zh-CN');
  });
});
