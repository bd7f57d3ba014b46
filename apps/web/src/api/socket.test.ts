import type { FlowEventMessage } from '@wantuo/shared';
import type { Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cookies } from '../lib/storage';
import { connectFlow, FLOW_SINCE_KEY, resetFlowPosition, type FlowStatus } from './socket';
import { memoryStorage as memory } from '../test-utils';

/** A stand-in for socket.io-client: records handlers and the options, lets the test fire events. */
function fakeIo() {
  const handlers = new Map<string, (...a: unknown[]) => void>();
  const state = { opts: null as null | { path?: string; auth?: unknown }, connects: 0, closed: false, active: true };
  const socket = {
    on: (ev: string, fn: (...a: unknown[]) => void) => void handlers.set(ev, fn),
    connect: () => void state.connects++,
    close: () => void (state.closed = true),
    get active() {
      return state.active;
    },
  };
  return {
    state,
    fire: (ev: string, ...a: unknown[]) => handlers.get(ev)?.(...a),
    /** what the server would receive in the handshake now */
    auth: () => {
      let got: unknown;
      (state.opts!.auth as (cb: (v: unknown) => void) => void)((v) => (got = v));
      return got;
    },
    io: (opts: object) => {
      state.opts = opts as typeof state.opts;
      return socket as unknown as Socket;
    },
  };
}

const ev = (position: number): FlowEventMessage => ({
  position,
  student_id: 1,
  class_id: 1,
  day: '2026-11-22',
  type: 'student.entered',
  state: 'in_centre',
  at: '2026-11-22T09:00:00.000Z',
  actor: 2,
});

describe('connectFlow', () => {
  afterEach(() => {
    resetFlowPosition(null);
    cookies.remove('token');
    vi.useRealTimers();
  });

  it('sends the cookie token, then the last position seen as since on every (re)connection; drops repeats', () => {
    cookies.set('token', 'tok');
    const storage = memory();
    const f = fakeIo();
    const got: number[] = [];
    const statuses: FlowStatus[] = [];
    const stop = connectFlow({ onEvent: (e) => got.push(e.position), onStatus: (s) => statuses.push(s), io: f.io, storage });
    expect(f.state.opts!.path).toBe('/socket.io');
    expect(f.auth()).toEqual({ token: 'tok', batch: true });
    f.fire('connect');
    f.fire('flow.event', ev(5));
    f.fire('flow.event', ev(7));
    f.fire('flow.event', ev(7));
    f.fire('flow.event', ev(6)); // late commit from another process: delivered, since stays at the highest
    expect(got).toEqual([5, 7, 6]);
    expect(f.auth()).toEqual({ token: 'tok', batch: true, since: 7 });
    expect(storage.getItem(FLOW_SINCE_KEY)).toBe('7');
    // live events in a batch: each once, in order, since moves to the highest
    f.fire('flow.events', [ev(7), ev(8), ev(9)]);
    expect(got).toEqual([5, 7, 6, 8, 9]);
    expect(storage.getItem(FLOW_SINCE_KEY)).toBe('9');
    f.fire('disconnect', 'transport close');
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting']);
    stop();
    expect(f.state.closed).toBe(true);
    expect(statuses.at(-1)).toBe('closed');
  });

  it('after a reload, since comes from sessionStorage', () => {
    const storage = memory();
    storage.setItem(FLOW_SINCE_KEY, '42');
    const f = fakeIo();
    connectFlow({ onEvent: () => undefined, io: f.io, storage })();
    expect(f.auth()).toMatchObject({ since: 42 });
  });

  it('a 401 refusal stops with "unauthorized"; another refusal retries later', () => {
    vi.useFakeTimers();
    const f = fakeIo();
    const statuses: FlowStatus[] = [];
    const stop = connectFlow({ onEvent: () => undefined, onStatus: (s) => statuses.push(s), io: f.io, storage: memory() });
    f.state.active = false;
    f.fire('connect_error', new Error('401'));
    expect(statuses.at(-1)).toBe('unauthorized');
    vi.advanceTimersByTime(10_000);
    expect(f.state.connects).toBe(0);
    f.fire('connect_error', new Error('500'));
    vi.advanceTimersByTime(10_000);
    expect(f.state.connects).toBe(1);
    stop();
  });

  it('a session ended by the server (flow.error 401) is not reconnected', () => {
    vi.useFakeTimers();
    const f = fakeIo();
    const statuses: FlowStatus[] = [];
    connectFlow({ onEvent: () => undefined, onStatus: (s) => statuses.push(s), io: f.io, storage: memory() });
    f.fire('connect');
    f.fire('flow.error', { code: 401 });
    f.fire('disconnect', 'io server disconnect');
    vi.advanceTimersByTime(10_000);
    expect(f.state.connects).toBe(0);
    expect(statuses).toEqual(['connecting', 'live', 'unauthorized']);
  });
});
