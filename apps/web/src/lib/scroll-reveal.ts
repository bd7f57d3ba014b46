import { SCROLL_ANIMATION } from '@wantuo/shared';
import { useEffect } from 'react';
import { prefersReducedMotion } from './reduced-motion';

let started: Promise<{ refresh(hard?: boolean): void }> | null = null;

/**
 * Scroll animations of the public pages (spec §9: offset 120, delay 0, duration 400, easing ease, throttle 99,
 * debounce 50) with AOS, loaded by the public pages only. Elements opt in with `data-aos="fade-up"`; the hook refreshes
 * AOS once the page's elements are in the document (call it with what the page's content depends on). A visitor who
 * asked for reduced motion gets none.
 */
export function useScrollReveal(...deps: unknown[]): void {
  useEffect(() => {
    if (typeof window === 'undefined') return;
    const reduced = prefersReducedMotion();
    started ??= Promise.all([import('aos'), import('aos/dist/aos.css')]).then(([m]) => {
      const aos = m.default;
      aos.init({ ...SCROLL_ANIMATION, once: true, disable: reduced });
      return aos;
    });
    void started.then((aos) => aos.refresh(true));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
