import { useQueryClient } from '@tanstack/react-query';
import type { ConversationLiveMessage } from '@wantuo/shared';
import { useEffect } from 'react';
import type { Socket } from 'socket.io-client';
import { cookies, StorageKey } from '../../lib/storage';
import { useSession } from '../../stores/session';
import { marksKey, mergeMessage, refreshCounts } from './model';
import { queryKey } from '../../api/query';

/**
 * Listens to the live `conversation.message` (a new or a retracted message of a conversation the signed-in user is
 * in): merged into that conversation's cache when it is loaded (the page showing it then marks it read, model.ts
 * useMarkRead), and the lists and badges refreshed. A socket of its own, joined to the user's room only (`flow:
 * false`: no flow events). After a reconnection the conversations open are read again (nothing missed while down).
 * Every conversation page uses it once. socket.io-client is loaded after the page's first screen (its own chunk: the
 * conversation shows from its first read, the live channel joins a moment later).
 */
export function useConversationLive(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let socket: Socket | null = null;
    let stopped = false;
    void import('socket.io-client').then(({ io }) => {
      if (stopped) return;
      socket = io({
        path: '/socket.io',
        transports: ['websocket', 'polling'],
        auth: (cb) => cb({ token: cookies.get(StorageKey.token) ?? '', batch: true, flow: false }),
      });
      listen(socket);
    });
    const receive = (m: ConversationLiveMessage) => {
      if (!m || typeof m.student_id !== 'number' || !m.message) return;
      mergeMessage(qc, m.student_id, m.message, useSession.getState().user?.id);
      // a guardian's page: the school wrote, so its read mark has likely moved (已读 under the guardian's messages)
      if (m.message.side === 'school') void qc.invalidateQueries({ queryKey: marksKey(m.student_id) });
      refreshCounts(qc);
    };
    const listen = (socket: Socket) => {
      socket.on('conversation.message', (m: ConversationLiveMessage | ConversationLiveMessage[]) => {
        if (Array.isArray(m)) m.forEach(receive);
        else receive(m);
      });
      let connected = false;
      socket.on('connect', () => {
        if (connected) {
          void qc.invalidateQueries({ queryKey: queryKey('conversationInfo') });
          refreshCounts(qc);
        }
        connected = true;
      });
    };
    return () => {
      stopped = true;
      socket?.close();
    };
  }, [qc]);
}
