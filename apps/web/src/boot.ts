import type { GetAction } from '@wantuo/shared';
import { startEarly } from './lib/early-data';
import { cookies, StorageKey } from './lib/storage';

/**
 * The phones' first screens (issue 26 item 4): a signed-in teacher opening /teacher_today or a parent opening /parent
 * on 4G. Imported first by main.tsx, so it runs before React, antd and the router are evaluated: it starts the route's
 * code (layout and page, with their chunks: the same modules the router loads, fetched once) and the page's data at
 * once, in parallel, instead of one after the other once the app has rendered.
 */
export const PHONE_HOMES: Record<string, { data: GetAction; code: () => Promise<unknown>[] }> = {
  '/teacher_today': { data: 'flowBoard', code: () => [import('./layouts/teacher-layout'), import('./areas/flow/teacher-today')] },
  '/parent': { data: 'parentChildren', code: () => [import('./layouts/parent-layout'), import('./areas/parent/home')] },
};

/** Starts `path`'s code and data when it is a phone home and there is a session; answers whether it did. */
export function bootEarly(path: string): boolean {
  const home = PHONE_HOMES[path];
  if (!home || !cookies.get(StorageKey.token)) return false;
  startEarly(home.data);
  // a chunk that fails to load is reported by the router when it asks for it
  for (const p of home.code()) p.catch(() => {});
  return true;
}

// not in unit tests (they call bootEarly themselves)
if (import.meta.env.MODE !== 'test') bootEarly(window.location.pathname);
