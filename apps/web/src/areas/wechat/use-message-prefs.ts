import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageChannel, MessagePrefsAnswer } from '@wantuo/shared';
import { useState } from 'react';
import { useAction } from '../../api/action';
import { feedback } from '../../api/feedback';
import { get } from '../../api/http';
import { wechatStrings } from './strings';

export const MESSAGE_PREFS_KEY = ['messagePrefs'];

/** The guardian's message settings and WeChat binding (messagePrefs). */
export const useMessagePrefs = () => useQuery({ queryKey: MESSAGE_PREFS_KEY, queryFn: () => get('messagePrefs') });

/**
 * The guardian's draft of the channel per kind, started from what the server holds (key the owner by the answer's
 * channels so a save or a refetch starts it again), the kinds changed, and their save (saveMessagePrefs). No antd: the
 * consoles' and the phone's pages share it.
 */
export function usePrefsDraft(data: MessagePrefsAnswer) {
  const s = wechatStrings.use();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Record<string, MessageChannel>>(() => Object.fromEntries(data.kinds.map((k) => [k.kind, k.channel])));
  const changed = data.kinds.filter((k) => draft[k.kind] !== k.channel).map((k) => ({ kind: k.kind, channel: draft[k.kind] }));
  const saveAction = useAction('saveMessagePrefs', { success: s('prefs.saved'), onDone: (d) => qc.setQueryData(MESSAGE_PREFS_KEY, d) });
  const save = { run: () => saveAction.run({ prefs: changed }), busy: saveAction.busy };
  const choose = (kind: string, channel: MessageChannel) => setDraft((d) => ({ ...d, [kind]: channel }));
  return { draft, choose, changed, save };
}

/** Unbinding the guardian's WeChat (wechatUnbind): the binding shown unbound at once, then reloaded. */
export function useWechatUnbind() {
  const s = wechatStrings.use();
  const qc = useQueryClient();
  const unbind = useAction('wechatUnbind', {
    onDone: () => {
      qc.setQueryData<MessagePrefsAnswer>(MESSAGE_PREFS_KEY, (d) => d && { ...d, binding: { bound: false, bound_at: null, openid: null } });
      feedback().message.success(s('bind.unbound_done'));
      void qc.invalidateQueries({ queryKey: MESSAGE_PREFS_KEY });
    },
  });
  return { run: () => unbind.run({}), busy: unbind.busy };
}
