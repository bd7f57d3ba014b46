import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '@wantuo/shared';
import { useSession } from '../stores/session';
import { onPhone, userAgent } from '../lib/wechat-env';
import { mayOpen, phoneHomeOf, phoneRouteAt } from '../phone/route-table';
import { AREA_ROLES, HOME_OF, ROUTES, SERVER_PAGES, type Area } from './route-table';

export function mayEnter(area: Area, role: Role | undefined): boolean {
  const rule = AREA_ROLES[area];
  if (rule === 'all') return true;
  if (role === undefined) return false;
  return rule === 'signed-in' || rule.includes(role);
}

/**
 * Where to go after sign-in: back to where the visitor was going if the role may go there, else the role's home (on a
 * phone, the phone app's home for teachers, head teachers and parents). `server`: a page outside this app's router (the
 * phone app's entry, a page the API serves): a full page load.
 */
export function destination(redirect: string | null, role: Role, ua: string = userAgent()): { path: string; server?: true } {
  if (redirect && redirect.startsWith('/') && !redirect.startsWith('//')) {
    const path = redirect.split('?')[0];
    const def = ROUTES.find((r) => r.path === path);
    if (def && mayEnter(def.area, role)) return { path: redirect };
    const phone = phoneRouteAt(path);
    if (phone && mayOpen(phone.route, role)) return { path: redirect, server: true };
    const page = SERVER_PAGES.find((p) => p.path === path);
    if (page?.roles.includes(role)) return { path: redirect, server: true };
  }
  const phoneHome = onPhone(ua) ? phoneHomeOf(role) : null;
  if (phoneHome) return { path: phoneHome, server: true };
  return { path: HOME_OF[role] };
}

/**
 * Role guard: signed-out visitors go to sign-in and come back afterwards; a signed-in user outside the
 * area's roles goes to their own home.
 */
export function RequireArea({ area }: { area: Area }) {
  const user = useSession((s) => s.user);
  const location = useLocation();
  if (AREA_ROLES[area] === 'all') return <Outlet />;
  if (!user) return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (!mayEnter(area, user.role)) return <Navigate to={HOME_OF[user.role]} replace />;
  return <Outlet />;
}
