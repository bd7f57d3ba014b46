import type { FlowEventMessage } from '@wantuo/shared';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { cookies, StorageKey } from '../lib/storage';

/**
 * The live daily flow (design.md §2): socket.io on the same origin, path /socket.io, handshake `auth: { token, since?,
 * batch: true }`, server events `flow.event` (one event: the catch-up) and `flow.events` (the live events of a flush). The server refuses a handshake with `connect_error` whose message is '401' (no or invalid
 * token), '403' (no school to follow) or '400' (bad `since`); it drops an open socket whose session ended with the
 * event `flow.error` `{ code: 401 }`. With `since`, the server first replays every event after
 * it, in order, then sends live events.
 */
export type FlowStatus = 'connecting' | 'live' | 'reconnecting' | 'unauthorized' | 'closed';

export interface ConnectFlowOptions {
  onEvent: (e: FlowEventMessage) => void;
  onStatus?: (s: FlowStatus) => void;
  /** tests: the socket.io factory and the session storage */
  io?: (opts: Partial<ManagerOptions & SocketOptions>) => Socket;
  storage?: Storage;
}

/** sessionStorage key of the last global_position seen (survives a page reload, not a new tab) */
export const FLOW_SINCE_KEY = '_flow_since';
const RETRY_MS = 3000;
/** positions remembered to drop a repeat (a replayed event that also arrived live) */
const SEEN_MAX = 2000;

let lastPosition: number | null = null;

function readSince(storage: Storage | null): number | null {
  if (lastPosition !== null) return lastPosition;
  const raw = storage?.getItem(FLOW_SINCE_KEY);
  const n = raw ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function writeSince(storage: Storage | null, position: number | null): void {
  lastPosition = position;
  if (position === null) storage?.removeItem(FLOW_SINCE_KEY);
  else storage?.setItem(FLOW_SINCE_KEY, String(position));
}

/**
 * Connects to the live flow and returns the function that disconnects. The token comes from the cookie and the last
 * position seen (memory, then sessionStorage) goes as `since` on every connection and reconnection, so nothing
 * committed while the connection was down is missed.
 */
export function connectFlow(opts: ConnectFlowOptions): () => void {
  const storage = opts.storage ?? (typeof sessionStorage === 'undefined' ? null : sessionStorage);
  const status = (s: FlowStatus) => opts.onStatus?.(s);
  const seen = new Set<number>();
  let stopped = false;
  let ended = false;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const make = opts.io ?? ((o) => io(o));
  const socket = make({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    // read on every (re)connection attempt: the current token and the last position seen
    auth: (cb) => {
      const since = readSince(storage);
      cb({ token: cookies.get(StorageKey.token) ?? '', batch: true, ...(since === null ? {} : { since }) });
    },
  });

  const reconnectLater = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      if (!stopped) socket.connect();
    }, RETRY_MS);
  };

  status('connecting');
  socket.on('connect', () => status('live'));
  const receive = (e: FlowEventMessage) => {
    if (seen.has(e.position)) return;
    seen.add(e.position);
    if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as number);
    const since = readSince(storage);
    if (since === null || e.position > since) writeSince(storage, e.position);
    opts.onEvent(e);
  };
  socket.on('flow.event', receive);
  // live events in batches (asked for with auth.batch): a class's 30 taps are one message
  socket.on('flow.events', (list: FlowEventMessage[]) => {
    if (Array.isArray(list)) list.forEach(receive);
  });
  socket.on('connect_error', (err: Error) => {
    if (stopped) return;
    if (err.message === '401' || err.message === '403') {
      status('unauthorized');
      return;
    }
    if (err.message === '400') writeSince(storage, null);
    status('reconnecting');
    // a refusal by the server is not retried by socket.io itself; a transport failure is
    if (!socket.active) reconnectLater();
  });
  // the server drops a socket whose session ended (logout elsewhere, expiry): no reconnection with that token
  socket.on('flow.error', (e: { code?: number }) => {
    if (e?.code !== 401) return;
    ended = true;
    status('unauthorized');
  });
  socket.on('disconnect', (reason: string) => {
    if (stopped || ended) return;
    status('reconnecting');
    if (reason === 'io server disconnect') reconnectLater();
  });

  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    socket.close();
    status('closed');
  };
}

/** Forgets the last position (sign-out). */
export function resetFlowPosition(storage: Storage | null = typeof sessionStorage === 'undefined' ? null : sessionStorage): void {
  writeSince(storage, null);
}
