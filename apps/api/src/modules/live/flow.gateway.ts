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
/** Between API processes (Redis adapter serverSideEmit): committed events, delivered by each process to its own sockets. */
const PEER_EVENT = 'flow.committed';
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
 * Handshake `auth: { token, since? }`. A missing/unknown token is refused before the connection exists: the client
 * gets `connect_error` with `message` '401' (and `data: { code: 401 }`); '403' for a user without a school, '400' for a
 * bad `since`. Accepted sockets join their rooms (school:<id> for admins; class:<id> / student:<id> for teachers; student:<id>
 * for parents) and receive `flow.event` (FlowEventMessage). With `since`, they first get every visible event with
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
  /** committed events of this turn of the event loop, delivered right after it */
  private pending: Committed[] = [];
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
        for (const e of batch) this.deliver(e);
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
    const { token, since } = (socket.handshake.auth ?? {}) as { token?: unknown; since?: unknown };
    const user = await this.auth.resolve(token);
    if (!user) return LiveRefusal.Unauthorized;
    const s = parseSince(since);
    if (s === 'bad') return LiveRefusal.BadInput;
    const audience = await this.auth.audience(user);
    if (!audience) return LiveRefusal.Forbidden;
    const data: LiveData = { user, audience, since: s };
    socket.data = data;
    return null;
  }

  async handleConnection(socket: Socket): Promise<void> {
    const { audience, since } = socket.data as LiveData;
    // rooms first, and the socket is marked as catching up in the same tick: from now on no live event is lost
    const held: FlowEventMessage[] = [];
    if (since !== null) this.catchingUp.set(socket.id, held);
    await socket.join(roomsOf(audience));
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
      for (const e of held) {
        if (e.position <= last || sent.has(e.position)) continue;
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
   * Takes a committed event off the command's path: the events of one turn of the event loop are delivered together
   * right after it (setImmediate), so a command's HTTP answer is written before its fan-out to the sockets, and the
   * other processes get one Redis message per turn instead of one per event.
   */
  private enqueue(e: Committed): void {
    this.pending.push(e);
    if (this.pending.length > 1) return;
    setImmediate(() => {
      const batch = this.pending;
      this.pending = [];
      if (this.redis) this.server.serverSideEmit(PEER_EVENT, batch);
      for (const x of batch) this.deliver(x);
    });
  }

  /** Delivers a committed event to this process's sockets: at once to the caught-up ones, held for the others. */
  private deliver(e: Committed): void {
    const rooms = roomsOfEvent(e);
    const msg = toMessage(e);
    const held = [...this.catchingUp.keys()];
    const recent = [...this.recent.keys()];
    const except = [...held, ...recent];
    const to = this.server.local.to(rooms);
    (except.length ? to.except(except) : to).emit(FLOW_EVENT, msg);
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
  }

  /** after the socket.io server closed (Nest closes it before the shutdown hooks) */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.redisClients.map((c) => c.quit().catch(() => undefined)));
    this.redisClients.length = 0;
  }
}
