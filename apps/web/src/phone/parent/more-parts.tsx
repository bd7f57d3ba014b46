import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ParentChild } from '@wantuo/shared';
import type { ReactNode } from 'react';
import { useParentChildren } from '../../areas/parent/children';
import { useChosenChild } from '../../areas/parent/chosen-child';
import { PhoneEmpty, PhoneError, PhoneLoading } from '../ui/states';
import { PhoneChildSwitcher } from './child-switcher';
import { moreStrings } from './more-strings';
import '../me/me.css';
import './more.css';

/**
 * The per-child parent pages' first step on a phone: the guardian's children (loading, failed, none), the switcher when
 * there are two or more, and the page for the child chosen (remembered across the pages: chosen-child.ts).
 */
export function ChildGate({ empty, children }: { empty: string; children: (kid: ParentChild, kids: ParentChild[]) => ReactNode }) {
  const q = useParentChildren();
  const kids = q.data?.list ?? [];
  const [kid, choose] = useChosenChild(kids);
  if (q.isPending) return <PhoneLoading rows={3} />;
  if (!q.data) return <PhoneError error={q.error} onRetry={() => void q.refetch()} />;
  if (!kid) return <PhoneEmpty description={empty} />;
  return (
    <>
      <PhoneChildSwitcher kids={kids} value={kid.id} onChange={choose} />
      {children(kid, kids)}
    </>
  );
}

/**
 * The foot of a server-paged list: the next page asked for as the list's end scrolls into view (InfiniteScroll), a
 * failed page retried by a tap, "no more" at the end. Renders nothing until the first page is in.
 */
export function MorePages<T>({ query }: { query: UseInfiniteQueryResult<InfiniteData<T>> }) {
  const t = moreStrings.use();
  if (!query.data) return null;
  return (
    <InfiniteScroll
      className="m-more"
      hasMore={query.hasNextPage}
      loadMore={async () => {
        const r = await query.fetchNextPage();
        if (r.isError) throw r.error;
      }}
    >
      {(hasMore, failed, retry) =>
        failed ? (
          <button type="button" className="m-more-retry" onClick={() => void retry()}>
            {t('pm.load_more_failed')}
          </button>
        ) : hasMore ? (
          <span>{t('pm.loading_more')}…</span>
        ) : (
          <span>{t('pm.no_more')}</span>
        )
      }
    </InfiniteScroll>
  );
}
