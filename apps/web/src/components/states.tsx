import { Button, Empty, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useT } from '../stores/preferences';

/** The three states every page has besides its content. */
export function Loading() {
  const t = useT();
  return (
    <div style={{ padding: 48, textAlign: 'center' }} role="status" aria-live="polite">
      <Spin description={t('common.loading')} />
    </div>
  );
}

export function LoadError({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  const t = useT();
  return (
    <Result
      status="warning"
      title={t('common.load_failed')}
      subTitle={message}
      extra={onRetry && <Button onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}

export function EmptyState({ description, children }: { description?: ReactNode; children?: ReactNode }) {
  const t = useT();
  return (
    <Empty description={description ?? t('common.empty')} style={{ padding: '32px 0' }}>
      {children}
    </Empty>
  );
}
