import { useEffect } from 'react';

/**
 * Departures verified offline on this phone (queued with their verified_at) go to the API when the page opens and
 * whenever the network comes back; `reload` runs when some were recorded. The teacher pages that scan codes use it.
 * The queue's code (with the codes' signature check, ~13 KB) loads after the page's first paint, not with it.
 */
export function useQueuedPickups(reload: () => unknown): void {
  useEffect(() => {
    const back = () => {
      void import('./verify').then(({ flushQueue, queuedCount }) => {
        if (queuedCount() > 0) void flushQueue().then((r) => (r.sent ? reload() : undefined));
      });
    };
    window.addEventListener('online', back);
    back();
    return () => window.removeEventListener('online', back);
  }, [reload]);
}
