import type { NestExpressApplication } from '@nestjs/platform-express';
import { Code } from '@wantuo/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../bootstrap';
import { loadConfig } from '../../core/config/config';
import { createLogger } from '../../core/logging/logger';
import { prepareDatabase, resolveDatabase } from '../../runtime';
import { MessagesClock } from '../messages/guardian-messages.service';
import { NoticeClock } from './notices-sql';

/**
 * Notices on the embedded PGlite database (`npm start` without DATABASE_URL or REDIS_URL): publishing with receipts,
 * the locked read, the reminder's conditional update and the in-process delayed messages (the guardians' and the staff's).
 */
describe('notices on the embedded database', () => {
  let app: NestExpressApplication;
  let stop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-embedded-notices-'));

  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: process.env.EMBEDDED_LOG ?? 'silent', DATA_DIR: dataDir, SEED_DEMO: '1' });
    const log = createLogger(config.logLevel);
    const db = await resolveDatabase({ ...config, redisUrl: null }, log);
    stop = db.stop;
    await prepareDatabase(db.config, log);
    app = await createApp({ ...db.config, redisUrl: null }, log, { runJobs: true });
    await app.init();
    // 22:00 in Shanghai: the texts are held (an in-process timer, cleared at shutdown)
    jest.spyOn(app.get(NoticeClock), 'now').mockReturnValue(new Date('2026-11-23T14:00:00Z'));
    // the guardians' messages (GuardianMessages) by the same clock: held to 07:00 too
    app.get(MessagesClock).now = () => new Date('2026-11-23T14:00:00Z');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await stop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes, reads once, reminds once', async () => {
    const server = app.getHttpServer();
    const login = async (account: string) =>
      (await request(server).post('/api/index/login').send({ account, password: 'Demo@2026' })).body.data.userinfo.token as string;
    const [adviser, parent] = [await login('adviser'), await login('parent')];
    const classes = await request(server).get('/api/index/teacherWantuoInfo').set('token', adviser);
    const classId = classes.body.data.classes[0].id as number;
    const pub = await request(server)
      .post('/api/index/teacherAddInform')
      .set('token', adviser)
      .send({
        title: '嵌入式通知',
        content: '<p>内容</p>',
        scope: 'classes',
        class_ids: [classId],
        audience: 'all',
        important: true,
        request_id: 'embedded-notice-1',
      });
    expect(pub.body).toMatchObject({ code: Code.Ok, data: { held: true, sms_at: '2026-11-23T23:00:00.000Z' } });
    const id = pub.body.data.id as number;
    const reads = await Promise.all([0, 1].map(() => request(server).post('/api/index/readInform').set('token', parent).send({ id })));
    expect(reads.map((r) => r.body.code)).toEqual([Code.Ok, Code.Ok]);
    const info = await request(server).get(`/api/index/headTeacherInformInfo?id=${id}&read=1`).set('token', adviser);
    expect(info.body.data).toMatchObject({ notice: { read_count: 1 }, receipts: { total: 1 } });
    const reminds = await Promise.all([0, 1].map(() => request(server).post('/api/index/remindInform').set('token', adviser).send({ id })));
    expect(reminds.map((r) => r.body.code).sort()).toEqual([Code.Error, Code.Ok].sort());
    const list = await request(server).get('/api/index/parentInformList').set('token', parent);
    expect(list.body.data).toMatchObject({ total: 1, unread: 0 });
  });
});
