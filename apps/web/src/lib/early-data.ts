import { Code, type GetAction, type GetAnswer } from '@wantuo/shared';
import { cookies, storage, StorageKey } from './storage';

/** An early answer older than this is not used (the page asks again). */
export const EARLY_MS = 10_000;

const pending = new Map<string, { at: number; answer: Promise<{ data: unknown } | null> }>();

/**
 * Starts `GET /api/index/<action>` (no input) at once, with the session's token and language, before the page that
 * needs it has loaded its code (boot.ts, for the phones' first screens): the data then comes in parallel with the
 * route's chunks instead of after them. Nothing is started without a token. The answer is kept for `early()`.
 */
export function startEarly(action: GetAction, now = Date.now()): void {
  const token = cookies.get(StorageKey.token);
  if (!token || pending.has(action)) return;
  const lang = storage.get<string>(StorageKey.lang) === 'en' ? 'en' : 'zh-CN';
  const answer = fetch(`/api/index/${action}`, { headers: { token, lang }, credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : null))
    .then((body: { code?: number; data?: unknown } | null) => (body && body.code === Code.Ok ? { data: body.data } : null))
    .catch(() => null);
  pending.set(action, { at: now, answer });
}

/**
 * The page's query function: the early answer of `action` when one was started less than EARLY_MS ago (used once),
 * else `load()`. An early call that failed in any way (network, HTTP, an envelope other than 200: an expired session,
 * a refusal) also ends in `load()`, so errors are reported exactly as without the early start.
 */
export async function early<K extends GetAction>(action: K, load: () => Promise<GetAnswer<K>>, now = Date.now): Promise<GetAnswer<K>> {
  const hit = pending.get(action);
  pending.delete(action);
  if (hit && now() - hit.at <= EARLY_MS) {
    const got = await hit.answer;
    if (got) return got.data as GetAnswer<K>;
  }
  return load();
}
