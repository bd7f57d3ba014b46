import { useQueryClient } from '@tanstack/react-query';
import type { UserInfo } from '@wantuo/shared';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { queryKey } from '../../api/query';
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
  const keep = (info: UserInfo) => {
    setUser(info);
    queryClient.setQueryData(queryKey('userInfo'), info);
  };
  /** a profile answer from elsewhere (the avatar's upload): kept and confirmed */
  const saved = (info: UserInfo) => {
    keep(info);
    feedback().message.success(t('common.saved'));
  };
  const profile = useAction('profile', { success: t('common.saved'), onDone: keep });
  const save = async (nickname: string): Promise<boolean> => (await profile.run({ nickname: nickname.trim() })) !== undefined;
  return { save, saved, busy: profile.busy };
}

/**
 * A change of the password (changepwd): on success the session ends here (the API ended every other) and `then` runs
 * (the sign-in page); answers whether it was changed.
 */
export function useChangePassword(then: () => void) {
  const clear = useSession((s) => s.clear);
  const changepwd = useAction('changepwd', {
    success: t('settings.password_changed'),
    onDone: () => {
      clear();
      then();
    },
  });
  const change = async (oldpassword: string, newpassword: string): Promise<boolean> =>
    (await changepwd.run({ oldpassword, newpassword })) !== undefined;
  return { change, busy: changepwd.busy };
}
