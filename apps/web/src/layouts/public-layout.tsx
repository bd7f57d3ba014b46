import { Button, Drawer } from 'antd';
import { useState } from 'react';
import { Link, NavLink, Outlet, useMatches } from 'react-router';
import { ICP_URL, policeFilingUrl, POLICY_PATHS, policyLinkStrings } from '../areas/privacy/links';
import { QueryProvider } from '../components/query-provider';
import { UserMenu } from '../components/user-menu';
import type { RouteHandle } from '../router/router';
import { HOME_OF } from '../router/route-table';
import { usePageConfig } from '../stores/page-config';
import { useT } from '../stores/preferences';
import { useSession } from '../stores/session';
import './public-layout.css';

const DEFAULT_NAV = [
  { title: '首页', path: '/home' },
  { title: '资源下载', path: '/resource' },
  { title: '关于我们', path: '/about' },
];

/** The public site: dark header with the operator's navigation, dark footer, a 60vw menu panel on phones. */
export function PublicFrame({ hideHeader = false }: { hideHeader?: boolean }) {
  const t = useT();
  const pl = policyLinkStrings.use();
  const config = usePageConfig((s) => s.config);
  const user = useSession((s) => s.user);
  const [open, setOpen] = useState(false);
  const nav = config?.nav.length ? config.nav : DEFAULT_NAV;
  const siteName = config?.site_name ?? t('app.name');

  const actions = user ? (
    <>
      <Link to={HOME_OF[user.role]}>
        <Button type="primary" size="small">
          {t('nav.console')}
        </Button>
      </Link>
      <UserMenu dark />
    </>
  ) : (
    <Link to="/login">
      <Button type="primary" size="small">
        {t('nav.login')}
      </Button>
    </Link>
  );

  return (
    <div className="pub">
      {!hideHeader && (
        <header className="pub-header">
          <div className="pub-bar">
            <Link to="/home" className="pub-brand">
              {config?.logo && <img src={config.logo} alt="" />}
              {siteName}
            </Link>
            <nav className="pub-nav">
              {nav.map((n) => (
                <NavLink key={n.path} to={n.path}>
                  {n.title}
                </NavLink>
              ))}
            </nav>
            <div className="pub-actions">{actions}</div>
            <button type="button" className="pub-burger" aria-label={t('nav.menu')} onClick={() => setOpen(true)}>
              ☰
            </button>
          </div>
        </header>
      )}
      <main className="pub-main">
        <QueryProvider>
          <Outlet />
        </QueryProvider>
      </main>
      <footer className="pub-footer">
        <div className="pub-footer-inner">
          <div>
            <strong>{siteName}</strong>
            <p>{config?.footer.text}</p>
            <p className="pub-footer-links">
              <Link to={POLICY_PATHS.privacy}>{pl('link.privacy')}</Link>
              <Link to={POLICY_PATHS.children}>{pl('link.children')}</Link>
            </p>
            <Filings icp={config?.footer.icp} police={config?.footer.police_filing} />
          </div>
          <div>
            {config?.contact.phone && <p>☎ {config.contact.phone}</p>}
            {config?.contact.email && <p>✉ {config.contact.email}</p>}
            {config?.contact.address && <p>{config.contact.address}</p>}
          </div>
        </div>
      </footer>
      <Drawer open={open} onClose={() => setOpen(false)} placement="right" rootClassName="pub-menu-panel" title={siteName}>
        {nav.map((n) => (
          <Link key={n.path} to={n.path} onClick={() => setOpen(false)}>
            {n.title}
          </Link>
        ))}
        <Link to={user ? HOME_OF[user.role] : '/login'} onClick={() => setOpen(false)}>
          {user ? t('nav.console') : t('nav.login')}
        </Link>
      </Drawer>
    </div>
  );
}

/** The site's filings: the ICP number (MIIT's lookup) and the public-security one (its lookup by the number's digits). */
export function Filings({ icp, police }: { icp: string | null | undefined; police: string | null | undefined }) {
  const policeUrl = policeFilingUrl(police);
  if (!icp && !police) return null;
  return (
    <p className="pub-filings">
      {icp && (
        <a href={ICP_URL} target="_blank" rel="noopener noreferrer" data-testid="icp-link">
          <small>{icp}</small>
        </a>
      )}
      {police &&
        (policeUrl ? (
          <a href={policeUrl} target="_blank" rel="noopener noreferrer" data-testid="police-filing-link">
            <small>{police}</small>
          </a>
        ) : (
          <small>{police}</small>
        ))}
    </p>
  );
}

export default function PublicLayout() {
  const matches = useMatches();
  const hideHeader = matches.some((m) => (m.handle as RouteHandle | undefined)?.def?.hideHeader);
  return <PublicFrame hideHeader={hideHeader} />;
}
