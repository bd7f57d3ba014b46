import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefersReducedMotion } from './reduced-motion';

describe('prefersReducedMotion', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['the system asks for reduced motion', true, true],
    ['the system does not', false, false],
  ])('%s', (_, matches, expected) => {
    const matchMedia = vi.fn((query: string) => ({ matches, media: query }));
    vi.stubGlobal('window', { matchMedia });
    expect(prefersReducedMotion()).toBe(expected);
    expect(matchMedia).toHaveBeenCalledWith('(prefers-reduced-motion: reduce)');
  });

  it('is off where there is no window or no matchMedia (server render, old browsers)', () => {
    vi.stubGlobal('window', undefined);
    expect(prefersReducedMotion()).toBe(false);
    vi.stubGlobal('window', {});
    expect(prefersReducedMotion()).toBe(false);
  });
});
