import { useQuery, type QueryKey } from '@tanstack/react-query';
import type { PickupCodeAnswer } from '@wantuo/shared';
import { useEffect, useState } from 'react';

/**
 * A rotating pick-up code (the guardian's, or a pick-up person's by link): asked for again when its 30 s window ends,
 * and the seconds left of the window, ticking. The desktop's card and the phone's page draw it.
 */
export function usePickupCode(queryKey: QueryKey, load: () => Promise<PickupCodeAnswer>) {
  const q = useQuery({
    queryKey,
    queryFn: load,
    refetchInterval: (query) => Math.max(1000, Date.parse(query.state.data?.window_ends_at ?? '') - Date.now() || 30_000),
    retry: false,
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const secondsLeft = q.data ? Math.max(0, Math.ceil((Date.parse(q.data.window_ends_at) - now) / 1000)) : 0;
  return { q, secondsLeft };
}
