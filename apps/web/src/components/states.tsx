import { Button, Empty, Spin } from 'antd';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
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

interface ResultProps {
  status?: 'warning';
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
}

/** The failure state in plain elements: while antd's Result loads, or instead of it when it cannot (offline). */
function PlainResult({ title, subTitle, extra }: ResultProps) {
  return (
    <div style={{ padding: 48, textAlign: 'center' }} role="alert">
      <div style={{ fontSize: 16, marginBottom: 8 }}>{title}</div>
      {subTitle && <div style={{ marginBottom: 16 }}>{subTitle}</div>}
      {extra}
    </div>
  );
}

/** antd's Result (with its illustrations) is loaded when a page first fails, not with every page's code. */
const Result = lazy((): Promise<{ default: ComponentType<ResultProps> }> =>
  import('antd/es/result').then(
    ({ default: AntResult }) => ({ default: (p: ResultProps) => <AntResult {...p} /> }),
    () => ({ default: PlainResult }),
  ),
);

export function LoadError({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  const t = useT();
  const retry = onRetry && <Button onClick={onRetry}>{t('common.retry')}</Button>;
  return (
    <Suspense fallback={<PlainResult title={t('common.load_failed')} subTitle={message} extra={retry} />}>
      <Result status="warning" title={t('common.load_failed')} subTitle={message} extra={retry} />
    </Suspense>
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
