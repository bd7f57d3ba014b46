import Toast from 'antd-mobile/es/components/toast';
import { Workbox } from 'workbox-window';
import { OFFLINE_DATA_CACHE } from './sw-rules';
import { phoneStrings } from './strings';

const UPDATED = '_m_updated';

/**
 * The phone app's service worker (sw.ts, built by vite-plugin-pwa with the phone's files precached): registered for
 * /m/ in production builds. A new release reaches the phone on its next open: the browser finds the new sw.js, the
 * new worker installs the new shell and takes over at once, and the page reloads once onto it (saying so), so no
 * stale shell stays after a release.
 */
export function registerPhoneWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (sessionStorage.getItem(UPDATED)) {
    sessionStorage.removeItem(UPDATED);
    Toast.show({ content: phoneStrings.t('m.updated'), duration: 1500 });
  }
  const wb = new Workbox('/sw.js', { scope: '/m/' });
  wb.addEventListener('controlling', (e) => {
    // the first install takes over a page already showing the current shell: nothing to reload
    if (!e.isUpdate) return;
    sessionStorage.setItem(UPDATED, '1');
    window.location.reload();
  });
  void wb.register().catch(() => {});
}

/** Drops the copies of API answers kept for offline use (sign-out, another account signing in on this phone). */
export async function forgetOfflineData(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(OFFLINE_DATA_CACHE).catch(() => false);
}
