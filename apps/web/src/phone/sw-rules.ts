/**
 * What the phone's service worker keeps of the API for offline use, shared by the worker (sw.ts) and the page: the
 * reads of the pages that must open without a network (the teacher's today and the parent's home), answered from the
 * network when it answers within a few seconds, else from the last copy.
 */
export const OFFLINE_DATA_CACHE = 'wantuo-offline-data';
export const OFFLINE_READS: readonly string[] = ['flowBoard', 'parentChildren', 'userInfo', 'schoolInfo'];
export const OFFLINE_NETWORK_TIMEOUT_S = 4;

/** The action of an API read (`/api/index/flowBoard?x` → flowBoard), or null. */
export function actionOf(pathname: string): string | null {
  const m = /^\/api\/index\/([A-Za-z0-9_]+)$/.exec(pathname);
  return m ? m[1] : null;
}
