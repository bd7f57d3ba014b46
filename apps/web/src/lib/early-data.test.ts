import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { early, EARLY_MS, startEarly } from './early-data';

const answer = (body: unknown, ok = true) => Promise.resolve({ ok, json: () => Promise.resolve(body) } as Response);

describe('early data (a page’s first request started before its code)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    document.cookie = 'token=tok-1; path=/';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'token=; path=/; max-age=0';
    localStorage.clear();
  });

  it('sends the session’s token and language and hands the answer’s data to the page, once', async () => {
    localStorage.setItem('_lang', JSON.stringify({ content: 'en', datetime: 0 }));
    fetchMock.mockReturnValueOnce(answer({ code: 200, msg: 'ok', data: { day: '2026-11-27', students: [] } }));
    startEarly('flowBoard');
    expect(fetchMock).toHaveBeenCalledWith('/api/index/flowBoard', expect.objectContaining({ headers: { token: 'tok-1', lang: 'en' } }));
    const load = vi.fn().mockResolvedValue({ day: 'loaded', students: [] });
    expect(await early('flowBoard', load)).toEqual({ day: '2026-11-27', students: [] });
    expect(load).not.toHaveBeenCalled();
    // used: the next fetch (a refetch) goes the usual way
    expect(await early('flowBoard', load)).toEqual({ day: 'loaded', students: [] });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts nothing without a session', async () => {
    document.cookie = 'token=; path=/; max-age=0';
    startEarly('parentChildren');
    expect(fetchMock).not.toHaveBeenCalled();
    const load = vi.fn().mockResolvedValue({ list: [] });
    expect(await early('parentChildren', load)).toEqual({ list: [] });
  });

  it.each([
    ['an envelope other than 200 (an expired session)', () => answer({ code: 401, msg: 'untoken', data: null })],
    ['an HTTP error', () => answer(null, false)],
    ['a network failure', () => Promise.reject(new TypeError('offline'))],
  ])('%s: the page asks the usual way (and reports as usual)', async (_name, reply) => {
    fetchMock.mockReturnValueOnce(reply());
    startEarly('parentChildren');
    const load = vi.fn().mockRejectedValue(new Error('reported'));
    await expect(early('parentChildren', load)).rejects.toThrow('reported');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('an answer started too long ago is not used', async () => {
    fetchMock.mockReturnValueOnce(answer({ code: 200, msg: 'ok', data: { list: ['old'] } }));
    startEarly('parentChildren', 1_000);
    const load = vi.fn().mockResolvedValue({ list: ['fresh'] });
    expect(await early('parentChildren', load, () => 1_000 + EARLY_MS + 1)).toEqual({ list: ['fresh'] });
  });
});
