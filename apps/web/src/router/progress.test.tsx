import NProgress from 'nprogress';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_BAR_MS, useNavigationProgress } from './router';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Probe({ navigating, k }: { navigating: boolean; k: string }) {
  useNavigationProgress(navigating, k);
  return null;
}

describe('navigation progress bar (spec §2)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it('starts on every navigation, also one with nothing to load (cached chunk), and ends after it', async () => {
    vi.useFakeTimers();
    const start = vi.spyOn(NProgress, 'start');
    const done = vi.spyOn(NProgress, 'done');
    const el = document.createElement('div');
    document.body.appendChild(el);
    let root: Root | null = null;
    const show = (navigating: boolean, k: string) => act(async () => (root ??= createRoot(el)).render(<Probe navigating={navigating} k={k} />));
    await show(false, 'a');
    expect(start).not.toHaveBeenCalled();
    // a route whose code must load: the bar runs while loading, ends when it is there
    await show(true, 'a');
    expect(start).toHaveBeenCalledTimes(1);
    await show(false, 'b');
    await act(async () => vi.advanceTimersByTime(MIN_BAR_MS));
    expect(done).toHaveBeenCalled();
    // a cached route: the location changes with no loading state, and the bar still shows, then ends
    start.mockClear();
    done.mockClear();
    await show(false, 'c');
    expect(start).toHaveBeenCalledTimes(1);
    expect(done).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(MIN_BAR_MS));
    expect(done).toHaveBeenCalledTimes(1);
  });
});
