import { useEffect, useRef, useState } from 'react';
import type { FlowEventMessage } from '@wantuo/shared';
import type { FlowStatus } from '../../api/socket';

/**
 * Keeps a board live: connects to the flow socket (catching up from the last position after a reconnect) and calls
 * `onEvent` for each committed event; `live` tells whether the socket is connected.
 */
export function useFlowLive(onEvent: (e: FlowEventMessage) => void, onLive?: () => void): { live: boolean } {
  const [live, setLive] = useState(false);
  const handler = useRef(onEvent);
  const liveHandler = useRef(onLive);
  useEffect(() => {
    handler.current = onEvent;
    liveHandler.current = onLive;
  }, [onEvent, onLive]);
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('../../api/socket').then(({ connectFlow }) => {
      if (cancelled) return;
      stop = connectFlow({
        onEvent: (e: FlowEventMessage) => handler.current(e),
        onStatus: (s: FlowStatus) => {
          setLive(s === 'live');
          // (re)connected: refetch once, in case an event committed out of position order slipped between connections
          if (s === 'live') liveHandler.current?.();
        },
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, []);
  return { live };
}
