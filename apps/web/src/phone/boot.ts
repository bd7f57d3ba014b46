import { startEarly } from '../lib/early-data';
import { cookies, StorageKey } from '../lib/storage';
import { phoneRouteAt } from './route-table';

/**
 * The phone app's first screen starts at once, before React and the router are evaluated: its page's code and (with
 * a session) its data, in parallel; the page then finds both under way (early-data.ts; the same module the router
 * loads, fetched once). Answers whether a route was found.
 */
export function bootPhone(pathname: string): boolean {
  const found = phoneRouteAt(pathname);
  if (!found) return false;
  const { route } = found;
  if (route.roles !== 'all' && !cookies.get(StorageKey.token)) return false;
  if (route.early) startEarly(route.early);
  // a chunk that fails to load is reported by the router when it asks for it
  route.page().catch(() => {});
  return true;
}

if (import.meta.env.MODE !== 'test') bootPhone(window.location.pathname);
