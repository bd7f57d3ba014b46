import { QueryClientProvider } from '@tanstack/react-query';
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import { Component, lazy, Suspense, useEffect, useMemo, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import Button from 'antd-mobile/es/components/button';
import { queryClient } from '../api/query';
import { usePreferences } from '../stores/preferences';
import { useSession } from '../stores/session';
import { PhoneConsentWatch } from './privacy/consent-watch';
import { CONSOLE_ENTRY, mayOpen, PHONE_ROUTES, phoneHomeOf, tabOf, type PhoneRoute } from './route-table';
import { phoneStrings } from './strings';
import { PhoneRouteContext } from './ui/route-context';
import { TabLayout } from './ui/tab-layout';
import { PhoneEmpty, PhoneError, PhoneLoading } from './ui/states';
import 'antd-mobile/es/global';
import './ui/phone.css';

/** Sign-in (the consoles' page, a full load): back here afterwards. */
function toSignIn(): null {
  const here = window.location.pathname + window.location.search;
  window.location.replace(`/login?redirect=${encodeURIComponent(here)}`);
  return null;
}

/** The consoles' roles (admin, operator), who have no phone pages: to the consoles (a full load), which send them home. */
function toConsole(): null {
  window.location.replace(CONSOLE_ENTRY);
  return null;
}

/** One phone route: its access (signed out → sign-in; another role → that role's home), its tab bar and page. */
function Screen({ route, Page }: { route: PhoneRoute; Page: ComponentType }) {
  const user = useSession((s) => s.user);
  const shown = useMemo(() => {
    const tab = tabOf(route, user?.role);
    return { ...route, tabPath: tab?.path ?? null, tab: route.tab ?? tab?.key };
  }, [route, user?.role]);
  if (route.roles !== 'all') {
    if (!user) return toSignIn();
    if (!mayOpen(route, user.role)) {
      const home = phoneHomeOf(user.role);
      if (home) return <Navigate to={home} replace />;
      // the consoles' roles (admin, operator) have no phone pages
      return toConsole();
    }
  }
  return (
    <PhoneRouteContext.Provider value={shown}>
      {route.roles === 'all' || route.bare ? (
        <div className="m-app">
          <main className="m-main m-no-tabs">
            <Suspense fallback={<PhoneLoading />}>
              <Page />
            </Suspense>
          </main>
        </div>
      ) : (
        <TabLayout active={shown.tab ?? null}>
          <Suspense fallback={<PhoneLoading />}>
            <Page />
          </Suspense>
        </TabLayout>
      )}
    </PhoneRouteContext.Provider>
  );
}

/** /m itself: the signed-in user's home (sign-in first). */
function PhoneIndex() {
  const user = useSession((s) => s.user);
  if (!user) return toSignIn();
  const home = phoneHomeOf(user.role);
  if (home) return <Navigate to={home} replace />;
  return toConsole();
}

function NotFound() {
  const t = phoneStrings.use();
  return (
    <div className="m-app">
      <PhoneEmpty description={t('m.not_found')}>
        <Button color="primary" onClick={() => window.location.assign('/m/')}>
          {t('m.go_home')}
        </Button>
      </PhoneEmpty>
    </div>
  );
}

/** A page that failed to render or whose code did not load (offline without a cached copy, a stale chunk). */
function RouteFailed({ error }: { error: unknown }) {
  return (
    <div className="m-app">
      <PhoneError error={error} onRetry={() => window.location.reload()} />
    </div>
  );
}

/** Each route's page component, made once (React.lazy: its code loads when the route is first shown, or earlier by boot.ts). */
const LAZY_PAGES = new Map<string, LazyExoticComponent<ComponentType>>(PHONE_ROUTES.map((route) => [route.path, lazy(route.page)]));

/** The phone routes (declarative: react-router's data router is not needed here, and its code is not loaded). */
class RouteBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <RouteFailed error={this.state.error} /> : this.props.children;
  }
}

export function PhoneRoutes() {
  return (
    <>
      {/* a guardian who has not accepted the current documents goes to the consent screen first (issue 37) */}
      <PhoneConsentWatch />
      <Routes>
        <Route path="/m" element={<PhoneIndex />} />
        {PHONE_ROUTES.map((route) => (
          <Route key={route.path} path={route.path} element={<Screen route={route} Page={LAZY_PAGES.get(route.path)!} />} />
        ))}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}

export function PhoneApp() {
  const lang = usePreferences((s) => s.lang);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <ConfigProvider locale={lang === 'en' ? enUS : zhCN}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <RouteBoundary>
            <PhoneRoutes />
          </RouteBoundary>
        </BrowserRouter>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
