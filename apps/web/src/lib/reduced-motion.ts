import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

/** Whether the user asked the system for reduced motion (an accessibility setting; also how the browser journeys run). */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && (window.matchMedia?.(QUERY).matches ?? false);
}

function subscribe(onChange: () => void): () => void {
  const list = typeof window === 'undefined' ? undefined : window.matchMedia?.(QUERY);
  list?.addEventListener?.('change', onChange);
  return () => list?.removeEventListener?.('change', onChange);
}

/** The setting as a hook: follows the system when it changes. antd's motion is off while it is on. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
