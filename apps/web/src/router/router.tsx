import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { lazy, Suspense, useEffect, useRef } from 'react';
import {
  createBrowserRouter,
  isRouteErrorResponse,
  Navigate,
  Outlet,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
  type RouteObject,
} from 'react-router';
import { feedback } from '../api/feedback';
import { setReloginHandler } from '../api/http';
import { pick, type Bilingual } from '../i18n/messages';
import { t, usePreferences } from '../stores/preferences';
import { usePageConfig } from '../stores/page-config';
import { RequireArea } from './guard';
import { LOGIN_TITLE, REDIRECTS, ROUTES, type Area, type RouteDef } from './route-table';

NProgress.configure({ showSpinner: false });

/** The bar stays at least this long, so a navigation whose code is cached (instant) still shows it. */
export const MIN_BAR_MS = 200;

/**
 * The progress bar of spec §2: it starts on every navigation, while a route's code loads and also when there is
 * nothing to load (the route's chunk is cached: the location changes without a loading state), and ends after it.
 */
export function useNavigationProgress(navigating: boolean, locationKey: string): void {
  const shownAt = useRef(0);
  const generation = useRef(0);
  const firstKey = useRef(locationKey);
  const start = () => {
    generation.current++;
    if (!NProgress.isStarted()) {
      NProgress.start();
      shownAt.current = Date.now();
    }
  };
  const done = () => {
    const g = generation.current;
    const wait = Math.max(0, MIN_BAR_MS - (Date.now() - shownAt.current));
    setTimeout(() => {
      if (g === generation.current) NProgress.done();
    }, wait);
  };
  useEffect(() => {
    if (navigating) start();
    else done();
  }, [navigating]);
  useEffect(() => {
    if (locationKey === firstKey.current) return;
    firstKey.current = '';
    if (!navigating) {
      start();
      done();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locationKey]);
}

export interface RouteHandle {
  title: Bilingual | null;
  def?: RouteDef;
}

const LAYOUTS: Record<Area, () => Promise<{ default: React.ComponentType }>> = {
  public: () => import('../layouts/public-layout'),
  center: () => import('../layouts/center-layout'),
  principal: () => import('../layouts/admin-layout'),
  adviser: () => import('../layouts/adviser-layout'),
  teacher: () => import('../layouts/teacher-layout'),
  parent: () => import('../layouts/parent-layout'),
  operator: () => import('../layouts/operator-layout'),
  account: () => import('../layouts/account-layout'),
};

const lazyComponent = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** Progress bar, scroll to top, document title: spec §2's before/after of each navigation. */
function Root() {
  const navigation = useNavigation();
  const location = useLocation();
  const matches = useMatches();
  const lang = usePreferences((s) => s.lang);
  const siteName = usePageConfig((s) => s.config?.site_name);
  const loadConfig = usePageConfig((s) => s.loadIfEmpty);

  useEffect(() => {
    void loadConfig();
  }, [loadConfig]);
  useNavigationProgress(navigation.state !== 'idle', location.key);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
  useEffect(() => {
    const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title !== undefined)?.handle as RouteHandle | undefined;
    const app = siteName ?? t('app.name');
    document.title = handle?.title ? `${pick(lang, handle.title)} - ${app}` : app;
  }, [matches, lang, siteName]);
  return <Outlet />;
}

/** A failed navigation (for instance a screen's code that cannot load): end the bar, say so, offer a way on. */
function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    NProgress.done();
    if (isRouteErrorResponse(error) && error.status === 404) return;
    const message = error instanceof Error ? error.message : isRouteErrorResponse(error) ? error.statusText : String(error);
    feedback().notification.error({ title: t('error.route'), description: message });
  }, [error]);
  return (
    <Suspense fallback={null}>
      <NotFound kind={isRouteErrorResponse(error) && error.status === 404 ? 'not-found' : 'error'} />
    </Suspense>
  );
}

const NotFound = lazy(() => import('../areas/not-found'));

function areaRoutes(area: Area): RouteObject {
  return {
    element: <RequireArea area={area} />,
    children: [
      {
        lazy: lazyComponent(LAYOUTS[area]),
        children: ROUTES.filter((r) => r.area === area).map((def) => ({
          path: def.path,
          handle: { title: def.title, def } satisfies RouteHandle,
          lazy: lazyComponent(def.page),
        })),
      },
    ],
  };
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      ...Object.entries(REDIRECTS).map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
      { path: '/login', handle: { title: LOGIN_TITLE } satisfies RouteHandle, lazy: lazyComponent(() => import('../areas/auth/login')) },
      // where the official account's authorisation comes back (issue 24)
      {
        path: '/wechat/callback',
        handle: { title: LOGIN_TITLE } satisfies RouteHandle,
        lazy: lazyComponent(() => import('../areas/auth/wechat-callback')),
      },
      // a pick-up person without an account: their own code by their share link (issue 27)
      {
        path: '/pickup/:token',
        handle: { title: { zh: '接送码', en: 'Pick-up code' } } satisfies RouteHandle,
        lazy: lazyComponent(() => import('../areas/pickup/public-pickup')),
      },
      ...(['public', 'center', 'principal', 'teacher', 'adviser', 'parent', 'operator', 'account'] as Area[]).map(areaRoutes),
      {
        path: '*',
        handle: { title: { zh: '页面不存在', en: 'Page not found' } } satisfies RouteHandle,
        lazy: lazyComponent(() => import('../areas/not-found')),
      },
    ],
  },
];

export function createRouter() {
  const router = createBrowserRouter(routes);
  // "re-login" of the expired-session dialog: to sign-in, then back here
  setReloginHandler(() => {
    const here = window.location.pathname + window.location.search;
    void router.navigate(`/login?redirect=${encodeURIComponent(here)}`);
  });
  return router;
}
