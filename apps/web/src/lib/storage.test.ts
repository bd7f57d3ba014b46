import { describe, expect, it, vi } from 'vitest';
import { aesCipher } from './aes-cipher';
import { cookies, createStorage } from './storage';
import { memoryStorage as memory } from '../test-utils';

describe('storage (spec §3)', () => {
  it('keeps value and expiry; 0 never expires; an expired entry is removed and reads as empty', () => {
    let now = 1_000_000;
    const backend = memory();
    const s = createStorage({ backend, now: () => now });
    s.set('forever', { a: 1 });
    s.set('short', 'x', 60);
    expect(JSON.parse(backend.getItem('short')!)).toEqual({ content: 'x', datetime: 1_060_000 });
    expect(JSON.parse(backend.getItem('forever')!).datetime).toBe(0);
    now += 59_000;
    expect(s.get('short')).toBe('x');
    now += 1_000;
    expect(s.get('short')).toBeNull();
    expect(backend.getItem('short')).toBeNull();
    now += 10 ** 12;
    expect(s.get('forever')).toEqual({ a: 1 });
  });

  it('encrypts with AES when given a key, and reads it back', () => {
    const backend = memory();
    const s = createStorage({ backend, cipher: aesCipher('1234567890abcdef') });
    s.set('_u', { nickname: '王园长' });
    expect(backend.getItem('_u')).not.toContain('王园长');
    expect(backend.getItem('_u')).not.toContain('nickname');
    expect(s.get('_u')).toEqual({ nickname: '王园长' });
    // another key cannot read it: the entry reads as empty
    expect(createStorage({ backend, cipher: aesCipher('abcdefgh12345678') }).get('_u')).toBeNull();
  });

  it('warns when the AES key length is not a multiple of 8', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    aesCipher('12345');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('decryption will fail'));
    warn.mockClear();
    aesCipher('12345678');
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('a corrupt entry reads as empty', () => {
    const backend = memory();
    backend.setItem('k', '{not json');
    expect(createStorage({ backend }).get('k')).toBeNull();
  });

  it('keeps the token in a cookie with path /', () => {
    cookies.set('token', 'a b', 3600);
    expect(cookies.get('token')).toBe('a b');
    cookies.remove('token');
    expect(cookies.get('token')).toBeNull();
  });
});
