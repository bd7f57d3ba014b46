import type { NestExpressApplication } from '@nestjs/platform-express';
import { addDays, Code, localDay } from '@wantuo/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { DataSource } from 'typeorm';
import request from 'supertest';
import { createApp } from '../src/bootstrap';
import { loadConfig } from '../src/core/config/config';
import { createLogger } from '../src/core/logging/logger';
import { prepareDatabase, resolveDatabase } from '../src/runtime';
import { eventually } from './harness';

/**
 * `npm start` without DATABASE_URL or REDIS_URL: the embedded PGlite database behind pglite-socket, every pooled
 * connection served by one database session. Concurrent requests through the whole stack, including the named
 * prepared statements of the session lookup and of the flow's commands.
 */
describe('the embedded database (npm start on a fresh machine)', () => {
  let app: NestExpressApplication;
  let stop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-embedded-'));

  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: process.env.EMBEDDED_LOG ?? 'silent', DATA_DIR: dataDir, SEED_DEMO: '1' });
    expect(config.databaseUrl).toBeNull();
    const log = createLogger(config.logLevel);
    const db = await resolveDatabase({ ...config, redisUrl: null }, log);
    stop = db.stop;
    await prepareDatabase(db.config, log);
    app = await createApp({ ...db.config, redisUrl: null }, log, { runJobs: true });
    await app.init();
    await app.listen(0, '127.0.0.1');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await stop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers concurrent signed-in requests and flow commands on every pooled connection', async () => {
    const server = app.getHttpServer();
    const login = await request(server).post('/api/index/login').send({ account: 'adviser', password: 'Demo@2026' });
    expect(login.body.code).toBe(Code.Ok);
    const token = login.body.data.userinfo.token as string;
    const board = await request(server).get('/api/index/flowBoard').set('token', token);
    expect(board.body.code).toBe(Code.Ok);
    const ids = (board.body.data.students as Array<{ id: number; needs_shuttle: boolean }>).map((s) => s.id);
    expect(ids.length).toBe(10);
    // more requests at once than the pool has connections, twice over
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0
            ? request(server)
                .post('/api/index/studentEnter')
                .set('token', token)
                .send({ student_ids: [ids[(i / 3 + round * 4) % ids.length]] })
            : request(server)
                .get(i % 3 === 1 ? '/api/index/userInfo' : '/api/index/teacherTodayTask')
                .set('token', token),
        ),
      );
      for (const a of answers)
        expect({ status: a.status, code: a.body.code, b: a.status === 500 ? a.body : null }).toEqual({ status: 200, code: Code.Ok, b: null });
    }
    const today = await request(server).get('/api/index/teacherTodayTask').set('token', token);
    expect(today.body.data.states.in_centre).toBe(8);
  });

  it('serves the live flow: a board catches up from a position and gets the next step live (the safe horizon on PGlite)', async () => {
    const server = app.getHttpServer();
    const login = await request(server).post('/api/index/login').send({ account: 'adviser', password: 'Demo@2026' });
    const token = login.body.data.userinfo.token as string;
    const board = await request(server).get('/api/index/flowBoard').set('token', token);
    const entered = (board.body.data.students as Array<{ id: number; state: string }>).filter((s) => s.state === 'in_centre').map((s) => s.id);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const socket = io(url, {
      path: '/socket.io',
      auth: { token, since: 0, batch: true },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const positions: number[] = [];
    // today's events (the demo's seeded history of past days comes first in the catch-up)
    const day = board.body.data.day as string;
    socket.on('flow.event', (e: { position: number; day: string }) => e.day === day && positions.push(e.position));
    socket.on('flow.events', (list: Array<{ position: number; day: string }>) =>
      positions.push(...list.filter((e) => e.day === day).map((e) => e.position)),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      // the catch-up: every step of the first test, in order
      await eventually(async () => (positions.length >= 8 ? true : null));
      const dinner = await request(server)
        .post('/api/index/teacherStudentDinner')
        .set('token', token)
        .send({ student_ids: [entered[0]] });
      expect(dinner.body.data.results[0].ok).toBe(true);
      await eventually(async () => (positions.length === 9 ? true : null));
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(new Set(positions).size).toBe(9);
    } finally {
      socket.close();
    }
  });

  it('signs and lists contracts: the list counts kept by statement triggers with transition tables work on PGlite', async () => {
    const server = app.getHttpServer();
    const login = await request(server).post('/api/index/login').send({ account: 'admin', password: 'Demo@2026' });
    expect(login.body).toMatchObject({ code: Code.Ok });
    const token = login.body.data.userinfo.token as string;
    const pkg = await request(server)
      .post('/api/index/addContractPackage')
      .set('token', token)
      .send({ name: '嵌入式测试套餐', kind: 'days', length: 20, price_fen: 200000, includes: ['care'] });
    expect(pkg.body).toMatchObject({ code: Code.Ok });
    const students = await request(server).get('/api/index/studentList?limit=2').set('token', token);
    const rows = students.body.data.list as Array<{ id: number; guardians: Array<{ user_id: number }> }>;
    const ids = rows.map((s) => s.id);
    // the demo school's today (Asia/Shanghai), never the UTC date
    const start = localDay();
    for (const [i, id] of ids.entries()) {
      const c = await request(server)
        .post('/api/index/addContract')
        .set('token', token)
        .send({
          student_id: id,
          guardian_id: rows[i].guardians[0].user_id,
          package_id: pkg.body.data.id,
          start_day: start,
          request_id: `embedded-${i}`,
          ...(i ? { payment: { method: 'cash' } } : {}),
        });
      expect({ code: c.body.code, msg: c.body.code === Code.Ok ? '' : c.body.msg }).toEqual({ code: Code.Ok, msg: '' });
    }
    const list = await request(server).get(`/api/index/contractList?package_id=${pkg.body.data.id}`).set('token', token);
    expect(list.body.data).toMatchObject({ total: ids.length, counts: { unpaid: 1, active: ids.length - 1 } });
  });
  it('schedules teaching sessions: the exclusion constraints of btree_gist refuse a teacher’s overlapping session on PGlite', async () => {
    const server = app.getHttpServer();
    const login = await request(server).post('/api/index/login').send({ account: 'admin', password: 'Demo@2026' });
    const token = login.body.data.userinfo.token as string;
    const teacher = await request(server).post('/api/index/login').send({ account: 'teacher', password: 'Demo@2026' });
    const teacherId = teacher.body.data.userinfo.id as number;
    const room = await request(server).post('/api/index/addRoom').set('token', token).send({ name: '嵌入式教室' });
    const add = (name: string) =>
      request(server)
        .post('/api/index/addTeachingClass')
        .set('token', token)
        .send({ name, subject: '数学', teacher_id: teacherId, room_id: room.body.data.id, capacity: 10, sessions_count: 4, fee_fen: 0 });
    const a = await add('嵌入式班A');
    const b = await add('嵌入式班B');
    const from = addDays(localDay(), 7);
    const to = addDays(localDay(), 20);
    const generate = (classId: number, start_time: string, end_time: string) =>
      request(server)
        .post('/api/index/teachingClassCourseScheduling')
        .set('token', token)
        .send({ class_id: classId, from, to, pattern: [{ weekday: 6, start_time, end_time }] });
    const first = await generate(a.body.data.id, '10:00', '11:00');
    expect(first.body).toMatchObject({ code: Code.Ok, data: { written: 2 } });
    const clash = await generate(b.body.data.id, '10:30', '11:30');
    expect(clash.body).toMatchObject({
      code: Code.Error,
      data: { clashes: [{ kind: 'teacher' }, { kind: 'room' }, { kind: 'teacher' }, { kind: 'room' }] },
    });
    // the database's own refusal, past the service's check
    const db = app.get(DataSource);
    const [s] = await db.query(`select school_id, day from class_sessions where class_id = $1 and kind = 'teaching' order by day limit 1`, [
      a.body.data.id,
    ]);
    await expect(
      db.query(
        `insert into class_sessions (school_id, kind, class_id, day, start_min, end_min, teacher_id) values ($1, 'teaching', $2, $3, 630, 690, $4)`,
        [s.school_id, b.body.data.id, s.day, teacherId],
      ),
    ).rejects.toMatchObject({ code: '23P01' });
  });
});
