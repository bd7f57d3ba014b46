import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import Selector from 'antd-mobile/es/components/selector';
import { Role } from '@wantuo/shared';
import { useNavigate } from 'react-router';
import { post } from '../../api/http';
import { PHONE_POLICY_PATHS } from '../../areas/privacy/links';
import { conversationsStrings } from '../../areas/conversations/strings';
import { privacyStrings } from '../../areas/privacy/strings';
import { usePreferences } from '../../stores/preferences';
import { useSession } from '../../stores/session';
import { phoneStrings } from '../strings';
import { forgetOfflineData, phoneBuild } from '../sw-register';
import { PhonePage } from '../ui/page';
import { ProfileCard } from './profile-card';
import { meStrings } from './strings';
import './me.css';

/** 我的: who is signed in, the pages that are not tabs, language, settings, the desktop version and signing out. */
export default function Me() {
  const t = phoneStrings.use();
  const mt = meStrings.use();
  const ps = privacyStrings.use();
  const cs = conversationsStrings.use();
  const user = useSession((s) => s.user);
  const clear = useSession((s) => s.clear);
  const { lang, setLang } = usePreferences();
  const navigate = useNavigate();
  const parent = user?.role === Role.Parent;
  const links: Array<{ to: string; label: string }> = parent
    ? [
        { to: '/m/parent_pickup', label: mt('me.pickup') },
        { to: '/m/parent_report', label: mt('me.report') },
        { to: '/m/parent_homework', label: mt('me.homework') },
        { to: '/m/parent_points', label: mt('me.points') },
        { to: '/m/parent_scores', label: mt('me.scores') },
        { to: '/m/parent_chat', label: cs('entry.parent') },
        { to: '/m/parent_notices', label: mt('me.notices') },
        { to: '/m/parent_privacy', label: ps('me.privacy') },
      ]
    : [
        { to: '/m/teacher_chats', label: cs('entry.staff') },
        { to: '/m/teacher_comments', label: mt('me.comments') },
        { to: '/m/teacher_pickup', label: mt('me.pickup_scan') },
      ];
  const signOut = async () => {
    if (!(await Dialog.confirm({ content: t('m.logout_confirm'), confirmText: t('m.ok'), cancelText: t('m.cancel') }))) return;
    await post('logout', undefined, { silent: true }).catch(() => undefined);
    clear();
    await forgetOfflineData();
    window.location.replace('/login');
  };
  return (
    <PhonePage>
      <ProfileCard who={user} />
      <List className="m-section">
        {links.map((l) => (
          <List.Item key={l.to} onClick={() => navigate(l.to)}>
            {l.label}
          </List.Item>
        ))}
        <List.Item onClick={() => navigate('/m/settings')}>{t('m.settings')}</List.Item>
        <List.Item onClick={() => navigate(PHONE_POLICY_PATHS.privacy)}>{ps('me.policies')}</List.Item>
      </List>
      <List className="m-section" header={t('m.language')}>
        <List.Item>
          <Selector
            columns={2}
            value={[lang]}
            options={[
              { label: '中文', value: 'zh-CN' },
              { label: 'English', value: 'en' },
            ]}
            onChange={(v) => v[0] && setLang(v[0] as 'zh-CN' | 'en')}
          />
        </List.Item>
      </List>
      <List className="m-section">
        <List.Item
          description={t('m.desktop_hint')}
          onClick={() => window.location.assign(parent ? '/parent?desktop=1' : '/teacher_today?desktop=1')}
        >
          {t('m.desktop')}
        </List.Item>
        <List.Item onClick={() => void signOut()}>
          <span style={{ color: 'var(--adm-color-danger)' }}>{t('m.logout')}</span>
        </List.Item>
      </List>
      {/* the release this phone runs, for support staff */}
      <div className="m-build" style={{ padding: '12px 16px', textAlign: 'center', fontSize: 12, color: 'var(--adm-color-weak)' }}>
        {t('m.build')} {phoneBuild() ?? '-'}
      </div>
    </PhonePage>
  );
}
