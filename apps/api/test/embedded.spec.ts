import type { NestExpressApplication } from '@nestjs/platform-express';
import { Code } from '@wantuo/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../src/bootstrap';
import { loadConfig } from '../src/core/config/config';
import { createLogger } from '../src/core/logging/logger';
import { prepareDatabase, resolveDatabase } from '../src/runtime';

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
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SEED_DEMO: '1' });
    expect(config.databaseUrl).toBeNull();
    const log = createLogger(config.logLevel);
    const db = await resolveDatabase({ ...config, redisUrl: null }, log);
    stop = db.stop;
    await prepareDatabase(db.config, log);
    app = await createApp({ ...db.config, redisUrl: null }, log, { runJobs: true });
    await app.init();
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
      for (const a of answers) expect({ status: a.status, code: a.body.code }).toEqual({ status: 200, code: Code.Ok });
    }
    const today = await request(server).get('/api/index/teacherTodayTask').set('token', token);
    expect(today.body.data.states.in_centre).toBe(8);
  });
});
