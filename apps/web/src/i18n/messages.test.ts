import { describe, expect, it } from 'vitest';
import { MESSAGES, translate, type MessageKey } from './messages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('messages (the sign-in page and the shell)', () => {
  it.each(Object.entries(MESSAGES))('%s has both languages, with the same placeholders', (_key, { zh, en }) => {
    expect(zh.trim()).not.toBe('');
    expect(en.trim()).not.toBe('');
    expect(placeholders(en)).toEqual(placeholders(zh));
  });

  it('translates into the chosen language and fills the placeholders', () => {
    expect(translate('zh-CN', 'login.welcome', { name: '张三' })).toBe('欢迎回来，张三');
    expect(translate('en', 'login.welcome', { name: 'Ann' })).toBe('Welcome back, Ann');
    expect(translate('en', 'no.such.key' as MessageKey)).toBe('no.such.key');
  });
});
