import NavBar from 'antd-mobile/es/components/nav-bar';
import type { UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { pick } from '../../i18n/messages';
import { usePreferences } from '../../stores/preferences';
import { phoneStrings } from '../strings';
import { usePhoneRoute } from './route-context';
import { OfflineBar, PhoneEmpty, PhoneError, PhoneLoading } from './states';

/**
 * Pull-to-refresh (antd-mobile's, with its spring and gesture code: ~15 KB) loads after the page's first paint: the
 * content is shown at once, the gesture works a moment later.
 */
const Pull = lazy(() => import('./pull'));

interface PhonePageProps {
  /** the title in the top bar (default: the route's) */
  title?: ReactNode;
  /** pull down to reload: what to refresh (the page's queries) */
  onRefresh?: () => Promise<unknown>;
  /** on the right of the top bar */
  right?: ReactNode;
  children: ReactNode;
}

/**
 * One phone page: the top bar (its title; a back arrow unless it is a tab's own page), the offline notice, and the
 * content, which pulls down to refresh when the page says what to refresh.
 */
export function PhonePage({ title, onRefresh, right, children }: PhonePageProps) {
  const t = phoneStrings.use();
  const lang = usePreferences((s) => s.lang);
  const route = usePhoneRoute();
  const navigate = useNavigate();
  const heading = title ?? (route ? pick(lang, route.title) : '');
  useEffect(() => {
    if (route) document.title = pick(lang, route.title);
  }, [route, lang]);
  const back = () => {
    // opened from a link (a WeChat message, a share card): no history inside the app, go to the tab's page
    if (window.history.length > 1 && (window.history.state as { idx?: number } | null)?.idx) navigate(-1);
    else navigate(route?.tabPath ?? '/m/', { replace: true });
  };
  return (
    <>
      <div className="m-top">
        <NavBar back={route?.root ? null : t('m.back')} backIcon={!route?.root} onBack={back} right={right}>
          {heading}
        </NavBar>
        <OfflineBar />
      </div>
      {onRefresh ? (
        <Suspense fallback={<div className="m-content">{children}</div>}>
          <Pull onRefresh={onRefresh}>
            <div className="m-content">{children}</div>
          </Pull>
        </Suspense>
      ) : (
        <div className="m-content">{children}</div>
      )}
    </>
  );
}

interface QueryViewProps<T> {
  query: UseQueryResult<T>;
  /** whether the answer has nothing to show */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  rows?: number;
  children: (data: T) => ReactNode;
}

/**
 * A query's four states on a phone: loading (grey rows), failed (message and retry; offline says so), empty, and the
 * content. A refetch that fails while data is shown keeps the data (the offline notice says it is not fresh).
 */
export function QueryView<T>({ query, isEmpty, empty, rows, children }: QueryViewProps<T>) {
  if (query.isPending) return <PhoneLoading rows={rows} />;
  if (query.data === undefined) return <PhoneError error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return typeof empty === 'string' || !empty ? <PhoneEmpty description={empty} /> : <>{empty}</>;
  return <>{children(query.data)}</>;
}
