import type { MealCountMessage } from '@wantuo/shared';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { cookies, StorageKey } from '../../lib/storage';

/**
 * Listens to the live `meals.count` message (a day's per-item counts of the school, pushed to the school's admins and
 * to the head teachers of the classes concerned after a booking, a payment, a leave or a served dinner changed today's).
 * A socket of its own on the live channel (the flow's messages on it are not read here).
 */
export function useMealCountLive(onCount: (m: MealCountMessage) => void): void {
  useEffect(() => {
    const socket = io({
      path: '/socket.io',
      transports: ['websocket', 'polling'],
      auth: (cb) => cb({ token: cookies.get(StorageKey.token) ?? '', batch: true }),
    });
    socket.on('meals.count', onCount);
    return () => {
      socket.close();
    };
  }, [onCount]);
}
