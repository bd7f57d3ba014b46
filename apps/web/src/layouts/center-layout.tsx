import { Tabs } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { pick } from '../i18n/messages';
import { ROUTES } from '../router/route-table';
import { usePreferences } from '../stores/preferences';
import { PublicFrame } from './public-layout';

/** The lesson-prep centre (/principalCenter): header hidden, footer shown, its four screens as tabs. */
export default function CenterLayout() {
  const lang = usePreferences((s) => s.lang);
  const location = useLocation();
  const navigate = useNavigate();
  const tabs = ROUTES.filter((r) => r.area === 'center');
  return (
    <>
      <div style={{ maxWidth: 1200, margin: '0 auto', padding: '8px 16px 0' }}>
        <Tabs
          activeKey={location.pathname}
          // the chosen courseware (?id=) stays when changing tabs
          onChange={(key) => navigate(`${key}${location.search}`)}
          items={tabs.map((r) => ({ key: r.path, label: r.title ? pick(lang, r.title) : r.path }))}
        />
      </div>
      <PublicFrame hideHeader />
    </>
  );
}
