import type { NestExpressApplication } from '@nestjs/platform-express';
import { Code } from '@wantuo/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
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
            ? request(server).post('/api/index/studentEnter').set('token', token).send({ student_ids: [ids[(i / 3 + round * 4) % ids.length]] })
            : request(server).get(i % 3 === 1 ? '/api/index/userInfo' : '/api/index/teacherTodayTask').set('token', token),
        ),
      );
      for (const a of answers) expect({ status: a.status, code: a.body.code, b: a.status === 500 ? a.body : null }).toEqual({ status: 200, code: Code.Ok, b: null });
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
    const socket = io(url, { path: '/socket.io', auth: { token, since: 0, batch: true }, transports: ['websocket'], reconnection: false, forceNew: true });
    const positions: number[] = [];
    socket.on('flow.event', (e: { position: number }) => positions.push(e.position));
    socket.on('flow.events', (list: Array<{ position: number }>) => positions.push(...list.map((e) => e.position)));
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      // the catch-up: every step of the first test, in order
      await eventually(async () => (positions.length >= 8 ? true : null));
      const dinner = await request(server).post('/api/index/teacherStudentDinner').set('token', token).send({ student_ids: [entered[0]] });
      expect(dinner.body.data.results[0].ok).toBe(true);
      await eventually(async () => (positions.length === 9 ? true : null));
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(new Set(positions).size).toBe(9);
    } finally {
      socket.close();
    }
  });
});

