import { QueryClient } from '@tanstack/react-query';

/** One cache for every screen; provided by the layouts, so the sign-in page does not load it. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
