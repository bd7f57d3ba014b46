import { DEFAULT_TIME_ZONE, instantOf, localDateTime } from '@wantuo/shared';

/**
 * Local storage with expiry (spec §3): each entry is `{ content, datetime }`, datetime the expiry in the storage date
 * format of spec §9, `yyyy-MM-dd HH:mm:ss` (24-hour: the spec's `hh` would be a 12-hour clock without am/pm, read as
 * the Java-style pattern's evident intent), or 0 = never. The time is the wall clock of one fixed zone (the default
 * school zone unless told), never the browser's, so an entry reads the same whatever the phone's zone. Entries written
 * before, with the expiry in ms, still read. An expired entry is removed when read and reads as empty. Entries may be
 * AES-encrypted.
 */
export interface Cipher {
  seal(text: string): string;
  open(text: string): string;
}

export interface StorageOptions {
  /** encrypts entries (see aes-cipher.ts); off by default, so the sign-in page loads no crypto code */
  cipher?: Cipher;
  backend?: Storage;
  now?: () => number;
  /** the zone of the stored wall-clock times (default: the default school zone) */
  timeZone?: string;
}

interface Entry<T> {
  content: T;
  /** `YYYY-MM-DD HH:mm:ss` in the storage's zone; 0 never expires; a number: an older entry's expiry in ms */
  datetime: string | number;
}

const STAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** The expiry of an entry in ms (Infinity: never; NaN: not a date, the entry is corrupt). */
function expiryOf(datetime: unknown, timeZone: string): number {
  if (datetime === 0) return Infinity;
  if (typeof datetime === 'number') return datetime;
  const m = typeof datetime === 'string' ? STAMP.exec(datetime) : null;
  if (!m) return NaN;
  const at = instantOf(m[1], m[2], timeZone).getTime();
  // a wall time that does not exist (month 13, 25 o'clock) is refused, not rolled over
  return localDateTime(at, timeZone, true) === datetime ? at : NaN;
}

export function createStorage(opts: StorageOptions = {}) {
  const backend = opts.backend ?? window.localStorage;
  const now = opts.now ?? Date.now;
  const zone = opts.timeZone ?? DEFAULT_TIME_ZONE;
  const seal = (text: string) => (opts.cipher ? opts.cipher.seal(text) : text);
  const open = (text: string) => (opts.cipher ? opts.cipher.open(text) : text);

  return {
    /** Stores a value; `expireSeconds` 0 (default) never expires. */
    set<T>(key: string, content: T, expireSeconds = 0): void {
      // rounded up to the second, so an entry is never gone before its time
      const expiry = Math.ceil((now() + expireSeconds * 1000) / 1000) * 1000;
      const entry: Entry<T> = { content, datetime: expireSeconds > 0 ? localDateTime(expiry, zone, true) : 0 };
      backend.setItem(key, seal(JSON.stringify(entry)));
    },
    get<T>(key: string): T | null {
      const raw = backend.getItem(key);
      if (raw === null) return null;
      try {
        const entry = JSON.parse(open(raw)) as Entry<T>;
        const expiry = expiryOf(entry.datetime, zone);
        if (Number.isNaN(expiry) || expiry <= now()) {
          backend.removeItem(key);
          return null;
        }
        return entry.content;
      } catch {
        backend.removeItem(key);
        return null;
      }
    },
    remove(key: string): void {
      backend.removeItem(key);
    },
    clear(): void {
      backend.clear();
    },
  };
}

export type AppStorage = ReturnType<typeof createStorage>;

/** Cache keys (spec §9). */
export const StorageKey = { user: '_u', token: 'token', lang: '_lang', theme: '_theme' } as const;

export const storage = createStorage();

/** Cookies, for the token (spec §4: "Login stores the token in a cookie (path /)"). */
export const cookies = {
  get(name: string): string | null {
    const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
    return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
  },
  /** `maxAgeSeconds` undefined: a session cookie, gone when the browser closes */
  set(name: string, value: string, maxAgeSeconds?: number): void {
    const age = maxAgeSeconds === undefined ? '' : `; max-age=${Math.floor(maxAgeSeconds)}`;
    document.cookie = `${name}=${encodeURIComponent(value)}; path=/${age}; SameSite=Lax`;
  },
  remove(name: string): void {
    document.cookie = `${name}=; path=/; max-age=0; SameSite=Lax`;
  },
};
