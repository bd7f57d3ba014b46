import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import Skeleton from 'antd-mobile/es/components/skeleton';
import ExclamationCircleOutline from 'antd-mobile-icons/es/ExclamationCircleOutline';
import FileOutline from 'antd-mobile-icons/es/FileOutline';
import type { ReactNode } from 'react';
import { phoneStrings } from '../strings';
import { useOnline } from './online';

/** Loading: the page's rows as grey bars (the shape of what is coming), announced to screen readers. */
export function PhoneLoading({ rows = 5 }: { rows?: number }) {
  const t = phoneStrings.use();
  return (
    <div className="m-section m-pad" role="status" aria-live="polite" aria-label={t('m.loading')}>
      <Skeleton.Title animated />
      <Skeleton.Paragraph lineCount={rows} animated />
      <div className="m-state" style={{ padding: 8 }}>
        <DotLoading color="primary" /> {t('m.loading')}
      </div>
    </div>
  );
}

/** A state in plain elements (antd-mobile's ErrorBlock carries 30 KB of illustrations): an icon, a title, more. */
function StateBlock({ icon, title, children, role }: { icon: ReactNode; title: ReactNode; children?: ReactNode; role?: string }) {
  return (
    <div className="m-section m-state" role={role}>
      <div className="m-state-icon" aria-hidden>
        {icon}
      </div>
      <div className="m-state-title">{title}</div>
      {children}
    </div>
  );
}

/** Nothing to show (yet). */
export function PhoneEmpty({ description, children }: { description?: ReactNode; children?: ReactNode }) {
  const t = phoneStrings.use();
  return (
    <StateBlock icon={<FileOutline />} title={description ?? t('m.empty')}>
      {children}
    </StateBlock>
  );
}

/** A load that failed: its message, and a retry; offline says so. */
export function PhoneError({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const t = phoneStrings.use();
  const online = useOnline();
  const message = !online ? t('m.offline_empty') : error instanceof Error ? error.message : undefined;
  return (
    <StateBlock icon={<ExclamationCircleOutline />} title={t('m.load_failed')} role="alert">
      {message && <div className="m-state-desc">{message}</div>}
      {onRetry && (
        <Button color="primary" onClick={onRetry}>
          {t('m.retry')}
        </Button>
      )}
    </StateBlock>
  );
}

/** The offline notice above a page showing what it last loaded. */
export function OfflineBar() {
  const t = phoneStrings.use();
  const online = useOnline();
  if (online) return null;
  return (
    <div className="m-offline" role="status">
      {t('m.offline')}
    </div>
  );
}
