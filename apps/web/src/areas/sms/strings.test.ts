import { SMS_KIND_NAMES, SMS_PROVIDERS, SMS_STATES, Role } from '@wantuo/shared';
import { describe, expect, it } from 'vitest';
import { mayEnter } from '../../router/guard';
import { ROUTES } from '../../router/route-table';
import { usePreferences } from '../../stores/preferences';
import { kindKey, providerKey, smsStrings, stateKey } from './strings';

describe('SMS console strings and routes', () => {
  it('names every kind, state and provider the API sends, in both languages', () => {
    for (const lang of ['zh-CN', 'en'] as const) {
      usePreferences.setState({ lang });
      const labels = [...SMS_KIND_NAMES.map(kindKey), ...SMS_STATES.map(stateKey), ...SMS_PROVIDERS.map(providerKey)].map((k) => smsStrings.t(k));
      for (const l of labels) expect(l).toMatch(/\S/);
      // two kinds never share a label
      const kinds = SMS_KIND_NAMES.map((k) => smsStrings.t(kindKey(k)));
      expect(new Set(kinds).size).toBe(kinds.length);
    }
    usePreferences.setState({ lang: 'zh-CN' });
    expect(smsStrings.t(kindKey('code.login'))).toBe('登录验证码');
    expect(smsStrings.t(stateKey('failed'))).toBe('失败');
  });

  it("短信通道 is in the operator's menu, 短信记录 in the admin's, each for its role only", { timeout: 30_000 }, async () => {
    const op = ROUTES.find((r) => r.path === '/operator_sms')!;
    const admin = ROUTES.find((r) => r.path === '/principal_sms')!;
    expect(op).toMatchObject({ area: 'operator', title: { zh: '短信通道' } });
    expect(admin).toMatchObject({ area: 'principal', title: { zh: '短信记录' } });
    expect((await op.page()).default).toBe((await import('./operator-sms')).default);
    expect((await admin.page()).default).toBe((await import('./school-sms')).default);
    expect(op.menu && admin.menu).toBeTruthy();
    expect(mayEnter(op.area, Role.Operator)).toBe(true);
    expect(mayEnter(op.area, Role.Admin)).toBe(false);
    expect(mayEnter(admin.area, Role.Admin)).toBe(true);
    expect(mayEnter(admin.area, Role.Teacher)).toBe(false);
  });
});
