import {
  GUARDIAN_MESSAGE_KIND_NAMES,
  GUARDIAN_MESSAGE_KINDS,
  MESSAGE_CHANNELS,
  defaultMessageChannel,
  messageChannelsOf,
  messageRoute,
  messageSendAt,
  smsFallbackOn,
  wechatFailure,
  wechatTemplateData,
  type GuardianMessageKind,
  type MessageChannel,
} from './guardian-messages';
import { SMS_KINDS } from './sms';

describe('guardian message kinds', () => {
  it('are the issue’s kinds, each an SMS kind whose variables hold its keywords, with both labels', () => {
    expect(GUARDIAN_MESSAGE_KIND_NAMES).toEqual([
      'flow.arrived',
      'flow.left',
      'alert.raised',
      'leave.reviewed',
      'notice.important',
      'notice.remind',
      'homework.set',
      'contract.expiring',
      'contract.renewed',
      'exam.published',
      'report.daily',
      'family.message',
    ]);
    for (const k of GUARDIAN_MESSAGE_KIND_NAMES) {
      const spec = GUARDIAN_MESSAGE_KINDS[k];
      expect(spec.zh).toBeTruthy();
      expect(spec.en).toBeTruthy();
      const vars: readonly string[] = SMS_KINDS[k].vars;
      for (const w of spec.keywords) expect(vars).toContain(w);
      expect(defaultMessageChannel(k)).toBe('wechat');
    }
  });

  it('every channel may be chosen but an alert cannot be turned off', () => {
    expect(MESSAGE_CHANNELS).toEqual(['wechat', 'sms', 'both', 'none']);
    expect(messageChannelsOf('flow.arrived')).toEqual(['wechat', 'sms', 'both', 'none']);
    expect(messageChannelsOf('alert.raised')).toEqual(['wechat', 'sms', 'both']);
  });
});

describe('messageRoute', () => {
  it.each<[GuardianMessageKind, MessageChannel | null, boolean, { wechat: boolean; sms: boolean }]>([
    ['flow.arrived', null, true, { wechat: true, sms: false }],
    ['flow.arrived', null, false, { wechat: false, sms: true }],
    ['flow.arrived', 'wechat', true, { wechat: true, sms: false }],
    ['flow.arrived', 'wechat', false, { wechat: false, sms: true }],
    ['flow.left', 'both', true, { wechat: true, sms: true }],
    ['flow.left', 'both', false, { wechat: false, sms: true }],
    ['homework.set', 'sms', true, { wechat: false, sms: true }],
    ['homework.set', 'sms', false, { wechat: false, sms: true }],
    ['notice.important', 'none', true, { wechat: false, sms: false }],
    ['notice.important', 'none', false, { wechat: false, sms: false }],
    // alerts cannot be turned off: 'none' is the WeChat rule
    ['alert.raised', 'none', true, { wechat: true, sms: false }],
    ['alert.raised', 'none', false, { wechat: false, sms: true }],
    ['alert.raised', 'both', true, { wechat: true, sms: true }],
    ['alert.raised', 'sms', true, { wechat: false, sms: true }],
  ])('%s with %s, bound %s', (kind, channel, bound, route) => {
    expect(messageRoute(kind, channel, bound)).toEqual(route);
  });

  it('an unknown stored channel is the default', () => {
    expect(messageRoute('flow.arrived', 'fax' as MessageChannel, true)).toEqual({ wechat: true, sms: false });
  });
});

describe('a WeChat refusal', () => {
  it.each<[string, number, 'sms' | 'retry']>([
    ['not subscribed', 43101, 'sms'],
    ['not following', 43004, 'sms'],
    ['invalid openid', 40003, 'sms'],
    ['invalid template', 40037, 'sms'],
    ['daily quota', 45009, 'sms'],
    ['an unknown refusal', 99999, 'sms'],
    ['system busy', -1, 'retry'],
    ['token invalid', 40001, 'retry'],
    ['token expired', 42001, 'retry'],
    ['rate limit', 45011, 'retry'],
    ['HTTP 502', 502, 'retry'],
  ])('%s (%d) → %s', (_, code, next) => {
    expect(wechatFailure(code)).toBe(next);
    expect(smsFallbackOn(code)).toBe(next === 'sms');
  });
});

describe('wechatTemplateData', () => {
  it('the keywords in order, missing ones empty', () => {
    expect(wechatTemplateData('flow.left', { student: '小明', time: '17:30', by: '王芳（妈妈）' })).toEqual({
      keyword1: { value: '小明' },
      keyword2: { value: '17:30' },
      keyword3: { value: '王芳（妈妈）' },
      keyword4: { value: '' },
    });
  });

  it('each value cut to 20 characters (code points) with …', () => {
    const title = '第二学期期末综合测试与家长开放日活动安排及注意事项通知';
    const data = wechatTemplateData('notice.important', { title, school: '阳光晚托' });
    expect(Array.from(data.keyword1.value)).toHaveLength(20);
    expect(data.keyword1.value.endsWith('…')).toBe(true);
    expect(data.keyword1.value.startsWith('第二学期期末综合测试')).toBe(true);
    expect(data.keyword2.value).toBe('阳光晚托');
    expect(wechatTemplateData('notice.important', { title: '😀'.repeat(21), school: '' }).keyword1.value).toBe(`${'😀'.repeat(19)}…`);
  });
});

describe('messageSendAt (quiet hours 21:00-07:00 school time, urgent kinds at once)', () => {
  const SH = 'Asia/Shanghai';
  const night = new Date('2026-11-27T14:30:00Z'); // 22:30 in Shanghai
  const day = new Date('2026-11-27T04:00:00Z'); // 12:00 in Shanghai
  const morning = new Date('2026-11-27T23:00:00Z'); // 07:00 the next day in Shanghai
  it.each([
    ['flow.arrived', night, night],
    ['flow.left', night, night],
    ['alert.raised', night, night],
    ['leave.reviewed', night, morning],
    ['homework.set', night, morning],
    ['notice.important', night, morning],
    ['contract.expiring', night, morning],
    ['leave.reviewed', day, day],
    ['flow.left', day, day],
  ] as const)('%s due %s goes at %s', (kind, now, at) => expect(messageSendAt(kind, now, SH).toISOString()).toBe(at.toISOString()));
  it('the school’s own zone decides: 22:30 in Shanghai is 23:30 in Tokyo, 14:30 in London', () => {
    expect(messageSendAt('homework.set', night, 'Europe/London').toISOString()).toBe(night.toISOString());
    expect(messageSendAt('homework.set', night, 'Asia/Tokyo').toISOString()).toBe('2026-11-27T22:00:00.000Z');
  });
});
