/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { actionOf, OFFLINE_DATA_CACHE, OFFLINE_NETWORK_TIMEOUT_S, OFFLINE_READS } from './sw-rules';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// a new release waits until the page says to take over (sw-register.ts: at once when it was found as the app opened,
// else when the user leaves the page), then claims the open pages, which reload onto it; the first install has no
// page of an older release to wait for and controls the page that installed it at once
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
cleanupOutdatedCaches();
// the phone shell and every phone page's code (the build's list of its own files, with their hashes)
precacheAndRoute(self.__WB_MANIFEST);
// every phone route opens from the precached m.html, with or without a network
registerRoute(new NavigationRoute(createHandlerBoundToURL('/m.html'), { allowlist: [/^\/m(\/|$)/] }));

/** A short digest of the session's token: a copy of one account's answer is never shown to another on this phone. */
async function sessionTag(request: Request): Promise<string> {
  const token = request.headers.get('token') ?? '';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && OFFLINE_READS.includes(actionOf(url.pathname) ?? ''),
  new NetworkFirst({
    cacheName: OFFLINE_DATA_CACHE,
    networkTimeoutSeconds: OFFLINE_NETWORK_TIMEOUT_S,
    plugins: [
      {
        cacheKeyWillBeUsed: async ({ request }) => {
          const url = new URL(request.url);
          url.searchParams.set('__session', await sessionTag(request));
          return url.href;
        },
        // only a successful envelope is kept (an expired session's answer is not a copy worth showing)
        cacheWillUpdate: async ({ response }) => {
          if (!response.ok) return null;
          const body = (await response
            .clone()
            .json()
            .catch(() => null)) as { code?: number } | null;
          return body?.code === 200 ? response : null;
        },
      },
      new ExpirationPlugin({ maxEntries: 40, maxAgeSeconds: 24 * 3600 }),
    ],
  }),
);
