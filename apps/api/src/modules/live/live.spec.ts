import type { NestExpressApplication } from '@nestjs/platform-express';
import type { FlowEventMessage } from '@wantuo/shared';
import type { AddressInfo } from 'node:net';
import { Client as PgClient } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { eventually, startPeerApp, startTestApp, type TestApp } from '../../../test/harness';
import type { Server } from 'socket.io';
import { APP_CONFIG, type AppConfig } from '../../core/config/config';
import { DomainEvents } from '../../core/events/domain-events';
import { emitEach, eventFrame, fanOutCounts } from './fan-out';
import { FlowGateway } from './flow.gateway';
import { FLUSH_MS } from './live-protocol';
import { LiveAuth } from './live-auth';

interface Client {
  socket: Socket;
  /** every event received, from `flow.event` and from `flow.events` */
  events: FlowEventMessage[];
  /** the `flow.events` messages (batch sockets) */
  batches: FlowEventMessage[][];
}

const urlOf = (app: NestExpressApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

/** Connects and resolves once connected (rejects with the refusal message on connect_error). */
function connect(url: string, auth: Record<string, unknown>, transport: 'websocket' | 'polling' = 'websocket'): Promise<Client> {
  const socket = io(url, { path: '/socket.io', auth, transports: [transport], reconnection: false, forceNew: true });
  const events: FlowEventMessage[] = [];
  const batches: FlowEventMessage[][] = [];
  socket.on('flow.event', (e: FlowEventMessage) => events.push(e));
  socket.on('flow.events', (list: FlowEventMessage[]) => {
    batches.push(list);
    events.push(...list);
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, events, batches }));
    socket.once('connect_error', (err: Error & { data?: unknown }) => {
      socket.close();
      reject(Object.assign(new Error(err.message), { data: err.data }));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const positions = (c: Client) => c.events.map((e) => e.position);

describe('live flow gateway', () => {
  let t: TestApp;
  let url: string;
  let schoolId: number;
  let runningClass: number;
  let secondClass: number;
  /** students of 阳光一班; the parent's children among them */
  let running: number[];
  let children: number[];
  let secondStudent: number;
  const clients: Client[] = [];

  const open = async (auth: Record<string, unknown>) => {
    const c = await connect(url, auth);
    clients.push(c);
    return c;
  };

  /** Appends a flow_events row like the store would (on `db`: the test's connection unless given), as its message. */
  async function insert(db: PgClient, school: number, studentId: number, classId: number | null): Promise<FlowEventMessage> {
    const { rows } = await db.query(
      `insert into flow_events (event_id, school_id, student_id, day, version, type, class_id, state_after, actor_id, occurred_at)
       values (gen_random_uuid(), $1, $2, (now() at time zone 'Asia/Shanghai')::date,
               coalesce((select max(version) from flow_events where student_id = $2 and day = (now() at time zone 'Asia/Shanghai')::date), 0) + 1,
               'student.entered', $3, 'in_centre', null, now())
       returning global_position, to_char(day, 'YYYY-MM-DD') as day, occurred_at`,
      [school, studentId, classId],
    );
    return {
      position: Number(rows[0].global_position),
      student_id: studentId,
      class_id: classId,
      day: rows[0].day,
      type: 'student.entered',
      state: 'in_centre',
      at: new Date(rows[0].occurred_at).toISOString(),
      actor: null,
    };
  }

  /** Appends a flow_events row like the store would, and emits 'flow.committed' after "commit". */
  async function commit(studentId: number, classId: number | null, opts: { emit?: boolean; school?: number } = {}): Promise<FlowEventMessage> {
    const school = opts.school ?? schoolId;
    const msg = await insert(t.sql, school, studentId, classId);
    if (opts.emit !== false) t.app.get(DomainEvents).emit('flow.committed', { ...msg, school_id: school });
    return msg;
  }

  /**
   * An append whose transaction stays open on a connection of its own: it has taken its position and commits (or rolls
   * back) when the test says so, like an append that lost the CPU between its insert and its commit.
   */
  async function hold(
    studentId: number,
    classId: number | null,
  ): Promise<{ msg: FlowEventMessage; commit(): Promise<void>; rollback(): Promise<void> }> {
    const db = new PgClient({ connectionString: t.config.databaseUrl! });
    await db.connect();
    await db.query('begin');
    const msg = await insert(db, schoolId, studentId, classId);
    const end = async (how: 'commit' | 'rollback') => {
      try {
        await db.query(how);
        // as the store does after its commit
        if (how === 'commit') t.app.get(DomainEvents).emit('flow.committed', { ...msg, school_id: schoolId });
      } finally {
        await db.end();
      }
    };
    return { msg, commit: () => end('commit'), rollback: () => end('rollback') };
  }

  beforeAll(async () => {
    t = await startTestApp({ runJobs: false, demoPeople: true });
    await t.app.listen(0, '127.0.0.1');
    url = urlOf(t.app);
    schoolId = t.demo.schoolId;
    runningClass = t.demo.classes!.running;
    secondClass = t.demo.classes!.second;
    const r = await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id`, [runningClass]);
    running = r.rows.map((x) => x.student_id as number);
    const g = await t.sql.query(`select student_id from student_guardians where user_id = $1 order by student_id`, [t.demo.users.parent]);
    children = g.rows.map((x) => x.student_id as number);
    const s = await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id limit 1`, [secondClass]);
    secondStudent = s.rows[0].student_id;
    expect(running.length).toBe(10);
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((c) => running.includes(c))).toBe(true);
  });

  afterEach(() => {
    for (const c of clients.splice(0)) c.socket.close();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('handshake', () => {
    it('refuses a connection without a token with 401', async () => {
      await expect(connect(url, {})).rejects.toMatchObject({ message: '401', data: { code: 401 } });
    });

    it('refuses an unknown, oversized or non-string token with 401', async () => {
      await expect(connect(url, { token: 'not-a-token' })).rejects.toMatchObject({ message: '401' });
      await expect(connect(url, { token: 'x'.repeat(10_000) })).rejects.toMatchObject({ message: '401' });
      await expect(connect(url, { token: { $ne: null } })).rejects.toMatchObject({ message: '401' });
      await expect(connect(url, { token: "' or 1=1 --" })).rejects.toMatchObject({ message: '401' });
    });

    it('refuses a revoked token (logout) with 401', async () => {
      const token = await t.login('admin');
      const c = await connect(url, { token });
      c.socket.close();
      await t.post('/api/index/logout', token).send({});
      await expect(connect(url, { token })).rejects.toMatchObject({ message: '401' });
    });

    it('drops an open socket whose session ended, with flow.error 401; others stay', async () => {
      const admin = await open({ token: await t.login('admin') });
      const token = await t.login('parent');
      const parent = await open({ token });
      const errors: unknown[] = [];
      parent.socket.on('flow.error', (e: unknown) => errors.push(e));
      const gone = new Promise<string>((r) => parent.socket.once('disconnect', r));
      expect(await t.app.get(FlowGateway).recheck()).toBe(0);
      await t.post('/api/index/logout', token).send({});
      expect(await t.app.get(FlowGateway).recheck()).toBe(1);
      expect(await gone).toBe('io server disconnect');
      expect(errors).toEqual([{ code: 401 }]);
      expect(admin.socket.connected).toBe(true);
    });

    it('refuses a bad since with 400 and the operator (no school) with 403', async () => {
      const token = await t.login('admin');
      await expect(connect(url, { token, since: -1 })).rejects.toMatchObject({ message: '400' });
      await expect(connect(url, { token, since: 'abc' })).rejects.toMatchObject({ message: '400' });
      await expect(connect(url, { token, since: 1.5 })).rejects.toMatchObject({ message: '400' });
      await expect(connect(url, { token: await t.login('operator') })).rejects.toMatchObject({ message: '403' });
    });
  });

  describe('audiences', () => {
    it('admin: every event of the school; head teacher and teacher: their class; parent: their child; other school: nothing', async () => {
      const admin = await open({ token: await t.login('admin') });
      const adviser = await open({ token: await t.login('adviser') });
      const teacher = await open({ token: await t.login('teacher') });
      const parent = await open({ token: await t.login('parent') });
      const other = await open({ token: (await t.otherSchool()).adminToken });

      const inClass = await commit(
        running.find((s) => !children.includes(s))!,
        runningClass,
      );
      const child = await commit(children[0], runningClass);
      const elsewhere = await commit(secondStudent, secondClass);
      const noClass = await commit(children[0], null);

      await eventually(async () => (admin.events.length === 4 ? true : null));
      await sleep(200);
      expect(positions(admin)).toEqual([inClass, child, elsewhere, noClass].map((e) => e.position));
      expect(admin.events[0]).toEqual(inClass);
      expect(positions(adviser)).toEqual([inClass.position, child.position]);
      expect(positions(teacher)).toEqual([inClass.position, child.position]);
      expect(positions(parent)).toEqual([child.position, noClass.position]);
      expect(other.events).toEqual([]);
    });

    it('a teacher with a per-student duty follows that student only', async () => {
      await t.sql.query(`insert into duty_assignments (school_id, class_id, student_id, teacher_id, duty) values ($1, $2, $3, $4, 'shuttle')`, [
        schoolId,
        secondClass,
        secondStudent,
        t.demo.users.teacher,
      ]);
      try {
        const teacher = await open({ token: await t.login('teacher') });
        const mine = await commit(secondStudent, secondClass);
        const other = await t.sql.query(`select student_id from care_class_students where class_id = $1 and student_id <> $2 limit 1`, [
          secondClass,
          secondStudent,
        ]);
        await commit(other.rows[0].student_id, secondClass);
        const inClass = await commit(running[0], runningClass);
        await eventually(async () => (teacher.events.length >= 2 ? true : null));
        await sleep(200);
        expect(positions(teacher)).toEqual([mine.position, inClass.position]);
      } finally {
        await t.sql.query(`delete from duty_assignments where student_id = $1 and teacher_id = $2`, [secondStudent, t.demo.users.teacher]);
      }
    });

    it('events of another school reach nobody here', async () => {
      const other = await t.otherSchool();
      const admin = await open({ token: await t.login('admin') });
      const otherAdmin = await open({ token: other.adminToken });
      const theirs = await commit(999_999, null, { school: other.schoolId });
      await eventually(async () => (otherAdmin.events.length === 1 ? true : null));
      expect(otherAdmin.events).toEqual([theirs]);
      expect(admin.events).toEqual([]);
    });
  });

  describe('batches (auth.batch)', () => {
    /** commits events for these students without telling the bus, then tells it all in one turn of the event loop */
    async function commitTogether(students: Array<[number, number | null]>): Promise<FlowEventMessage[]> {
      const msgs: FlowEventMessage[] = [];
      for (const [student, cls] of students) msgs.push(await commit(student, cls, { emit: false }));
      for (const m of msgs) t.app.get(DomainEvents).emit('flow.committed', { ...m, school_id: schoolId });
      return msgs;
    }

    it('a batch socket gets the events of one flush as one flow.events message, in order; plain sockets one flow.event each', async () => {
      const token = await t.login('admin');
      const batch = await open({ token, batch: true });
      const plain = await open({ token });
      const msgs = await commitTogether(running.map((s) => [s, runningClass] as [number, number]));
      await eventually(async () => (batch.events.length === 10 && plain.events.length === 10 ? true : null));
      await sleep(100);
      expect(batch.batches).toEqual([msgs]);
      expect(plain.batches).toEqual([]);
      expect(plain.events).toEqual(msgs);
    });

    it('each batch socket gets only what its rooms may see; another school nothing', async () => {
      const adviser = await open({ token: await t.login('adviser'), batch: true });
      const parent = await open({ token: await t.login('parent'), batch: true });
      const other = await open({ token: (await t.otherSchool()).adminToken, batch: true });
      const notChild = running.find((s) => !children.includes(s))!;
      const msgs = await commitTogether([
        [notChild, runningClass],
        [secondStudent, secondClass],
        [children[0], runningClass],
        [children[0], null],
      ]);
      await eventually(async () => (adviser.events.length === 2 && parent.events.length === 2 ? true : null));
      await sleep(100);
      expect(adviser.batches).toEqual([[msgs[0], msgs[2]]]);
      expect(parent.batches).toEqual([[msgs[2], msgs[3]]]);
      expect(other.events).toEqual([]);
    });

    it('events committed in quick succession are flushed together at most every FLUSH_MS, none lost', async () => {
      const batch = await open({ token: await t.login('admin'), batch: true });
      const sent: FlowEventMessage[] = [];
      const start = Date.now();
      for (let i = 0; i < 30; i++) sent.push(await commit(running[i % running.length], runningClass));
      const span = Date.now() - start;
      await eventually(async () => (batch.events.length === 30 ? true : null));
      expect(batch.events).toEqual(sent);
      // one flush at once, then at most one per FLUSH_MS while they keep coming
      expect(batch.batches.length).toBeLessThanOrEqual(Math.ceil(span / FLUSH_MS) + 2);
    });

    it('a flush of hundreds of events is one message, the same over websocket (one frame of more than 64 KiB) and long-polling', async () => {
      const token = await t.login('admin');
      const ws = await open({ token, batch: true });
      const polling = await connect(url, { token, batch: true }, 'polling');
      clients.push(polling);
      const plain = await open({ token });
      const { rows } = await t.sql.query(
        `insert into flow_events (event_id, school_id, student_id, day, version, type, class_id, state_after, occurred_at)
         select gen_random_uuid(), $1, $2, date '2021-01-01' + g, 1, 'student.entered', $3, 'in_centre', now()
           from generate_series(1, 450) g
         returning global_position, to_char(day, 'YYYY-MM-DD') as day, occurred_at`,
        [schoolId, running[0], runningClass],
      );
      const msgs: FlowEventMessage[] = rows
        .map((r) => ({
          position: Number(r.global_position),
          student_id: running[0],
          class_id: runningClass,
          day: r.day as string,
          type: 'student.entered' as const,
          state: 'in_centre' as const,
          at: new Date(r.occurred_at).toISOString(),
          actor: null,
        }))
        .sort((a, b) => a.position - b.position);
      expect(Buffer.byteLength(JSON.stringify(msgs))).toBeGreaterThan(0xffff);
      t.app.get(DomainEvents).emit('flow.committed', { ...msgs[msgs.length - 1], school_id: schoolId });
      await eventually(async () => (ws.events.length === 450 && polling.events.length === 450 && plain.events.length === 450 ? true : null));
      expect(ws.batches).toEqual([msgs]);
      expect(polling.batches).toEqual([msgs]);
      expect(plain.events).toEqual(msgs);
    });

    it('builds the websocket frame of an event once: header by payload length, then the socket.io packet', () => {
      for (const size of [10, 125, 126, 0xffff, 0x10000]) {
        const data = 'x'.repeat(size - '42["e",""]'.length);
        const frame = eventFrame('e', data);
        const n = frame[1] < 126 ? frame[1] : frame[1] === 126 ? frame.readUInt16BE(2) : Number(frame.readBigUInt64BE(2));
        const head = frame[1] < 126 ? 2 : frame[1] === 126 ? 4 : 10;
        expect({ fin_text: frame[0], n, total: frame.length - head }).toEqual({ fin_text: 0x81, n: size, total: size });
        expect(frame.subarray(head).toString()).toBe(`42${JSON.stringify(['e', data])}`);
      }
    });

    it('refuses a batch flag that is not a boolean with 400', async () => {
      const token = await t.login('admin');
      await expect(connect(url, { token, batch: 'yes' })).rejects.toMatchObject({ message: '400', data: { code: 400 } });
    });
  });

  describe('direct writes (fan-out.ts)', () => {
    const server = () => t.app.get(FlowGateway).server;
    /** the counts' change while `work` runs */
    async function counted(work: () => Promise<void>): Promise<typeof fanOutCounts> {
      const before = { ...fanOutCounts };
      await work();
      return {
        direct: fanOutCounts.direct - before.direct,
        fallback: fanOutCounts.fallback - before.fallback,
        unsupported: fanOutCounts.unsupported - before.unsupported,
      };
    }
    /** waits until the server has exactly the sockets of the open clients (closed ones of earlier tests gone) */
    const settled = () => eventually(async () => (server().sockets.sockets.size === clients.length ? true : null));
    /** the engine.io connection under a client's socket, as the server holds it (its private fields are untyped) */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const connOf = (c: Client): any => server().sockets.sockets.get(c.socket.id!)!.conn;
    const commitSeveral = async (n: number) => {
      const sent: FlowEventMessage[] = [];
      for (let i = 0; i < n; i++) sent.push(await commit(running[i % running.length], runningClass));
      return sent;
    };

    it('is the path taken for a plain open websocket (counted); long-polling goes through socket.io', async () => {
      const token = await t.login('admin');
      const ws = await open({ token });
      const polling = await connect(url, { token }, 'polling');
      clients.push(polling);
      await settled();
      let sent: FlowEventMessage[] = [];
      const d = await counted(async () => {
        sent = await commitSeveral(5);
        await eventually(async () => (ws.events.length === 5 && polling.events.length === 5 ? true : null));
      });
      expect(ws.events).toEqual(sent);
      expect(polling.events).toEqual(sent);
      expect(d).toEqual({ direct: 5, fallback: 5, unsupported: 0 });
    });

    it('a socket whose ws or engine.io private fields are not as expected falls back to socket.io, in order, nothing lost', async () => {
      const token = await t.login('admin');
      const [a, b, c] = [await open({ token }), await open({ token }), await open({ token })];
      await settled();
      // as if a ws release renamed the sender's queue (ws itself reads it only while compressing, which this socket does not)
      const sender = connOf(b).transport.socket._sender;
      const queue = sender._queue;
      delete sender._queue;
      let sent: FlowEventMessage[] = [];
      try {
        const d = await counted(async () => {
          sent = await commitSeveral(6);
          await eventually(async () => ([a, b, c].every((x) => x.events.length === 6) ? true : null));
        });
        expect(d).toEqual({ direct: 12, fallback: 6, unsupported: 1 });
      } finally {
        sender._queue = queue;
      }
      for (const x of [a, b, c]) expect(x.events).toEqual(sent);
    });

    it('never throws in the loop: each socket with a field missing gets the event through socket.io, the others directly', () => {
      /** a socket as engine.io 6.6 and ws 8.21 shape it, with a TCP socket that records what is written */
      const shaped = (id: string) => {
        const written: Buffer[] = [];
        const tcp = { writable: true, write: (b: Buffer) => written.push(b) };
        const ws = { readyState: 1, _extensions: {}, _sender: { _state: 0, _queue: [] }, _socket: tcp };
        const conn = { readyState: 'open', upgrading: false, writeBuffer: [], transport: { name: 'websocket', socket: ws } };
        return { id, conn, written };
      };
      const breaks: Array<[string, (s: ReturnType<typeof shaped>) => void]> = [
        ['no writeBuffer', (s) => delete (s.conn as Partial<typeof s.conn>).writeBuffer],
        ['no upgrading flag', (s) => delete (s.conn as Partial<typeof s.conn>).upgrading],
        ['no transport', (s) => delete (s.conn as Partial<typeof s.conn>).transport],
        ['no ws socket', (s) => delete (s.conn.transport as Partial<typeof s.conn.transport>).socket],
        ['no extensions', (s) => delete (s.conn.transport.socket as Partial<typeof s.conn.transport.socket>)._extensions],
        ['no sender', (s) => delete (s.conn.transport.socket as Partial<typeof s.conn.transport.socket>)._sender],
        ['no sender state', (s) => delete (s.conn.transport.socket._sender as Partial<typeof s.conn.transport.socket._sender>)._state],
        ['no TCP socket', (s) => delete (s.conn.transport.socket as Partial<typeof s.conn.transport.socket>)._socket],
        ['compressing', (s) => (s.conn.transport.socket._extensions = { 'permessage-deflate': {} })],
        ['sender busy deflating', (s) => (s.conn.transport.socket._sender._state = 1)],
        ['packets queued in engine.io', (s) => (s.conn.writeBuffer = [{}] as never[])],
        ['upgrading', (s) => (s.conn.upgrading = true)],
        ['polling', (s) => (s.conn.transport.name = 'polling')],
      ];
      const good = [shaped('good-1'), shaped('good-2')];
      const broken = breaks.map(([why, f]) => {
        const s = shaped(why);
        f(s);
        return s;
      });
      const all = [good[0], ...broken.slice(0, 6), good[1], ...broken.slice(6)];
      const emitted: Array<{ ids: string[]; event: string; data: unknown }> = [];
      const fake = {
        sockets: { sockets: new Map(all.map((s) => [s.id, { conn: s.conn }])) },
        local: { to: (ids: string[]) => ({ emit: (event: string, data: unknown) => emitted.push({ ids, event, data }) }) },
      } as unknown as Server;
      for (const round of [1, 2]) {
        expect(() =>
          emitEach(
            fake,
            all.map((s) => s.id),
            'flow.event',
            { round },
          ),
        ).not.toThrow();
        for (const g of good) expect(g.written[round - 1]).toEqual(eventFrame('flow.event', { round }));
        expect(emitted[round - 1]).toEqual({ ids: broken.map((s) => s.id), event: 'flow.event', data: { round } });
      }
      for (const b of broken) expect(b.written).toEqual([]);
      // a field that goes away after the socket was checked: that socket falls back, the loop goes on
      delete (good[0].conn as Partial<(typeof good)[0]['conn']>).writeBuffer;
      expect(() =>
        emitEach(
          fake,
          all.map((s) => s.id),
          'flow.event',
          { round: 3 },
        ),
      ).not.toThrow();
      expect(good[0].written).toHaveLength(2);
      expect(good[1].written).toHaveLength(3);
      expect(emitted[2].ids).toEqual([good[0].id, ...broken.map((s) => s.id)]);
    });

    it('a websocket that negotiated permessage-deflate is served by socket.io (compressed frames are not overtaken)', async () => {
      // the ws server under engine.io negotiates compression with clients that offer it (socket.io-client does)
      const wss = (server().engine as unknown as { ws: { options: { perMessageDeflate: unknown } } }).ws;
      const saved = wss.options.perMessageDeflate;
      wss.options.perMessageDeflate = { threshold: 0 };
      let deflating: Client;
      try {
        deflating = await open({ token: await t.login('admin') });
      } finally {
        wss.options.perMessageDeflate = saved;
      }
      const plain = await open({ token: await t.login('admin') });
      await settled();
      expect(Object.keys(connOf(deflating).transport.socket._extensions)).toEqual(['permessage-deflate']);
      let sent: FlowEventMessage[] = [];
      const d = await counted(async () => {
        sent = await commitSeveral(8);
        await eventually(async () => (deflating.events.length === 8 && plain.events.length === 8 ? true : null));
      });
      expect(deflating.events).toEqual(sent);
      expect(plain.events).toEqual(sent);
      expect(d).toEqual({ direct: 8, fallback: 8, unsupported: 0 });
    });

    it('LIVE_DIRECT_WRITE=0 (config liveDirectWrite false) sends every event through socket.io', async () => {
      const config = t.app.get<AppConfig>(APP_CONFIG);
      const ws = await open({ token: await t.login('admin') });
      await settled();
      config.liveDirectWrite = false;
      let sent: FlowEventMessage[] = [];
      try {
        const d = await counted(async () => {
          sent = await commitSeveral(4);
          await eventually(async () => (ws.events.length === 4 ? true : null));
        });
        expect(d).toEqual({ direct: 0, fallback: 4, unsupported: 0 });
      } finally {
        config.liveDirectWrite = true;
      }
      expect(ws.events).toEqual(sent);
    });
  });

  describe('safe horizon (positions are taken at insert, commits come in any order)', () => {
    it('a position whose transaction is still open holds back every higher one, live and in catch-up, until it commits', async () => {
      const token = await t.login('admin');
      const board = await open({ token, batch: true });
      const plain = await open({ token });
      const before = await commit(running[0], runningClass);
      await eventually(async () => (board.events.length === 1 && plain.events.length === 1 ? true : null));

      // `low` takes its position and stays uncommitted; `high` takes the next one and commits (and is announced)
      const low = await hold(running[1], runningClass);
      const high = await commit(running[2], runningClass);
      expect(high.position).toBeGreaterThan(low.msg.position);
      // the horizon stops below the open transaction: `high` is not sent to anyone
      const gateway = t.app.get(FlowGateway);
      expect(await gateway.settled()).toBeLessThan(low.msg.position);
      // a client that reconnects now from what it saw is not served `high` in its catch-up either
      const again = await open({ token, since: before.position, batch: true });

      await low.commit();
      await eventually(async () => (board.events.length === 3 && plain.events.length === 3 && again.events.length === 2 ? true : null));
      expect(await gateway.settled()).toBeGreaterThanOrEqual(high.position);
      // everyone got `low` before `high`: a `since` taken from the highest position seen skips nothing
      expect(positions(board)).toEqual([before.position, low.msg.position, high.position]);
      expect(positions(plain)).toEqual([before.position, low.msg.position, high.position]);
      expect(positions(again)).toEqual([low.msg.position, high.position]);
      const last = await open({ token, since: before.position });
      await eventually(async () => (last.events.length === 2 ? true : null));
      expect(last.events).toEqual([low.msg, high]);
    });

    it('a transaction that rolls back releases the higher positions; nothing is sent twice', async () => {
      const token = await t.login('admin');
      const board = await open({ token, batch: true });
      const doomed = await hold(running[3], runningClass);
      const after = await commit(running[4], runningClass);
      const gateway = t.app.get(FlowGateway);
      expect(await gateway.settled()).toBeLessThan(doomed.msg.position);
      await doomed.rollback();
      await eventually(async () => (board.events.length === 1 ? true : null));
      expect(board.events).toEqual([after]);
      const next = await commit(running[5], runningClass);
      await eventually(async () => (board.events.length === 2 ? true : null));
      expect(positions(board)).toEqual([after.position, next.position]);
    });

    it('transactions of other databases on the same server do not hold the horizon back', async () => {
      const token = await t.login('admin');
      const board = await open({ token, batch: true });
      // an open transaction with an id, in the server's maintenance database
      const elsewhere = new PgClient({ connectionString: t.config.databaseUrl!.replace(/\/[^/?]+(\?|$)/, '/postgres$1') });
      await elsewhere.connect();
      try {
        await elsewhere.query('begin');
        await elsewhere.query('select pg_current_xact_id()');
        const e = await commit(running[6], runningClass);
        expect(await t.app.get(FlowGateway).settled()).toBeGreaterThanOrEqual(e.position);
        await eventually(async () => (board.events.length === 1 ? true : null));
        expect(board.events).toEqual([e]);
      } finally {
        await elsewhere.query('rollback');
        await elsewhere.end();
      }
    });

    it('every writer of flow_events has its transaction id before it takes a position (the column default)', async () => {
      const { rows } = await t.sql.query(
        `select pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
           join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
          where d.adrelid = 'flow_events'::regclass and a.attname = 'global_position'`,
      );
      expect(rows[0].expr.replace(/\s+/g, ' ').trim()).toBe(
        "CASE WHEN (pg_current_xact_id() IS NULL) THEN NULL::bigint ELSE nextval('flow_events_global_position_seq'::regclass) END",
      );
      const { rows: seq } = await t.sql.query(`select seqcache from pg_sequence where seqrelid = 'flow_events_global_position_seq'::regclass`);
      expect(Number(seq[0].seqcache)).toBe(1);
    });
  });

  describe('catch-up', () => {
    it('sends every visible event after since, in order, then live events', async () => {
      const before = await commit(running[0], runningClass, { emit: false });
      const missed = [
        await commit(
          running.find((x) => !children.includes(x))!,
          runningClass,
          { emit: false },
        ),
        await commit(secondStudent, secondClass, { emit: false }),
        await commit(children[0], runningClass, { emit: false }),
      ];
      const admin = await open({ token: await t.login('admin'), since: before.position });
      const parent = await open({ token: await t.login('parent'), since: String(before.position) });
      const adviser = await open({ token: await t.login('adviser'), since: before.position });
      await eventually(async () => (admin.events.length === 3 && parent.events.length === 1 && adviser.events.length === 2 ? true : null));
      expect(admin.events).toEqual(missed);
      expect(positions(adviser)).toEqual([missed[0].position, missed[2].position]);
      expect(parent.events).toEqual([missed[2]]);

      const live = await commit(children[0], runningClass);
      await eventually(async () => (parent.events.length === 2 ? true : null));
      expect(positions(parent)).toEqual([missed[2].position, live.position]);
      await eventually(async () => (admin.events.length === 4 ? true : null));
      expect(positions(admin)).toEqual([...missed, live].map((e) => e.position));
    });

    it('without since: live events only; another school catches up nothing', async () => {
      await commit(running[0], runningClass, { emit: false });
      // the tail has moved past it (here nobody was told: an event committed and not yet flushed would still come)
      await t.app.get(FlowGateway).settled();
      const admin = await open({ token: await t.login('admin') });
      const other = await open({ token: (await t.otherSchool()).adminToken, since: 0 });
      await sleep(300);
      expect(admin.events).toEqual([]);
      expect(other.events).toEqual([]);
    });

    it('a connection dropped while events are committed misses nothing after reconnecting with since (once, in order)', async () => {
      const token = await t.login('admin');
      const seen: FlowEventMessage[] = [];
      const first = await open({ token });
      first.socket.on('flow.event', (e: FlowEventMessage) => seen.push(e));
      const a = await commit(running[0], runningClass);
      await eventually(async () => (seen.length === 1 ? true : null));
      first.socket.close();
      const whileAway = [];
      for (let i = 0; i < 5; i++) whileAway.push(await commit(running[i], runningClass));
      // reconnect with the last position seen while more events keep being committed during the catch-up
      const since = seen[seen.length - 1].position;
      const committedDuring: FlowEventMessage[] = [];
      const again = connect(url, { token, since });
      for (let i = 0; i < 5; i++) committedDuring.push(await commit(running[5 + i], runningClass));
      const second = await again;
      clients.push(second);
      const after = await commit(running[0], runningClass);
      const all = [...whileAway, ...committedDuring, after].map((e) => e.position).sort((x, y) => x - y);
      await eventually(async () => (second.events.length >= all.length ? true : null));
      await sleep(300);
      expect(a.position).toBe(since);
      expect(positions(second)).toEqual(all);
    });

    it('holds live events that arrive during a long catch-up and sends them after, without duplicates', async () => {
      const token = await t.login('admin');
      const { rows } = await t.sql.query(`select coalesce(max(global_position), 0)::int as p from flow_events`);
      const since = rows[0].p as number;
      // more than two catch-up batches (500 each)
      await t.sql.query(
        `insert into flow_events (event_id, school_id, student_id, day, version, type, class_id, state_after, occurred_at)
         select gen_random_uuid(), $1, $2, date '2010-01-01' + g, 1, 'student.entered', $3, 'in_centre', now()
           from generate_series(1, 1200) g`,
        [schoolId, running[0], runningClass],
      );
      // events committed right after each catch-up query ran: after the first batch they are found again by the next
      // query (and held too: sent once), after the last batch only the held copy exists
      const auth = t.app.get(LiveAuth);
      const real = auth.eventsAfter.bind(auth);
      const live: FlowEventMessage[] = [];
      const spy = jest.spyOn(auth, 'eventsAfter').mockImplementation(async (a, after, upTo) => {
        const batch = await real(a, after, upTo);
        for (let i = 0; i < 2; i++) live.push(await commit(running[i], runningClass));
        return batch;
      });
      try {
        const c = await open({ token, since });
        await eventually(async () => (c.events.length >= 1200 + live.length && spy.mock.calls.length === 3 ? true : null));
        await sleep(300);
        expect(spy).toHaveBeenCalledTimes(3);
        const got = positions(c);
        expect(live.length).toBe(6);
        expect(got.length).toBe(1206);
        expect(new Set(got).size).toBe(1206);
        expect([...got].sort((x, y) => x - y)).toEqual(got);
        expect(got.slice(-2)).toEqual(live.slice(-2).map((e) => e.position));
      } finally {
        spy.mockRestore();
      }
    });
  });
});

describe('live flow gateway with the flow store', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ runJobs: false, demoPeople: true });
    await t.app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await t.close();
  });

  it('a step recorded over HTTP reaches the class and the parent live, and the catch-up replays the same message', async () => {
    const url = urlOf(t.app);
    const teacher = await t.login('teacher');
    const g = await t.sql.query(`select student_id from student_guardians where user_id = $1 order by student_id limit 1`, [t.demo.users.parent]);
    const child = g.rows[0].student_id as number;
    const adviser = await connect(url, { token: await t.login('adviser') });
    const parent = await connect(url, { token: await t.login('parent') });
    const other = await connect(url, { token: (await t.otherSchool()).adminToken });
    try {
      const res = await t.post('/api/index/studentEnter', teacher).send({ student_ids: [child] });
      expect(res.body.data.results[0]).toMatchObject({ student_id: child, ok: true });
      await eventually(async () => (adviser.events.length === 1 && parent.events.length === 1 ? true : null));
      const live = parent.events[0];
      expect(live).toMatchObject({ student_id: child, class_id: t.demo.classes!.running, type: 'student.entered', actor: t.demo.users.teacher });
      expect(adviser.events).toEqual([live]);
      const replay = await connect(url, { token: await t.login('parent'), since: live.position - 1 });
      try {
        await eventually(async () => (replay.events.length === 1 ? true : null));
        expect(replay.events[0]).toEqual(live);
      } finally {
        replay.socket.close();
      }
      await sleep(200);
      expect(other.events).toEqual([]);
    } finally {
      for (const c of [adviser, parent, other]) c.socket.close();
    }
  });
});

describe('live flow gateway: two API processes on one Redis', () => {
  let t: TestApp;
  let peer: NestExpressApplication;

  beforeAll(async () => {
    t = await startTestApp({ runJobs: false, demoPeople: true });
    peer = await startPeerApp(t);
    await t.app.listen(0, '127.0.0.1');
    await peer.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await peer.close();
    await t.close();
  });

  it('an event committed in process 1 reaches clients of process 2 (once), and the other way round', async () => {
    const running = t.demo.classes!.running;
    const { rows } = await t.sql.query(`select student_id from care_class_students where class_id = $1 order by student_id`, [running]);
    const studentId = rows[0].student_id as number;
    const adminOn2 = await connect(urlOf(peer), { token: await t.login('admin') });
    const adviserOn2 = await connect(urlOf(peer), { token: await t.login('adviser') });
    const adminOn1 = await connect(urlOf(t.app), { token: await t.login('admin') });
    const other = await connect(urlOf(peer), { token: (await t.otherSchool()).adminToken });
    try {
      /** a committed event, announced on the bus of the process that appended it */
      const commitOn = async (app: NestExpressApplication): Promise<FlowEventMessage> => {
        const {
          rows: [r],
        } = await t.sql.query(
          `insert into flow_events (event_id, school_id, student_id, day, version, type, class_id, state_after, occurred_at)
           values (gen_random_uuid(), $1, $2, date '2026-11-22', coalesce((select max(version) from flow_events where student_id = $2 and day = date '2026-11-22'), 0) + 1,
                   'student.entered', $3, 'in_centre', now())
           returning global_position, occurred_at`,
          [t.demo.schoolId, studentId, running],
        );
        const msg: FlowEventMessage = {
          position: Number(r.global_position),
          student_id: studentId,
          class_id: running,
          day: '2026-11-22',
          type: 'student.entered',
          state: 'in_centre',
          at: new Date(r.occurred_at).toISOString(),
          actor: null,
        };
        app.get(DomainEvents).emit('flow.committed', { ...msg, school_id: t.demo.schoolId });
        return msg;
      };
      const first = await commitOn(t.app);
      await eventually(async () => (adminOn2.events.length === 1 && adminOn1.events.length === 1 ? true : null));
      const second = await commitOn(peer);
      await eventually(async () => (adminOn2.events.length === 2 && adviserOn2.events.length === 2 && adminOn1.events.length === 2 ? true : null));
      await sleep(300);
      expect(adminOn2.events).toEqual([first, second]);
      expect(positions(adviserOn2)).toEqual([first.position, second.position]);
      expect(positions(adminOn1)).toEqual([first.position, second.position]);
      expect(other.events).toEqual([]);
    } finally {
      for (const c of [adminOn2, adviserOn2, adminOn1, other]) c.socket.close();
    }
  });
});
