import { cookies, StorageKey } from '../lib/storage';
import { currentLang } from '../stores/preferences';
import { actionOf, OFFLINE_DATA_CACHE, OFFLINE_READS } from './sw-rules';
import { phoneStrings } from './strings';

const UPDATED = '_m_updated';

/**
 * When a waiting release should take over (the page then reloads onto it): at once while the user has not touched
 * this page yet (it was found as the app opened) or while the page is hidden; else (the user is busy: a reload would
 * lose what they were doing) when the page is next hidden.
 */
export function takeOverNow(touched: boolean, hidden: boolean): boolean {
  return hidden || !touched;
}

/**
 * The offline reads this page made before the worker controlled it (its first visit: the page's own requests went
 * straight to the network), asked again through the worker so that it keeps them: the first visit's board opens
 * offline too. Answers the URLs asked.
 */
export function keepFirstReads(): string[] {
  const token = cookies.get(StorageKey.token);
  if (!token) return [];
  const urls = new Set(
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((u) => {
        const url = new URL(u);
        return url.origin === window.location.origin && OFFLINE_READS.includes(actionOf(url.pathname) ?? '');
      }),
  );
  for (const u of urls) void fetch(u, { headers: { token, lang: currentLang() }, credentials: 'same-origin' }).catch(() => undefined);
  return [...urls];
}

/**
 * The phone app's service worker (sw.ts, built by vite-plugin-pwa with the phone's files precached): registered for
 * /m/ in production builds, after the page's load (it precaches the whole phone app: not in the first screen's way).
 * A new release reaches the phone on its next open: the browser finds the new sw.js as the page opens, the new worker
 * installs the new shell, is told to take over, and the page reloads once onto it (saying so), so no stale shell stays
 * after a release.
 */
export function registerPhoneWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (sessionStorage.getItem(UPDATED)) {
    sessionStorage.removeItem(UPDATED);
    // the toast's code (with its animation) loads only for this once-per-release notice
    void import('antd-mobile/es/components/toast').then(({ default: Toast }) => Toast.show({ content: phoneStrings.t('m.updated'), duration: 2000 }));
  }
  let touched = false;
  const touch = () => {
    touched = true;
  };
  for (const type of ['pointerdown', 'keydown'] as const) window.addEventListener(type, touch, { capture: true, once: true, passive: true });
  // workbox-window loads with the worker's registration, after the first screen's code
  void import('workbox-window').then(({ Workbox }) => startWorker(new Workbox('/sw.js', { scope: '/m/' }), () => touched));
}

function startWorker(wb: import('workbox-window').Workbox, touched: () => boolean): void {
  let asked = false;
  const takeOver = () => {
    if (asked) return;
    asked = true;
    wb.messageSkipWaiting();
  };
  const onWaiting = () => {
    if (takeOverNow(touched(), document.visibilityState === 'hidden')) return takeOver();
    const onHidden = () => {
      if (document.visibilityState !== 'hidden') return;
      document.removeEventListener('visibilitychange', onHidden);
      takeOver();
    };
    document.addEventListener('visibilitychange', onHidden);
  };
  wb.addEventListener('waiting', onWaiting);
  wb.addEventListener('controlling', (e) => {
    // the first install takes over a page already showing the current shell: nothing to reload; what it read is
    // asked again, to be kept for offline use
    if (!e.isUpdate) {
      keepFirstReads();
      return;
    }
    sessionStorage.setItem(UPDATED, '1');
    window.location.reload();
  });
  void wb
    .register()
    .then((reg) => {
      // a new release the browser started installing before this page registered (its check as the page opened)
      const installing = reg?.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed' && reg?.waiting === installing) onWaiting();
      });
      // and ask for sw.js now: a page opened from the home screen is not always a navigation the browser checks on
      return reg && !installing && !reg.waiting ? wb.update() : undefined;
    })
    .catch(() => {});
}

/** Drops the copies of API answers kept for offline use (sign-out, another account signing in on this phone). */
export async function forgetOfflineData(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(OFFLINE_DATA_CACHE).catch(() => false);
}

/** The release this page runs (m.html's `<meta name="wantuo-build">`, written by the phone build), or null. */
export function phoneBuild(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="wantuo-build"]')?.content || null;
}
