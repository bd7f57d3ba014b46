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
    expect(JSON.parse(backend.getItem('short')!)).toEqual({ content: 'x', datetime: '1970-01-01 08:17:40' });
    expect(JSON.parse(backend.getItem('forever')!).datetime).toBe(0);
    now += 59_000;
    expect(s.get('short')).toBe('x');
    now += 1_000;
    expect(s.get('short')).toBeNull();
    expect(backend.getItem('short')).toBeNull();
    now += 10 ** 12;
    expect(s.get('forever')).toEqual({ a: 1 });
  });

  it('stores the expiry as yyyy-MM-dd HH:mm:ss (spec §9, 24-hour, the default school zone whatever the browser zone) and reads old entries', () => {
    // 2025-03-03 14:30:00.250 in Shanghai (06:30 UTC): an afternoon time shows the 24-hour clock
    let now = Date.UTC(2025, 2, 3, 6, 30, 0, 250);
    const backend = memory();
    const s = createStorage({ backend, now: () => now });
    s.set('short', 'x', 60);
    // rounded up to the second: never gone before its time
    expect(JSON.parse(backend.getItem('short')!)).toEqual({ content: 'x', datetime: '2025-03-03 14:31:01' });
    s.set('night', 'y', 10 * 3600);
    expect(JSON.parse(backend.getItem('night')!).datetime).toBe('2025-03-04 00:30:01');
    now += 60_000;
    expect(s.get('short')).toBe('x');
    now += 750;
    expect(s.get('short')).toBeNull();
    expect(s.get('night')).toBe('y');
    // another zone when asked for (the format names no zone: one storage reads what it wrote)
    const utcBackend = memory();
    createStorage({ backend: utcBackend, now: () => now, timeZone: 'UTC' }).set('k', 1, 1);
    expect(JSON.parse(utcBackend.getItem('k')!).datetime).toBe('2025-03-03 06:31:02');
    // entries written before (the expiry in ms) still read, and still expire
    backend.setItem('old', JSON.stringify({ content: 'o', datetime: now + 1_000 }));
    backend.setItem('oldForever', JSON.stringify({ content: 'f', datetime: 0 }));
    expect(s.get('old')).toBe('o');
    now += 1_000;
    expect(s.get('old')).toBeNull();
    expect(backend.getItem('old')).toBeNull();
    expect(s.get('oldForever')).toBe('f');
    // an expiry that is no date reads as empty
    backend.setItem('bad', JSON.stringify({ content: 'b', datetime: '2025-13-45 99:00:00' }));
    expect(s.get('bad')).toBeNull();
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
