import { type BeforeApplicationShutdown, Inject, type OnApplicationShutdown, type OnModuleDestroy, Optional } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FlowEventMessage } from '@wantuo/shared';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Server, Socket } from 'socket.io';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { DomainEvents } from '../../core/events/domain-events';
import { LOGGER } from '../../core/logging/logger';
import { Metrics } from '../../core/metrics/metrics';
import { REDIS } from '../../core/redis/redis.provider';
import { emitEach, emitEachMany } from './fan-out';
import { type Fence, FlowHorizon, settle, TAIL_BATCH, type TailEvent } from './flow-horizon';
import {
  BATCH_ROOM,
  FRESH_WAIT_MS,
  HELD_FIRST_MS,
  HELD_MAX_MS,
  LAST_FLUSH_MS,
  LEGACY_PEER_EVENT,
  MAX_FENCES,
  PEER_EVENT,
  parseSince,
  toMessage,
  type LiveData,
  FLOW_EVENT,
  FLOW_EVENTS,
  FLUSH_MS,
  MEALS_COUNT,
  CONVERSATION_MESSAGE,
  FLOW_ERROR,
  RECHECK_MS,
} from './live-protocol';
import { type Audience, CATCH_UP_BATCH, classRoom, LiveAuth, LiveRefusal, roomsOf, roomsOfEvent, schoolRoom, userRoom } from './live-auth';

/** at shutdown, how long the sockets' goodbyes (flow.error 503 and the disconnect) may take to be written */
const GOODBYE_MS = 1_000;

/**
 * The live daily flow (socket.io on the API's HTTP server, path /socket.io).
 *
 * Handshake `auth: { token, since?, batch? }`. A missing/unknown token is refused before the connection exists: the
 * client gets `connect_error` with `message` '401' (and `data: { code: 401 }`); '403' for a user without a school, '400'
 * for a bad `since` or `batch`. Accepted sockets join their rooms (school:<id> for admins; class:<id> / student:<id> for
 * teachers; student:<id> for parents) and receive `flow.event` (FlowEventMessage), or with `batch: true` their live
 * events as `flow.events` (FlowEventMessage[], one per flush). With `since`, they first get every visible event with
 * global_position > since that was committed before they connected, in order; live events that arrive meanwhile are
 * held for that socket and sent after, without duplicates. Every minute the sessions of open sockets are checked
 * again: a socket whose session ended gets `flow.error` `{ code: 401 }` and is disconnected. Rooms are computed at
 * connection: a changed class or duty applies from the next connection.
 *
 * Events go out in position order and only up to the safe horizon (FlowHorizon): every position up to it is final, so
 * a client never sees a position before a lower one that may still commit, and `since` = the highest position it saw
 * never skips an event. The live path is a tail of flow_events: a 'flow.committed' domain event (or a peer's wake-up)
 * only says that something was committed; at the next flush one round trip takes a fence, checks the running
 * transactions and reads the committed events of the schools with sockets here after the last position delivered.
 * The tail starts with the first connection; then nothing committed: no flush, no query (and nobody listening here: the
 * round trip reads no events, it only keeps the horizon).
 *
 * Several API processes: with REDIS_URL the Redis adapter connects them; a process that committed something tells the
 * others (serverSideEmit, one message per flush) and every process reads and delivers to its own sockets.
 *
 * Shutdown (core/shutdown/graceful-shutdown.ts): after the last flush every socket here gets `flow.error`
 * `{ code: 503 }` (the server is going away: reconnect) and a server disconnect; the client reconnects with its `since`
 * (to another process, or to this one restarted) and misses nothing.
 */
@WebSocketGateway({ path: '/socket.io', serveClient: false, maxHttpBufferSize: 64_000 })
export class FlowGateway implements OnGatewayInit, OnGatewayConnection, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  @WebSocketServer() server!: Server;

  /** sockets of this process per school: the schools whose events the tail reads */
  private readonly schools = new Map<number, number>();
  /** sockets of this process still receiving their catch-up, with the live events held for them */
  private readonly catchingUp = new Map<string, FlowEventMessage[]>();
  /**
   * Every position up to this one is final and its events were delivered to the sockets here (the tail's cursor); null
   * until the first connection started the tail.
   */
  private safe: number | null = null;
  /** fences taken and not final yet, oldest first */
  private fences: Fence[] = [];
  /** the highest position announced committed (here or by a peer), and the part announced since the last read began */
  private announced = 0;
  private announcedDuringRead = 0;
  /** callers waiting for the horizon to reach a position */
  private waiters: Array<{ position: number; resolve: () => void }> = [];
  /** callers waiting for a fence taken after they asked to be final */
  private fresh: Array<() => void> = [];
  /** the read in flight (one at a time), and the flush waiting for its turn */
  private reading: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private flushImmediate: NodeJS.Immediate | null = null;
  /** when the last read began (the pace under load) */
  private lastFlush = 0;
  /** while the horizon is held back by a running transaction: when the next check may run, and the current wait */
  private heldUntil = 0;
  private heldMs = 0;
  /** the highest position committed here and not yet told to the other processes */
  private toPeers = 0;
  private lastPeerEmit = 0;
  private peerTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly redisClients: Redis[] = [];
  private recheckTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly auth: LiveAuth,
    private readonly horizon: FlowHorizon,
    private readonly events: DomainEvents,
    @Inject(REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Logger,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  afterInit(server: Server): void {
    // live_sockets: this process's open sockets, read at each scrape (core/metrics)
    this.metrics?.countSockets(() => server.sockets.sockets.size);
    if (this.redis) {
      const pub = this.redis.duplicate();
      const sub = this.redis.duplicate();
      this.redisClients.push(pub, sub);
      server.adapter(createAdapter(pub, sub, { key: `${this.config.queuePrefix}:socket.io` }));
      const peers = server.sockets as unknown as { on(ev: string, fn: (x: unknown) => void): void };
      // a peer's commit: read at once (the peer already paced its wake-ups), it may be what held the horizon back
      peers.on(PEER_EVENT, (position) => {
        if (typeof position === 'number' && Number.isSafeInteger(position)) this.announce(position, true);
      });
      peers.on(LEGACY_PEER_EVENT, (batch) => {
        const positions = Array.isArray(batch) ? batch.map((e: { position?: unknown }) => e?.position).filter((p) => Number.isSafeInteger(p)) : [];
        if (positions.length) this.announce(Math.max(...(positions as number[])), true);
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
    const offFlow = this.events.on('flow.committed', (e) => {
      this.toPeers = Math.max(this.toPeers, e.position);
      this.tellPeers();
      this.announce(e.position, false);
    });
    // through the adapter: every process's sockets of these rooms get it once (the domain event is local to one process)
    const offMeals = this.events.on('meals.count', ({ school_id, ...msg }) => {
      server.to([schoolRoom(school_id), ...msg.class_ids.map(classRoom)]).emit(MEALS_COUNT, msg);
    });
    const offConversations = this.events.on('conversation.message', ({ school_id: _, user_ids, ...msg }) => {
      if (user_ids.length) server.to(user_ids.map(userRoom)).emit(CONVERSATION_MESSAGE, msg);
    });
    this.unsubscribe = () => {
      offFlow();
      offMeals();
      offConversations();
    };
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

  /**
   * The horizon now: a flush at once, answering the position up to which everything is final and delivered here (null
   * while nobody listens here). What a test waits for instead of a clock.
   */
  async settled(): Promise<number | null> {
    while (this.reading) await this.reading;
    await this.read();
    return this.safe;
  }

  private async authenticate(socket: Socket): Promise<string | null> {
    const { token, since, batch, flow } = (socket.handshake.auth ?? {}) as { token?: unknown; since?: unknown; batch?: unknown; flow?: unknown };
    const user = await this.auth.resolve(token);
    if (!user) return LiveRefusal.Unauthorized;
    const s = parseSince(since);
    if (s === 'bad') return LiveRefusal.BadInput;
    const audience = await this.auth.audience(user);
    if (!audience) return LiveRefusal.Forbidden;
    if (batch !== undefined && typeof batch !== 'boolean') return LiveRefusal.BadInput;
    if (flow !== undefined && typeof flow !== 'boolean') return LiveRefusal.BadInput;
    const data: LiveData = { user, audience, since: s, batch: batch === true, flow: flow !== false };
    socket.data = data;
    // the first connection starts the tail, before the client hears it is connected: whatever it commits next is
    // above the tail's cursor
    if (this.safe === null) await this.freshHorizon();
    return null;
  }

  handleConnection(socket: Socket): Promise<void> | void {
    const { user, audience, since, batch, flow } = socket.data as LiveData;
    // a socket that follows no flow (`flow: false`: a conversation page) hears only what is sent to its user
    if (!flow) {
      socket.join(userRoom(user.id));
      return;
    }
    // counted, in its rooms and, when catching up, holding in the same turn as the connection: from now on every
    // read of the tail that starts includes its school, and what the tail delivers reaches it or is held for it
    const newSchool = !this.schools.has(audience.schoolId);
    this.schools.set(audience.schoolId, (this.schools.get(audience.schoolId) ?? 0) + 1);
    socket.once('disconnect', () => this.leave(audience.schoolId));
    socket.join(batch ? [...roomsOf(audience), BATCH_ROOM, userRoom(user.id)] : [...roomsOf(audience), userRoom(user.id)]);
    // A read in flight began without this school: it moves the cursor past whatever of this school it did not read,
    // so such a socket catches up from the cursor as it is now to where that read leaves it.
    const from = since ?? (newSchool && this.reading ? this.safe : null);
    if (from === null) return;
    const held: FlowEventMessage[] = [];
    this.catchingUp.set(socket.id, held);
    return this.catchUp(socket, audience, from, held, since !== null);
  }

  /**
   * Sends the events after `since` up to the horizon (with `fresh`, one taken after the client connected, waited for
   * FRESH_WAIT_MS at most; else the one the read in flight leaves), then what the tail delivered meanwhile above it:
   * every position once, in order.
   */
  private async catchUp(socket: Socket, audience: Audience, since: number, held: FlowEventMessage[], fresh: boolean): Promise<void> {
    try {
      if (fresh) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.freshHorizon(), new Promise((r) => (timer = setTimeout(r, FRESH_WAIT_MS)))]);
        clearTimeout(timer);
      } else {
        while (this.reading) await this.reading;
      }
      if (!socket.connected) return;
      const upTo = this.safe ?? since;
      let last = since;
      while (last < upTo) {
        const page = await this.auth.eventsAfter(audience, last, upTo);
        if (!socket.connected) return;
        for (const e of page) socket.emit(FLOW_EVENT, e);
        if (page.length) this.metrics?.liveDelivered.inc({ event: FLOW_EVENT }, page.length);
        if (page.length < CATCH_UP_BATCH) break;
        last = page[page.length - 1].position;
      }
      const seen = Math.max(upTo, since);
      let sent = 0;
      for (const e of held) {
        if (e.position <= seen) continue;
        socket.emit(FLOW_EVENT, e);
        sent++;
      }
      if (sent) this.metrics?.liveDelivered.inc({ event: FLOW_EVENT }, sent);
    } catch (err) {
      this.log.error({ err, socket: socket.id }, 'socket catch-up failed');
      socket.disconnect(true);
    } finally {
      this.catchingUp.delete(socket.id);
    }
  }

  private leave(schoolId: number): void {
    const left = (this.schools.get(schoolId) ?? 1) - 1;
    if (left > 0) this.schools.set(schoolId, left);
    else this.schools.delete(schoolId);
  }

  /** Resolves once a fence taken after this call is final (and so is every position up to it). */
  private freshHorizon(): Promise<void> {
    return new Promise((resolve) => {
      this.fresh.push(resolve);
      this.schedule();
    });
  }

  /** A commit was announced (here, or by a peer: then read at once). */
  private announce(position: number, now: boolean): void {
    this.announced = Math.max(this.announced, position);
    this.announcedDuringRead = Math.max(this.announcedDuringRead, position);
    if (now) this.heldUntil = 0;
    this.schedule(now);
  }

  /** Tells the other processes what was committed here: one message per FLUSH_MS at most, at once after a quiet moment. */
  private tellPeers(): void {
    if (!this.redis || this.peerTimer) return;
    const send = () => {
      this.peerTimer = null;
      this.lastPeerEmit = Date.now();
      try {
        this.server.serverSideEmit(PEER_EVENT, this.toPeers);
      } catch (err) {
        this.log.error({ err }, 'live wake-up of the other processes failed');
      }
    };
    this.peerTimer = setTimeout(send, Math.max(0, this.lastPeerEmit + FLUSH_MS - Date.now()));
  }

  /** What the tail still has to do: a horizon someone waits for, or committed events not delivered here yet. */
  private wanted(): boolean {
    if (this.fresh.length || this.waiters.length) return true;
    return this.safe !== null && this.announced > this.safe;
  }

  /**
   * Schedules the next flush: at once after a quiet moment (or when asked to), at most every FLUSH_MS while events
   * keep coming, and while a running transaction holds the horizon back, after HELD_FIRST_MS, doubling.
   */
  private schedule(now = false): void {
    if (this.reading || !this.wanted()) return;
    const at = this.fresh.length || now ? 0 : this.heldMs ? this.heldUntil : this.lastFlush + FLUSH_MS;
    const wait = at - Date.now();
    if (wait > 0) {
      if (this.flushTimer || this.flushImmediate) return;
      this.flushTimer = setTimeout(() => this.flush(), wait);
      return;
    }
    if (this.flushImmediate) return;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.flushImmediate = setImmediate(() => this.flush());
  }

  /** A timer's callback: reads and delivers. Never throws. */
  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    this.flushTimer = null;
    this.flushImmediate = null;
    if (this.reading || !this.wanted()) return;
    void this.read();
  }

  /** One round trip of the tail (FlowHorizon.read), then delivery of what became final. One at a time. */
  private read(): Promise<void> {
    if (this.reading) return this.reading;
    const run = async () => {
      const fresh = this.fresh.splice(0);
      const from = this.safe;
      const announcedBefore = this.announced;
      this.announcedDuringRead = 0;
      this.lastFlush = Date.now();
      let full = false;
      try {
        const tail = await this.horizon.read(from === null ? [] : [...this.schools.keys()], from);
        // an announced position the sequence had not handed out when the fence was read does not exist
        if (announcedBefore > tail.fence.last) this.announced = Math.max(tail.fence.last, this.announcedDuringRead);
        const { final, waiting } = settle([...this.fences, tail.fence], tail.oldest);
        this.fences = waiting.length > MAX_FENCES ? [...waiting.slice(0, MAX_FENCES - 1), waiting[waiting.length - 1]] : waiting;
        let upTo = Math.max(this.safe ?? final ?? -1, final ?? -1);
        // at most TAIL_BATCH events per read: past the last one read, the next read goes on
        full = tail.events.length === TAIL_BATCH;
        if (full) upTo = Math.min(upTo, tail.events[tail.events.length - 1].position);
        const ready = from === null ? [] : tail.events.filter((e) => e.position <= upTo);
        if (upTo >= 0) this.safe = upTo;
        if (ready.length) this.deliverAll(ready);
        for (const resolve of fresh) this.waiters.push({ position: tail.fence.last, resolve });
        const due = this.waiters.filter((w) => this.safe !== null && w.position <= this.safe);
        this.waiters = this.waiters.filter((w) => !due.includes(w));
        for (const w of due) w.resolve();
        // Held back: the horizon did not move and what was announced before this read (or is waited for) is not final.
        // A write in flight ends within milliseconds: look again soon, then less and less often. After progress the
        // next read keeps the pace (a fence this read left waiting is looked at again then).
        const held = this.safe === from && (this.safe === null || this.waiters.length > 0 || Math.min(announcedBefore, tail.fence.last) > this.safe);
        this.heldMs = held ? Math.min(HELD_MAX_MS, this.heldMs ? this.heldMs * 2 : HELD_FIRST_MS) : 0;
        this.heldUntil = Date.now() + this.heldMs;
      } catch (err) {
        // the boards catch up when they reconnect; the next flush tries again
        this.log.error({ err }, 'live flush failed');
        this.fresh.push(...fresh);
        this.heldMs = Math.min(HELD_MAX_MS, this.heldMs ? this.heldMs * 2 : HELD_FIRST_MS);
        this.heldUntil = Date.now() + this.heldMs;
      } finally {
        this.reading = null;
        this.schedule(full);
      }
    };
    this.reading = run();
    return this.reading;
  }

  /**
   * Delivers committed events, in position order, to this process's sockets: one `flow.event` per event to the plain
   * sockets (all of a flush's events of a socket in one write: the frames of each distinct list are built once), one
   * `flow.events` to each batch socket with the events of its rooms (one frame per distinct list: every admin board
   * of a school shares one). Sockets catching up get them held. Never throws.
   */
  private deliverAll(batch: TailEvent[]): void {
    try {
      this.deliverEach(batch);
    } catch (err) {
      // the cursor has moved on: those who missed something catch up when they reconnect
      this.log.error({ err, events: batch.length }, 'live delivery failed');
    }
  }

  private deliverEach(batch: TailEvent[]): void {
    const msgs = batch.map(toMessage);
    const rooms = this.server.sockets.adapter.rooms;
    let delivered = 0;
    const batchIds = rooms.get(BATCH_ROOM);
    const lists = new Map<string, number[]>();
    const plainLists = new Map<string, number[]>();
    for (const [i, e] of batch.entries()) {
      for (const room of roomsOfEvent(e)) {
        for (const id of rooms.get(room) ?? []) {
          const held = this.catchingUp.get(id);
          if (held) {
            if (held[held.length - 1] !== msgs[i]) held.push(msgs[i]);
          } else {
            const into = batchIds?.has(id) ? lists : plainLists;
            const list = into.get(id);
            if (!list) into.set(id, [i]);
            else if (list[list.length - 1] !== i) list.push(i);
          }
        }
      }
    }
    // the same event lists to the same frames: every admin board of a school shares one
    const groupsOf = (of: Map<string, number[]>) => {
      const groups = new Map<string, string[]>();
      for (const [id, list] of of) {
        const key = list.join(',');
        const ids = groups.get(key);
        if (ids) ids.push(id);
        else groups.set(key, [id]);
      }
      return groups;
    };
    for (const [key, ids] of groupsOf(plainLists)) {
      const items = key.split(',').map((i) => msgs[Number(i)]);
      emitEachMany(this.server, ids, FLOW_EVENT, items, this.config.liveDirectWrite);
      delivered += ids.length * items.length;
    }
    for (const [key, ids] of groupsOf(lists)) {
      emitEach(
        this.server,
        ids,
        FLOW_EVENTS,
        key.split(',').map((i) => msgs[Number(i)]),
        this.config.liveDirectWrite,
      );
    }
    this.observe(batch, delivered, lists.size);
  }

  /**
   * live_messages_delivered_total (one per socket write) and flow_delivery_lag_seconds: for each event of a flush, the
   * time from its commit (the event's `at`, set by the write) to its delivery here.
   */
  private observe(batch: TailEvent[], plain: number, batched: number): void {
    const m = this.metrics;
    if (!m) return;
    if (plain) m.liveDelivered.inc({ event: FLOW_EVENT }, plain);
    if (batched) m.liveDelivered.inc({ event: FLOW_EVENTS }, batched);
    const now = Date.now();
    for (const e of batch) {
      const at = Date.parse(e.at);
      if (Number.isFinite(at)) m.flowLag.observe(Math.max(0, now - at) / 1000);
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    this.flushTimer = null;
    this.flushImmediate = null;
    // what was committed here goes to the other processes and to the sockets here while the sockets, the database and
    // the Redis connections are open
    if (this.peerTimer) {
      clearTimeout(this.peerTimer);
      this.peerTimer = null;
      this.lastPeerEmit = 0;
      if (this.redis) this.server.serverSideEmit(PEER_EVENT, this.toPeers);
    }
    if (!this.wanted() && !this.reading) return;
    let timer: NodeJS.Timeout | undefined;
    const last = (async () => {
      while (this.reading) await this.reading;
      if (this.wanted()) await this.read();
    })();
    await Promise.race([last, new Promise((r) => (timer = setTimeout(r, LAST_FLUSH_MS)))]);
    clearTimeout(timer);
  }

  /**
   * After the last flush (onModuleDestroy), before Nest closes the socket.io server: each socket is told the server is
   * going away and disconnected, and its goodbye written (GOODBYE_MS at most for all of them).
   */
  async beforeApplicationShutdown(): Promise<void> {
    const sockets = this.server ? [...this.server.sockets.sockets.values()] : [];
    if (!sockets.length) return;
    for (const s of sockets) {
      s.emit(FLOW_ERROR, { code: 503 });
      s.disconnect(true);
    }
    this.log.info({ sockets: sockets.length }, 'shutdown: live sockets told and disconnected');
    const until = Date.now() + GOODBYE_MS;
    while (this.server.engine.clientsCount > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }

  /** after the socket.io server closed (Nest closes it before the shutdown hooks) */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.redisClients.map((c) => c.quit().catch(() => undefined)));
    this.redisClients.length = 0;
  }
}
