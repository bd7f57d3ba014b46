/**
 * Local storage with expiry (spec §3): each entry is `{ content, datetime }`, datetime the expiry in ms
 * (0 = never). An expired entry is removed when read and reads as empty. Entries may be AES-encrypted.
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
}

interface Entry<T> {
  content: T;
  datetime: number;
}

export function createStorage(opts: StorageOptions = {}) {
  const backend = opts.backend ?? window.localStorage;
  const now = opts.now ?? Date.now;
  const seal = (text: string) => (opts.cipher ? opts.cipher.seal(text) : text);
  const open = (text: string) => (opts.cipher ? opts.cipher.open(text) : text);

  return {
    /** Stores a value; `expireSeconds` 0 (default) never expires. */
    set<T>(key: string, content: T, expireSeconds = 0): void {
      const entry: Entry<T> = { content, datetime: expireSeconds > 0 ? now() + expireSeconds * 1000 : 0 };
      backend.setItem(key, seal(JSON.stringify(entry)));
    },
    get<T>(key: string): T | null {
      const raw = backend.getItem(key);
      if (raw === null) return null;
      try {
        const entry = JSON.parse(open(raw)) as Entry<T>;
        if (entry.datetime !== 0 && entry.datetime <= now()) {
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
