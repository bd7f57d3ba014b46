import { QueryClient } from '@tanstack/react-query';
import type { GetAction, GetInput, PostAction, PostInput } from '@wantuo/shared';

/** One cache for every screen; provided by the layouts, so the sign-in page does not load it. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** An infinite list's next page from the server's page answer (Page<T>): the next number, or undefined at the end. */
export const nextPageOf = (last: { page: number; limit: number; total: number }): number | undefined =>
  last.page * last.limit < last.total ? last.page + 1 : undefined;

/** A read's action: a GET, or a read declared as POST (postRead). */
export type QueryAction = GetAction | PostAction;
type QueryInput<K extends QueryAction> = K extends GetAction ? GetInput<K> : K extends PostAction ? PostInput<K> : never;

/**
 * The cache key of a read: its action, then its input (`['contractList', { page: 2 }]`), so a write invalidates every
 * read of an action by the key's first element (`queryKey('contractList')` is the prefix of them all).
 */
export function queryKey<K extends QueryAction>(action: K, input?: QueryInput<K>): readonly unknown[] {
  return input === undefined ? [action] : [action, input];
}
