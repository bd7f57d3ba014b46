import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootEarly, PHONE_HOMES } from './boot';

describe('boot: the phones’ first screens start their code and data at once', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn().mockReturnValue(new Promise(() => {}));
    vi.stubGlobal('fetch', fetchMock);
    for (const home of Object.values(PHONE_HOMES)) vi.spyOn(home, 'code').mockReturnValue([Promise.resolve()]);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.cookie = 'token=; path=/; max-age=0';
  });

  it.each([
    ['/teacher_today', '/api/index/flowBoard'],
    ['/parent', '/api/index/parentChildren'],
  ])('%s with a session: its chunks and %s', (path, url) => {
    document.cookie = 'token=t; path=/';
    expect(bootEarly(path)).toBe(true);
    expect(PHONE_HOMES[path].code).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(url, expect.anything());
  });

  it('nothing without a session (the guard sends the visitor to sign-in) or on another page', () => {
    expect(bootEarly('/teacher_today')).toBe(false);
    document.cookie = 'token=t; path=/';
    expect(bootEarly('/principalIndex')).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(PHONE_HOMES['/teacher_today'].code).not.toHaveBeenCalled();
  });
});
