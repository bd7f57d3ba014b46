import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import { post } from '../api/http';
import { LANGS } from '../i18n/messages';
import { usePreferences, useT } from '../stores/preferences';
import { useSession } from '../stores/session';

/** Avatar menu of every console: settings, language, night mode, sign out. */
export function UserMenu({ dark = false }: { dark?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const clear = useSession((s) => s.clear);
  const { lang, setLang, dark: night, setDark } = usePreferences();
  if (!user) return null;

  const items: MenuProps['items'] = [
    { key: 'settings', label: t('nav.settings') },
    {
      key: 'lang',
      label: t('settings.language'),
      children: LANGS.map((l) => ({ key: `lang:${l.value}`, label: l.label, disabled: l.value === lang })),
    },
    { key: 'night', label: `${t('settings.night_mode')} (${t('settings.beta')}) ${night ? '✓' : ''}` },
    { type: 'divider' },
    { key: 'logout', label: t('nav.logout'), danger: true },
  ];
  const onClick: MenuProps['onClick'] = async ({ key }) => {
    if (key === 'settings') navigate('/settings');
    else if (key.startsWith('lang:')) setLang(key.slice(5) as 'zh-CN' | 'en');
    else if (key === 'night') setDark(!night);
    else if (key === 'logout') {
      await post('logout', {}, { silent: true }).catch(() => undefined);
      clear();
      navigate('/login', { replace: true });
    }
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <button
        type="button"
        aria-label={t('nav.settings')}
        style={{
          background: 'none',
          border: 0,
          cursor: 'pointer',
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          color: dark ? '#fff' : 'inherit',
          padding: 0,
        }}
      >
        <Avatar src={user.avatar_text || undefined} style={{ backgroundColor: '#1677ff' }}>
          {user.nickname.slice(0, 1)}
        </Avatar>
        <span className="user-menu-name">{user.nickname}</span>
      </button>
    </Dropdown>
  );
}
