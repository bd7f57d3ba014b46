import { useCallback, useEffect, useRef, useState } from 'react';
import { CLICK_GUARD_MS } from '@wantuo/shared';

/**
 * Click guard (spec §5): after a click the action is disabled for 2000 ms, so a double tap sends one request.
 * Returns the guarded handler and whether it is currently disabled.
 */
export function useClickGuard<A extends unknown[]>(fn: (...args: A) => unknown, ms = CLICK_GUARD_MS): [(...args: A) => void, boolean] {
  const [disabled, setDisabled] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const locked = useRef(false);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const guarded = useCallback(
    (...args: A) => {
      if (locked.current) return;
      locked.current = true;
      setDisabled(true);
      timer.current = setTimeout(() => {
        locked.current = false;
        setDisabled(false);
      }, ms);
      fn(...args);
    },
    [fn, ms],
  );
  return [guarded, disabled];
}
