import { useEffect } from 'react';
import { flushQueue, queuedCount } from './verify';

/**
 * Departures verified offline on this phone (queued with their verified_at) go to the API when the page opens and
 * whenever the network comes back; `reload` runs when some were recorded. The teacher pages that scan codes use it.
 */
export function useQueuedPickups(reload: () => unknown): void {
  useEffect(() => {
    const back = () => {
      if (queuedCount() > 0) void flushQueue().then((r) => (r.sent ? reload() : undefined));
    };
    window.addEventListener('online', back);
    back();
    return () => window.removeEventListener('online', back);
  }, [reload]);
}
