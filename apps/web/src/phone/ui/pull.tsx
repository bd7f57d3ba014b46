import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import type { ReactNode } from 'react';
import { phoneStrings } from '../strings';

/** The page's pull-down-to-reload (loaded after the first paint: ui/page.tsx). */
export default function Pull({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  const t = phoneStrings.use();
  return (
    <PullToRefresh
      onRefresh={async () => {
        await onRefresh();
      }}
      pullingText={t('m.pull')}
      canReleaseText={t('m.release')}
      refreshingText={t('m.refreshing')}
      completeText={t('m.refreshed')}
    >
      {children}
    </PullToRefresh>
  );
}
