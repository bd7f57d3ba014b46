import { Card, Empty, Typography } from 'antd';
import { useMatches } from 'react-router';
import { pick } from '../i18n/messages';
import type { RouteHandle } from '../router/router';
import { usePreferences, useT } from '../stores/preferences';

/**
 * A screen whose module is not built yet: its title, its place in the menu, and an honest empty state
 * saying which data will appear here. Nothing invented.
 */
export default function Pending() {
  const t = useT();
  const lang = usePreferences((s) => s.lang);
  const match = [...useMatches()].reverse().find((m) => (m.handle as RouteHandle | undefined)?.def);
  const def = (match?.handle as RouteHandle).def!;
  const title = def.title ? pick(lang, def.title) : '';
  return (
    <Card title={<Typography.Title level={4} style={{ margin: 0 }}>{title}</Typography.Title>}>
      {def.menu && (
        <Typography.Paragraph type="secondary">
          {t('pending.menu')} {pick(lang, def.menu)} / {title}
        </Typography.Paragraph>
      )}
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <Typography.Text strong>{t('pending.title')}</Typography.Text>
            <br />
            <Typography.Text>
              {t('pending.lead')}
              {def.shows ? pick(lang, def.shows) : ''}
            </Typography.Text>
          </>
        }
      />
    </Card>
  );
}
