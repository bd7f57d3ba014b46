// jsdom has no matchMedia; antd's responsive hooks need one
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no ResizeObserver; antd's tabs, segmented and tables observe their size
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// the consoles' feedback (antd's), as main.tsx gives it; the phone app's tests set their own
import { setFeedbackLoader } from './api/feedback';
setFeedbackLoader(() => import('./api/antd-feedback').then((m) => m.antdFeedback));

// every root mount() made is unmounted after each test, inside act, and the body emptied: antd's delayed popups cancel their
// timers on unmount, so none fires after the file's jsdom is gone ("window is not defined")
import { afterEach } from 'vitest';
import { unmountAll } from './test-utils';
afterEach(async () => {
  await unmountAll();
  document.body.innerHTML = '';
});
