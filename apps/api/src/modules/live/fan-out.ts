import type { Socket as NetSocket } from 'node:net';
import type { Server, Socket } from 'socket.io';

/**
 * The live flow's fan-out writes one message to hundreds of sockets per flush. Through socket.io each write costs
 * about as much JavaScript as the system call itself (the adapter, engine.io's packet queue with its events and
 * callbacks, ws's corked two-buffer write: half of the API's CPU per delivered message on the flow bench, part b). A
 * socket.io event is a fixed text frame on the wire, the same bytes for every socket (server frames are not
 * masked), so it is built once and written to each websocket's TCP socket as it is; a socket that is not on a plain
 * open websocket at that moment (polling, upgrading, packets of its own still queued in engine.io, compression) gets
 * it through socket.io as before, so the order of its messages stays the same.
 */

/** engine.io message (4) carrying a socket.io EVENT (2) on the main namespace, as socket.io-parser writes it */
const EVENT_PREFIX = '42';
/** RFC 6455: FIN + text frame; payload lengths above 125 take 2, above 65535 take 8 more bytes */
const TEXT_FIN = 0x81;
const LEN_16 = 126;
const LEN_64 = 127;

/** The unmasked websocket text frame of a socket.io event with one argument. */
export function eventFrame(event: string, data: unknown): Buffer {
  const payload = Buffer.from(`${EVENT_PREFIX}${JSON.stringify([event, data])}`);
  const n = payload.length;
  const head = n < LEN_16 ? 2 : n <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = TEXT_FIN;
  if (n < LEN_16) frame[1] = n;
  else if (n <= 0xffff) {
    frame[1] = LEN_16;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = LEN_64;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  payload.copy(frame, head);
  return frame;
}

/**
 * How the fan-out delivered: `direct` events written straight to a websocket's TCP socket, `fallback` events given to
 * socket.io (another transport, a busy or compressing socket, the direct path switched off), `unsupported` websocket
 * transports whose private fields did not look as this file expects (engine.io or ws changed: they go through
 * socket.io). The spec asserts that the direct path is taken; a bench or an operator can read them.
 */
export const fanOutCounts = { direct: 0, fallback: 0, unsupported: 0 };

/**
 * What of engine.io's connection and ws's socket the direct write reads; none of it is in their typings (engine.io
 * 6.6 and ws 8.21, pinned in the root package.json's overrides so that a bump is deliberate). Every field is checked
 * once per transport (`probe`) and read defensively on every write: a field that is missing never throws in the loop,
 * the socket gets its events through socket.io.
 */
interface EngineConn {
  readyState?: unknown;
  upgrading?: unknown;
  writeBuffer?: unknown;
  transport?: { name?: unknown; socket?: unknown } | null;
}
interface WsSender {
  /** ws's sender state: 0 (DEFAULT) when nothing is being compressed or read from a Blob ahead of the next frame */
  _state: number;
  /** frames waiting behind a compression or a Blob */
  _queue: unknown[];
}
interface WsSocket {
  readyState: number;
  /** the negotiated extensions: 'permessage-deflate' when frames of this socket may be compressed */
  _extensions: Record<string, unknown>;
  _sender: WsSender;
  _socket: NetSocket;
}
/** ws's WebSocket.OPEN and Sender's DEFAULT state */
const WS_OPEN = 1;
const SENDER_IDLE = 0;
const DEFLATE = 'permessage-deflate';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The ws socket under an engine.io websocket transport, when every private field the direct write reads is there and
 * the socket does not compress (a compressed message is deflated asynchronously: a frame written meanwhile would
 * overtake it). Else null: the socket is served by socket.io for as long as it keeps this transport.
 */
function probe(conn: EngineConn, transport: NonNullable<EngineConn['transport']>): WsSocket | null {
  if (transport.name !== 'websocket') return null;
  const ok =
    typeof conn.readyState === 'string' &&
    typeof conn.upgrading === 'boolean' &&
    Array.isArray(conn.writeBuffer) &&
    isObject(transport.socket) &&
    typeof transport.socket.readyState === 'number' &&
    isObject(transport.socket._extensions) &&
    isObject(transport.socket._sender) &&
    typeof transport.socket._sender._state === 'number' &&
    Array.isArray(transport.socket._sender._queue) &&
    isObject(transport.socket._socket) &&
    typeof transport.socket._socket.write === 'function' &&
    typeof transport.socket._socket.writable === 'boolean';
  if (!ok) {
    fanOutCounts.unsupported++;
    return null;
  }
  const ws = transport.socket as unknown as WsSocket;
  return ws._extensions[DEFLATE] ? null : ws;
}

/** the probe's answer per engine.io transport (an upgrade from polling brings a new transport, probed then) */
const probed = new WeakMap<object, WsSocket | null>();

/** The TCP socket under a socket.io socket, when a frame written to it now goes out in order with everything else. */
function tcpOf(socket: Socket): NetSocket | null {
  const conn = socket.conn as unknown as EngineConn | undefined;
  const transport = conn?.transport;
  if (!conn || !isObject(transport)) return null;
  let ws = probed.get(transport);
  if (ws === undefined) {
    ws = probe(conn, transport);
    probed.set(transport, ws);
  }
  if (!ws) return null;
  // the state of this moment, read so that a field gone since the probe answers "not now" rather than throwing
  const buffered = conn.writeBuffer;
  if (conn.readyState !== 'open' || conn.upgrading !== false || !Array.isArray(buffered) || buffered.length !== 0) return null;
  const sender = ws._sender;
  if (ws.readyState !== WS_OPEN || sender?._state !== SENDER_IDLE || !Array.isArray(sender._queue) || sender._queue.length !== 0) return null;
  const tcp = ws._socket;
  return tcp?.writable === true ? tcp : null;
}

/**
 * Emits `event` with `data` to these sockets of this process: one frame built once, written to each socket on a plain
 * open websocket; the others (and all of them with `direct` false: LIVE_DIRECT_WRITE=0) through socket.io.
 */
export function emitEach(server: Server, ids: Iterable<string>, event: string, data: unknown, direct = true): void {
  emitEachMany(server, ids, event, [data], direct);
}

/**
 * Emits `event` once per item of `data`, in order, to these sockets of this process: the frames are built once and
 * written to each socket on a plain open websocket in ONE write (the same messages, one system call per socket
 * instead of one per event); the others through socket.io, one emit per item in the same order.
 */
export function emitEachMany(server: Server, ids: Iterable<string>, event: string, data: readonly unknown[], direct = true): void {
  let frames: Buffer | null = null;
  const others: string[] = [];
  for (const id of ids) {
    const socket = server.sockets.sockets.get(id);
    if (!socket) continue;
    const tcp = direct ? tcpOf(socket) : null;
    if (!tcp) {
      others.push(id);
      continue;
    }
    frames ??= data.length === 1 ? eventFrame(event, data[0]) : Buffer.concat(data.map((d) => eventFrame(event, d)));
    tcp.write(frames);
    fanOutCounts.direct += data.length;
  }
  if (others.length) {
    fanOutCounts.fallback += others.length * data.length;
    for (const d of data) server.local.to(others).emit(event, d);
  }
}
