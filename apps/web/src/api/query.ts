import { QueryClient } from '@tanstack/react-query';

/** One cache for every screen; provided by the layouts, so the sign-in page does not load it. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** An infinite list's next page from the server's page answer (Page<T>): the next number, or undefined at the end. */
export const nextPageOf = (last: { page: number; limit: number; total: number }): number | undefined =>
  last.page * last.limit < last.total ? last.page + 1 : undefined;
