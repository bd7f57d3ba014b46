import { create } from 'zustand';
import { identityOf, Identity, REMEMBER_ME_HOURS, type LoginResult, type UserInfo } from '@wantuo/shared';
import { cookies, storage, StorageKey } from '../lib/storage';

/** What the web keeps of the signed-in user: the login answer, completed by userInfo. */
export type SessionUser = Pick<UserInfo, 'id' | 'role' | 'nickname' | 'avatar_text' | 'school_id'> & Partial<UserInfo>;

interface Session {
  token: string | null;
  user: SessionUser | null;
  identity: Identity;
  signIn(result: LoginResult, remember: boolean): void;
  setUser(user: UserInfo): void;
  clear(): void;
}

const savedUser = storage.get<SessionUser>(StorageKey.user);
const savedToken = cookies.get(StorageKey.token);

/**
 * Session (spec §4): the token in a cookie (path /), the user in local storage under `_u`; identity from
 * the role (1 → 1, 5 → 3, other staff → 2); sign-out or an invalid-session answer clears both, identity 0.
 */
export const useSession = create<Session>((set) => ({
  token: savedToken && savedUser ? savedToken : null,
  user: savedToken && savedUser ? savedUser : null,
  identity: savedToken && savedUser ? identityOf(savedUser.role) : Identity.None,
  signIn({ userinfo }, remember) {
    const { token, expires_at: _, ...user } = userinfo;
    const seconds = remember ? REMEMBER_ME_HOURS * 3600 : undefined;
    cookies.set(StorageKey.token, token, seconds);
    storage.set(StorageKey.user, user, seconds ?? 0);
    set({ token, user, identity: identityOf(user.role) });
  },
  setUser(info) {
    set((s) => {
      const user = { ...s.user, ...info };
      storage.set(StorageKey.user, user);
      return { user, identity: identityOf(info.role) };
    });
  },
  clear() {
    cookies.remove(StorageKey.token);
    storage.remove(StorageKey.user);
    set({ token: null, user: null, identity: Identity.None });
  },
}));
