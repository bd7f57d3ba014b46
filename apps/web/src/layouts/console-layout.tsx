import { Button, Drawer, Grid, Layout, Menu, theme, Typography, type MenuProps } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { PhoneOffer } from '../components/phone-offer';
import { QueryProvider } from '../components/query-provider';
import { UserMenu } from '../components/user-menu';
import { pick, type Bilingual } from '../i18n/messages';
import { MENU_ORDER, ROUTES, type Area } from '../router/route-table';
import { usePreferences, useT } from '../stores/preferences';
import { usePageConfig } from '../stores/page-config';

/** The admin's renewal banner (loaded only in the admin's console). */
const RenewalBanner = lazy(() => import('../areas/money/renewal-banner'));

/** The side menu of an area, built from the route table: groups in table order, entries with a menu group. */
function useAreaMenu(area: Area): MenuProps['items'] {
  const lang = usePreferences((s) => s.lang);
  return useMemo(() => {
    const groups = new Map<string, { label: Bilingual; items: { key: string; label: string }[] }>();
    for (const r of ROUTES) {
      if (r.area !== area || !r.menu || !r.title) continue;
      const g = groups.get(r.menu.zh) ?? { label: r.menu, items: [] };
      g.items.push({ key: r.path, label: pick(lang, r.menuTitle ?? r.title) });
      groups.set(r.menu.zh, g);
    }
    const rank = (g: Bilingual) => MENU_ORDER.findIndex((m) => m.zh === g.zh);
    return [...groups.values()]
      .sort((a, b) => rank(a.label) - rank(b.label))
      .map((g) => ({ type: 'group' as const, key: g.label.zh, label: pick(lang, g.label), children: g.items }));
  }, [area, lang]);
}

/**
 * The signed-in consoles (admin, head teacher, teacher, parent, operator): side menu from the route table on
 * wide screens, a drawer on phones (375 px), user menu top right.
 */
/** A menu entry that leaves the app (opens in a new tab), e.g. the operators' queue board served by the API. */
export interface ExternalLink {
  href: string;
  label: Bilingual;
}

export function ConsoleLayout({ area, brand, links = [] }: { area: Area; brand: Bilingual; links?: ExternalLink[] }) {
  const t = useT();
  const lang = usePreferences((s) => s.lang);
  const siteName = usePageConfig((s) => s.config?.site_name) ?? t('app.name');
  const screens = Grid.useBreakpoint();
  const phone = !screens.md;
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const areaItems = useAreaMenu(area);
  const items = useMemo<MenuProps['items']>(
    () =>
      links.length
        ? [
            ...(areaItems ?? []),
            { type: 'group', key: 'links', label: t('nav.tools'), children: links.map((l) => ({ key: l.href, label: `${pick(lang, l.label)} ↗` })) },
          ]
        : areaItems,
    [areaItems, links, lang, t],
  );
  const { token } = theme.useToken();

  const menu = (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={[location.pathname]}
      onClick={({ key }) => {
        setOpen(false);
        if (links.some((l) => l.href === key)) window.open(key, '_blank', 'noopener');
        else navigate(key);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!phone && (
        <Layout.Sider
          width={220}
          theme="light"
          style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}`, position: 'sticky', top: 0, height: '100vh', overflowY: 'auto' }}
        >
          <div style={{ height: 56, display: 'flex', alignItems: 'center', padding: '0 20px', fontWeight: 600 }}>
            <Link to="/home" style={{ color: token.colorText }}>
              {siteName}
            </Link>
          </div>
          {menu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            padding: phone ? '0 12px' : '0 24px',
            height: 56,
            lineHeight: '56px',
            display: 'flex',
            alignItems: 'center',
            gap: 12,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          {phone && (
            <Button aria-label={t('nav.menu')} onClick={() => setOpen(true)} style={{ minWidth: 44, minHeight: 44 }}>
              ☰
            </Button>
          )}
          <Typography.Text strong style={{ flex: 1, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {pick(lang, brand)}
          </Typography.Text>
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ padding: phone ? 12 : 24 }}>
          <QueryProvider>
            {phone && <PhoneOffer />}
            {area === 'principal' && (
              <Suspense fallback={null}>
                <RenewalBanner />
              </Suspense>
            )}
            <Outlet />
          </QueryProvider>
        </Layout.Content>
      </Layout>
      {phone && (
        <Drawer open={open} onClose={() => setOpen(false)} placement="left" size={260} title={siteName} styles={{ body: { padding: 0 } }}>
          {menu}
        </Drawer>
      )}
    </Layout>
  );
}
