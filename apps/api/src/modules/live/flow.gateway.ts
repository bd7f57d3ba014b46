import { Inject, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FlowEventMessage } from '@wantuo/shared';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Server, Socket } from 'socket.io';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { DomainEvents, type DomainEventMap } from '../../core/events/domain-events';
import type { SessionUser } from '../../core/http/request-context';
import { LOGGER } from '../../core/logging/logger';
import { REDIS } from '../../core/redis/redis.provider';
import { type Audience, CATCH_UP_BATCH, LiveAuth, LiveRefusal, roomsOf, roomsOfEvent } from './live-auth';

/** The server event every client listens to (design.md §2). */
export const FLOW_EVENT = 'flow.event';
/**
 * Sockets that asked for batches (handshake `auth.batch: true`) get their live events as `flow.events`: an array of
 * FlowEventMessage in commit order, one message per flush instead of one per event. What a board pays for is the
 * messages, not their size: a class's batch of 30 events is one write per board instead of 30.
 */
export const FLOW_EVENTS = 'flow.events';
/** Under load, live events are flushed at most this often (a flush after a quiet moment goes out at once). */
export const FLUSH_MS = 20;
/** the room every batch socket joins, so the per-event broadcast leaves them out */
const BATCH_ROOM = 'batch';
/**
 * Between API processes (Redis adapter serverSideEmit): the committed events of a flush, delivered by each process
 * to its own sockets. Named for its shape (an array), so a process of the previous release ignores it.
 */
const PEER_EVENT = 'flow.committed.batch';
/** how long a socket that just caught up gets live events one by one, deduplicated */
const RECENT_MS = 5_000;
/** Sent before the server drops a socket whose session ended (logout, password change, expiry, account disabled). */
export const FLOW_ERROR = 'flow.error';
/** how often the sessions of open sockets are checked again */
export const RECHECK_MS = 60_000;

type Committed = DomainEventMap['flow.committed'];

interface LiveData {
  user: SessionUser;
  audience: Audience;
  /** the last global_position the client saw; null: live events only */
  since: number | null;
  /** live events as `flow.events` batches */
  batch: boolean;
}

/** Strips the bus payload to the wire shape (no school_id, nothing else). */
const toMessage = (e: Committed): FlowEventMessage => ({
  position: e.position,
  student_id: e.student_id,
  class_id: e.class_id,
  day: e.day,
  type: e.type,
  state: e.state,
  at: e.at,
  actor: e.actor,
});

function parseSince(v: unknown): number | null | 'bad' {
  if (v === undefined || v === null || v === '') return null;
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 'bad';
}

/**
 * The live daily flow (socket.io on the API's HTTP server, path /socket.io).
 *
 * Handshake `auth: { token, since?, batch? }`. A missing/unknown token is refused before the connection exists: the
 * client gets `connect_error` with `message` '401' (and `data: { code: 401 }`); '403' for a user without a school, '400'
 * for a bad `since` or `batch`. Accepted sockets join their rooms (school:<id> for admins; class:<id> / student:<id> for
 * teachers; student:<id> for parents) and receive `flow.event` (FlowEventMessage), or with `batch: true` their live
 * events as `flow.events` (FlowEventMessage[], one per flush). With `since`, they first get every visible event with
 * global_position > since in order; live events that arrive meanwhile are held for that socket and sent after, without
 * duplicates. Only the 'flow.committed' domain event feeds this gateway: services never touch sockets. Every minute the
 * sessions of open sockets are checked again: a socket whose session ended gets `flow.error` `{ code: 401 }` and is
 * disconnected. Rooms are computed at connection: a changed class or duty applies from the next connection.
 *
 * Several API processes: with REDIS_URL the Redis adapter connects them; each committed event is passed to the other
 * processes (serverSideEmit) and every process delivers it to its own sockets (one emit to the union of the rooms).
 */
@WebSocketGateway({ path: '/socket.io', serveClient: false, maxHttpBufferSize: 64_000 })
export class FlowGateway implements OnGatewayInit, OnGatewayConnection, OnModuleDestroy, OnApplicationShutdown {
  @WebSocketServer() server!: Server;

  /** sockets that finished their catch-up a moment ago, with the positions already sent to each */
  private readonly recent = new Map<string, Set<number>>();
  /** sockets of this process still receiving their catch-up, with the live events held for them */
  private readonly catchingUp = new Map<string, FlowEventMessage[]>();
  /** committed events waiting for the next flush */
  private pending: Committed[] = [];
  private lastFlush = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private flushImmediate: NodeJS.Immediate | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly redisClients: Redis[] = [];
  private recheckTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly auth: LiveAuth,
    private readonly events: DomainEvents,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  afterInit(server: Server): void {
    if (this.redis) {
      const pub = this.redis.duplicate();
      const sub = this.redis.duplicate();
      this.redisClients.push(pub, sub);
      server.adapter(createAdapter(pub, sub, { key: `${this.config.queuePrefix}:socket.io` }));
      (server.sockets as unknown as { on(ev: string, fn: (e: Committed[]) => void): void }).on(PEER_EVENT, (batch) => {
        if (!Array.isArray(batch)) return;
        try {
          this.deliverAll(batch);
        } catch (err) {
          this.log.error({ err, events: batch.length }, 'live delivery of a peer flush failed');
        }
      });
    }
    server.use((socket, next) => {
      this.authenticate(socket).then(
        (refusal) => next(refusal ? Object.assign(new Error(refusal), { data: { code: Number(refusal) } }) : undefined),
        (err: unknown) => {
          this.log.error({ err }, 'socket handshake failed');
          next(Object.assign(new Error('500'), { data: { code: 500 } }));
        },
      );
    });
    this.unsubscribe = this.events.on('flow.committed', (e) => this.enqueue(e));
    this.recheckTimer = setInterval(() => {
      this.recheck().catch((err: unknown) => this.log.error({ err }, 'socket session check failed'));
    }, RECHECK_MS).unref();
  }

  /**
   * Drops the sockets of this process whose session ended since they connected: `flow.error` `{ code: 401 }`, then
   * a server disconnect (the client's next handshake is refused with '401'). One query for all sockets.
   */
  async recheck(): Promise<number> {
    const sockets = [...this.server.sockets.sockets.values()].filter((s) => (s.data as LiveData | undefined)?.user);
    const invalid = await this.auth.invalidTokens([...new Set(sockets.map((s) => (s.data as LiveData).user.tokenId))]);
    let dropped = 0;
    for (const s of sockets) {
      if (!invalid.has((s.data as LiveData).user.tokenId)) continue;
      s.emit(FLOW_ERROR, { code: 401 });
      s.disconnect(true);
      dropped++;
    }
    return dropped;
  }

  private async authenticate(socket: Socket): Promise<string | null> {
    const { token, since, batch } = (socket.handshake.auth ?? {}) as { token?: unknown; since?: unknown; batch?: unknown };
    const user = await this.auth.resolve(token);
    if (!user) return LiveRefusal.Unauthorized;
    const s = parseSince(since);
    if (s === 'bad') return LiveRefusal.BadInput;
    const audience = await this.auth.audience(user);
    if (!audience) return LiveRefusal.Forbidden;
    if (batch !== undefined && typeof batch !== 'boolean') return LiveRefusal.BadInput;
    const data: LiveData = { user, audience, since: s, batch: batch === true };
    socket.data = data;
    return null;
  }

  async handleConnection(socket: Socket): Promise<void> {
    const { audience, since, batch } = socket.data as LiveData;
    // rooms first, and the socket is marked as catching up in the same tick: from now on no live event is lost
    const held: FlowEventMessage[] = [];
    if (since !== null) this.catchingUp.set(socket.id, held);
    await socket.join(batch ? [...roomsOf(audience), BATCH_ROOM] : roomsOf(audience));
    if (since === null) return;
    try {
      let last = since;
      const sent = new Set<number>();
      for (;;) {
        const batch = await this.auth.eventsAfter(audience, last);
        if (!socket.connected) return;
        for (const e of batch) {
          socket.emit(FLOW_EVENT, e);
          sent.add(e.position);
        }
        if (batch.length) last = batch[batch.length - 1].position;
        if (batch.length < CATCH_UP_BATCH) break;
      }
      held.sort((a, b) => a.position - b.position);
      // only what the catch-up itself sent is skipped: a held event at a position at or below the last one sent was
      // committed after a higher position (positions are taken at insert) and the catch-up query did not see it
      for (const e of held) {
        if (sent.has(e.position)) continue;
        socket.emit(FLOW_EVENT, e);
        sent.add(e.position);
      }
      // an event the catch-up query already saw may still be on its way live (it is emitted after its commit): for a
      // little while this socket gets live events one by one, minus the positions it was already sent
      this.recent.set(socket.id, sent);
      setTimeout(() => this.recent.delete(socket.id), RECENT_MS).unref();
    } catch (err) {
      this.log.error({ err, socket: socket.id }, 'socket catch-up failed');
      socket.disconnect(true);
    } finally {
      this.catchingUp.delete(socket.id);
    }
  }

  /**
   * Takes a committed event off the command's path: events are delivered after the command's HTTP answer, the
   * events that arrive together in one flush. After a quiet moment a flush goes out on the next turn of the event
   * loop; under load at most every FLUSH_MS, so the work per board stays one message per flush however many events
   * it holds (batch sockets) and the other processes get one Redis message per flush.
   */
  private enqueue(e: Committed): void {
    this.pending.push(e);
    if (this.flushTimer || this.flushImmediate) return;
    const wait = this.lastFlush + FLUSH_MS - Date.now();
    if (wait > 0) this.flushTimer = setTimeout(() => this.flush(), wait);
    else this.flushImmediate = setImmediate(() => this.flush());
  }

  /** Sends what is pending now (also at shutdown, before the Redis connections close). Never throws. */
  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    this.flushTimer = null;
    this.flushImmediate = null;
    this.lastFlush = Date.now();
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    try {
      if (this.redis) this.server.serverSideEmit(PEER_EVENT, batch);
      this.deliverAll(batch);
    } catch (err) {
      // a timer callback: an exception here would end the process; the boards catch up when they reconnect
      this.log.error({ err, events: batch.length }, 'live flush failed');
    }
  }

  /**
   * Delivers a flush of committed events to this process's sockets: one `flow.event` per event to the plain sockets
   * (one broadcast per event), one `flow.events` to each batch socket with the events of its rooms (one broadcast
   * per distinct list: every admin board of a school shares one). Sockets catching up, or just caught up, get
   * `flow.event` one by one as before.
   */
  private deliverAll(batch: Committed[]): void {
    const msgs = batch.map(toMessage);
    const held = [...this.catchingUp.keys()];
    const recent = [...this.recent.keys()];
    for (const [i, e] of batch.entries()) this.deliver(e, msgs[i], held, recent);

    const rooms = this.server.sockets.adapter.rooms;
    const batchIds = rooms.get(BATCH_ROOM);
    if (!batchIds?.size) return;
    const lists = new Map<string, number[]>();
    for (const [i, e] of batch.entries()) {
      for (const room of roomsOfEvent(e)) {
        for (const id of rooms.get(room) ?? []) {
          if (!batchIds.has(id) || this.catchingUp.has(id) || this.recent.has(id)) continue;
          const list = lists.get(id);
          if (!list) lists.set(id, [i]);
          else if (list[list.length - 1] !== i) list.push(i);
        }
      }
    }
    const groups = new Map<string, string[]>();
    for (const [id, list] of lists) {
      const key = list.join(',');
      const ids = groups.get(key);
      if (ids) ids.push(id);
      else groups.set(key, [id]);
    }
    for (const [key, ids] of groups) {
      this.server.local.to(ids).emit(FLOW_EVENTS, key.split(',').map((i) => msgs[Number(i)]));
    }
  }

  /** Delivers one committed event as `flow.event`: at once to the caught-up plain sockets, held for the others. */
  private deliver(e: Committed, msg: FlowEventMessage, held: string[], recent: string[]): void {
    const rooms = roomsOfEvent(e);
    this.server.local.to(rooms).except([BATCH_ROOM, ...held, ...recent]).emit(FLOW_EVENT, msg);
    for (const id of held) {
      const socket = this.server.sockets.sockets.get(id);
      if (socket && rooms.some((r) => socket.rooms.has(r))) this.catchingUp.get(id)?.push(msg);
    }
    for (const id of recent) {
      const socket = this.server.sockets.sockets.get(id);
      const sent = this.recent.get(id)!;
      if (!socket || !rooms.some((r) => socket.rooms.has(r)) || sent.has(msg.position)) continue;
      socket.emit(FLOW_EVENT, msg);
      sent.add(msg.position);
    }
  }

  onModuleDestroy(): void {
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    // what is still pending goes out while the sockets and the Redis connections are open
    this.flush();
  }

  /** after the socket.io server closed (Nest closes it before the shutdown hooks) */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.redisClients.map((c) => c.quit().catch(() => undefined)));
    this.redisClients.length = 0;
  }
}
