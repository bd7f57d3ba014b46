import { GUARDIAN_MESSAGE_KIND_NAMES, MESSAGE_CHANNELS, Role, type WechatDeliveryCounts } from '@wantuo/shared';
import { describe, expect, it } from 'vitest';
import { mayEnter } from '../../router/guard';
import { ROUTES } from '../../router/route-table';
import { usePreferences } from '../../stores/preferences';
import { channelKey, countKey, kindLabel, wechatStrings } from './strings';

const COUNTS: Array<keyof WechatDeliveryCounts> = [
  'wechat_sent',
  'wechat_delivered',
  'wechat_failed',
  'wechat_waiting',
  'sms_fallback',
  'sms_direct',
];

describe('WeChat settings strings and routes', () => {
  it('names every channel, count and guardian message kind, in both languages, kinds and channels never sharing a label', () => {
    for (const lang of ['zh-CN', 'en'] as const) {
      usePreferences.setState({ lang });
      const channels = MESSAGE_CHANNELS.map((c) => wechatStrings.t(channelKey(c)));
      const counts = COUNTS.map((c) => wechatStrings.t(countKey(c)));
      const kinds = GUARDIAN_MESSAGE_KIND_NAMES.map(kindLabel);
      for (const l of [...channels, ...counts, ...kinds]) expect(l).toMatch(/\S/);
      for (const list of [channels, counts, kinds]) expect(new Set(list).size).toBe(list.length);
      // a kind is never shown by its raw name
      for (const k of GUARDIAN_MESSAGE_KIND_NAMES) expect(kindLabel(k)).not.toBe(k);
    }
    usePreferences.setState({ lang: 'zh-CN' });
    expect(MESSAGE_CHANNELS.map((c) => wechatStrings.t(channelKey(c)))).toEqual(['微信', '短信', '都要', '不接收']);
    expect(kindLabel('alert.raised')).toBe('异常提醒');
    expect(wechatStrings.t('prefs.required_hint')).toContain('不能关闭');
    expect(kindLabel('some.new_kind')).toBe('some.new_kind');
    usePreferences.setState({ lang: 'en' });
    expect(wechatStrings.t(channelKey('none'))).toBe('None');
    usePreferences.setState({ lang: 'zh-CN' });
  });

  it("消息通知 is in the parent's menu, 微信消息 in the admin's, 公众号 in the operator's, each for its role only", { timeout: 30_000 }, async () => {
    const parent = ROUTES.find((r) => r.path === '/parent_messages')!;
    const school = ROUTES.find((r) => r.path === '/principal_wechat')!;
    const op = ROUTES.find((r) => r.path === '/operator_wechat')!;
    expect(parent).toMatchObject({ area: 'parent', title: { zh: '消息通知' } });
    expect(school).toMatchObject({ area: 'principal', title: { zh: '微信消息' } });
    expect(op).toMatchObject({ area: 'operator', title: { zh: '公众号' } });
    expect((await parent.page()).default).toBe((await import('./parent-messages')).default);
    expect((await school.page()).default).toBe((await import('./school-wechat')).default);
    expect((await op.page()).default).toBe((await import('./operator-wechat')).default);
    expect(parent.menu && school.menu && op.menu).toBeTruthy();
    expect(mayEnter(parent.area, Role.Parent)).toBe(true);
    expect(mayEnter(parent.area, Role.Admin)).toBe(false);
    expect(mayEnter(school.area, Role.Admin)).toBe(true);
    expect(mayEnter(school.area, Role.Teacher)).toBe(false);
    expect(mayEnter(op.area, Role.Operator)).toBe(true);
    expect(mayEnter(op.area, Role.Admin)).toBe(false);
  });
});
