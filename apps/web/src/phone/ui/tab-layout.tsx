import TabBar from 'antd-mobile/es/components/tab-bar';
import AppOutline from 'antd-mobile-icons/es/AppOutline';
import MessageOutline from 'antd-mobile-icons/es/MessageOutline';
import PayCircleOutline from 'antd-mobile-icons/es/PayCircleOutline';
import TeamOutline from 'antd-mobile-icons/es/TeamOutline';
import UnorderedListOutline from 'antd-mobile-icons/es/UnorderedListOutline';
import UserOutline from 'antd-mobile-icons/es/UserOutline';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Role } from '@wantuo/shared';
import { pick } from '../../i18n/messages';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { TABS, type TabKey } from '../route-table';

const ICONS: Record<TabKey, ReactNode> = {
  teacher_today: <AppOutline />,
  teacher_shuttle: <TeamOutline />,
  teacher_tutor: <UnorderedListOutline />,
  teacher_me: <UserOutline />,
  parent: <AppOutline />,
  parent_pay: <PayCircleOutline />,
  parent_messages: <MessageOutline />,
  parent_me: <UserOutline />,
};

/** The bottom tab bar of the signed-in user's kind (staff or parent), `active` highlighted; fixed above the home indicator. */
export function TabLayout({ active, children }: { active: TabKey | null; children: ReactNode }) {
  const lang = usePreferences((s) => s.lang);
  const role = useSession((s) => s.user?.role);
  const navigate = useNavigate();
  const tabs = role === Role.Parent ? TABS.parent : role === Role.Teacher || role === Role.HeadTeacher ? TABS.staff : null;
  return (
    <div className="m-app">
      <main className={tabs ? 'm-main' : 'm-main m-no-tabs'}>{children}</main>
      {tabs && (
        <nav className="m-tabbar" aria-label="tabs">
          <TabBar
            activeKey={active}
            safeArea={false}
            onChange={(key) => {
              const tab = tabs.find((t) => t.key === key);
              if (tab) navigate(tab.path);
            }}
          >
            {tabs.map((t) => (
              <TabBar.Item key={t.key} icon={ICONS[t.key]} title={pick(lang, t.title)} />
            ))}
          </TabBar>
        </nav>
      )}
    </div>
  );
}
