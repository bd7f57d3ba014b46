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

/** What of engine.io's connection and ws's socket the direct write looks at (none of it is in their typings). */
interface EngineConn {
  readyState: string;
  upgrading: boolean;
  writeBuffer: unknown[];
  transport?: {
    name: string;
    perMessageDeflate?: unknown;
    socket?: { readyState: number; _socket?: NetSocket; _sender?: { _queue?: unknown[] } };
  };
}
/** ws's WebSocket.OPEN */
const WS_OPEN = 1;

/** The TCP socket under a socket.io socket, when a frame written to it now goes out in order with everything else. */
function tcpOf(socket: Socket): NetSocket | null {
  const conn = socket.conn as unknown as EngineConn;
  if (conn.readyState !== 'open' || conn.upgrading || conn.writeBuffer.length) return null;
  const transport = conn.transport;
  if (transport?.name !== 'websocket' || transport.perMessageDeflate) return null;
  const ws = transport.socket;
  if (ws?.readyState !== WS_OPEN || ws._sender?._queue?.length) return null;
  const tcp = ws._socket;
  return tcp && tcp.writable ? tcp : null;
}

/** Emits `event` with `data` to these sockets of this process: one frame built once, written to each. */
export function emitEach(server: Server, ids: Iterable<string>, event: string, data: unknown): void {
  let frame: Buffer | null = null;
  const others: string[] = [];
  for (const id of ids) {
    const socket = server.sockets.sockets.get(id);
    if (!socket) continue;
    const tcp = tcpOf(socket);
    if (!tcp) {
      others.push(id);
      continue;
    }
    frame ??= eventFrame(event, data);
    tcp.write(frame);
  }
  if (others.length) server.local.to(others).emit(event, data);
}
