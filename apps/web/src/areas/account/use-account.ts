import { useQueryClient } from '@tanstack/react-query';
import type { UserInfo } from '@wantuo/shared';
import { useState } from 'react';
import { feedback } from '../../api/feedback';
import { post } from '../../api/http';
import { t } from '../../stores/preferences';
import { useSession } from '../../stores/session';

/**
 * The account's own writes, shared by the consoles' settings and the phone's (no antd): the nickname (profile), the
 * signed-in user and the cached userInfo updated with the answer; each answers whether it was saved (a refusal is shown
 * by the request wrapper).
 */
export function useSaveNickname() {
  const setUser = useSession((s) => s.setUser);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const saved = (info: UserInfo) => {
    setUser(info);
    queryClient.setQueryData(['userInfo'], info);
    feedback().message.success(t('common.saved'));
  };
  const save = async (nickname: string): Promise<boolean> => {
    setBusy(true);
    try {
      saved(await post('profile', { nickname: nickname.trim() }));
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { save, saved, busy };
}

/**
 * A change of the password (changepwd): on success the session ends here (the API ended every other) and `then` runs
 * (the sign-in page); answers whether it was changed.
 */
export function useChangePassword(then: () => void) {
  const clear = useSession((s) => s.clear);
  const [busy, setBusy] = useState(false);
  const change = async (oldpassword: string, newpassword: string): Promise<boolean> => {
    setBusy(true);
    try {
      await post('changepwd', { oldpassword, newpassword });
      feedback().message.success(t('settings.password_changed'));
      clear();
      then();
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { change, busy };
}
