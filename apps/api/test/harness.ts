import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Code, inQuietHours, instantOf, localDay, type LoginResult } from '@wantuo/shared';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Logger } from 'pino';
import request from 'supertest';
import { createApp, type ResolvedConfig } from '../src/bootstrap';
import { loadConfig } from '../src/core/config/config';
import { createLogger } from '../src/core/logging/logger';
import { DEMO_PASSWORD, seedDemo, type SeedResult } from '../src/seed/demo-seed';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/core/database/data-source';
import { statementTap } from '../src/core/database/kysely';
import { REDIS_URL, TEMPLATE_DB, urlFor, withAdmin } from './db';

/** The demo's fixtures, for the modules' own specs (no file under src/modules imports src/seed). */
export { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/seed/demo-seed';
export { DEMO_COURSEWARE, seedDemoCourseware } from '../src/seed/demo-courseware';
export { seedShowcase } from '../src/seed/demo-showcase';
export { demoStampPng } from '../src/seed/demo-stamp';

export type DemoUser = 'admin' | 'teacher' | 'adviser' | 'parent' | 'operator';

export interface TestApp {
  app: NestExpressApplication;
  config: ResolvedConfig;
  /** a direct connection to this file's database, for assertions */
  sql: Client;
  demo: SeedResult;
  get(path: string, token?: string): request.Test;
  post(path: string, token?: string): request.Test;
  login(user: DemoUser): Promise<string>;
  /** a second school with its own admin, to prove other schools' ids are answered as unknown */
  otherSchool(): Promise<{ schoolId: number; adminToken: string }>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * Starts the real API (real PostgreSQL, real Redis) on a database of its own, copied from the migrated template,
 * seeded with the demo school. `runJobs` also runs the BullMQ workers in this process.
 */
export async function startTestApp(
  opts: {
    runJobs?: boolean;
    redis?: boolean;
    env?: NodeJS.ProcessEnv;
    demoPeople?: boolean;
    /** with demoPeople: the demo's four weeks of attendance history (demo-history.ts) */
    demoHistory?: boolean;
    /** listen on a loopback port: the API then calls itself (the WeChat Pay sandbox and its notifies) */
    listen?: boolean;
    /** the app's logger (a test that reads the log lines); else one at LOG_LEVEL (TEST_LOG_LEVEL, silent by default) */
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const dbName = `wantuo_t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await withAdmin((c) => c.query(`create database ${dbName} template ${TEMPLATE_DB}`));
  const uploadDir = mkdtempSync(join(tmpdir(), 'wantuo-uploads-'));
  // tests sign in many times from 127.0.0.1: the per-IP limits are raised unless a test sets RATE_LIMIT_FACTOR itself
  // (rate-limit.spec.ts proves them at their real values)
  // TEST_SMS_PROVIDER=aliyun|tencent runs every test's texts through that gateway's SDK against its local fake (which
  // this process serves: it then listens), as `npm run test:sms-gateways` does for the modules that send texts
  const smsProvider = opts.env?.SMS_PROVIDER ?? process.env.TEST_SMS_PROVIDER;
  const base = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_FACTOR: '1000',
    ...(smsProvider ? { SMS_PROVIDER: smsProvider } : {}),
    ...opts.env,
  });
  const config: ResolvedConfig = {
    ...base,
    databaseUrl: urlFor(dbName),
    databasePoolMax: 5,
    redisUrl: opts.redis === false ? null : REDIS_URL,
    queuePrefix: `test:${dbName}`,
    uploadDir,
  };
  const ds = new DataSource(dataSourceOptions(config.databaseUrl, 1));
  await ds.initialize();
  // the demo accounts; the demo's classes and students only when a test asks (module tests make their own)
  const demo = (await seedDemo(ds, { people: opts.demoPeople ?? false, history: opts.demoHistory ?? false }))!;
  await ds.destroy();

  const app = await createApp(config, opts.logger ?? createLogger(config.logLevel), { runJobs: opts.runJobs ?? true });
  if (opts.listen || config.sms.provider !== 'outbox' || config.sms.fallback) await app.listen(0, '127.0.0.1');
  else await app.init();
  const sql = new Client({ connectionString: config.databaseUrl });
  await sql.connect();
  const server = app.getHttpServer();
  const withToken = (t: request.Test, token?: string) => (token ? t.set('token', token) : t);

  const t: TestApp = {
    app,
    config,
    sql,
    demo,
    get: (path, token) => withToken(request(server).get(path), token),
    post: (path, token) => withToken(request(server).post(path), token),
    async login(user) {
      const res = await request(server).post('/api/index/login').send({ account: user, password: DEMO_PASSWORD });
      if (res.body.code !== Code.Ok) throw new Error(`login ${user}: ${JSON.stringify(res.body)}`);
      return (res.body.data as LoginResult).userinfo.token;
    },
    async otherSchool() {
      const { rows } = await sql.query(`insert into schools (name) values ('另一所机构') returning id`);
      const schoolId = rows[0].id as number;
      const username = `other_admin_${schoolId}`;
      await sql.query(
        `insert into users (school_id, role, username, name, nickname, mobile, password_hash)
         select $1, 1, $2, '外校管理员', '外校管理员', '13900000001', password_hash from users where username = 'admin'`,
        [schoolId, username],
      );
      const res = await request(server).post('/api/index/login').send({ account: username, password: DEMO_PASSWORD });
      return { schoolId, adminToken: res.body.data.userinfo.token };
    },
    async close() {
      await app.close();
      await sql.end();
      if (config.redisUrl) {
        const redis = new Redis(config.redisUrl);
        const keys = await redis.keys(`${config.queuePrefix}:*`);
        if (keys.length) await redis.del(...keys);
        await redis.quit();
      }
      await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`));
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Polls until fn returns a value (not undefined/null), or fails after timeoutMs. */
export async function eventually<T>(fn: () => Promise<T | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== null && v !== undefined) return v;
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Row counts of the tables an action may write: compare before and after to prove bad input wrote nothing. */
export async function snapshot(sql: Client): Promise<Record<string, number>> {
  const tables = [
    'schools',
    'users',
    'user_tokens',
    'user_activity',
    'sms_codes',
    'sms_outbox',
    'files',
    'account_applications',
    'students',
    'student_guardians',
    'pickup_people',
    'student_comments',
    'class_times',
    'care_classes',
    'care_class_students',
    'duty_assignments',
    'student_class_times',
    'flow_events',
    'student_days',
    'leave_requests',
    'staff_attendance',
    'flow_alerts',
    'privacy_policies',
    'privacy_consents',
    'privacy_requests',
  ];
  const { rows } = await sql.query(
    `select ${tables.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ')}, (select sum(version) from users)::int as user_versions, (select sum(version) from site_settings)::int as settings_versions, (select coalesce(sum(version), 0) from account_applications)::int as application_versions, (select coalesce(sum(version), 0) from students)::int as student_versions, (select coalesce(sum(version), 0) from care_classes)::int as class_versions, (select coalesce(sum(version), 0) from class_times)::int as time_versions`,
  );
  return rows[0];
}

/**
 * A second API process on an existing test app's database, Redis and queue prefix (several API processes behind one
 * load balancer): the caller closes it (before `t.close()`, which drops the database).
 */
export async function startPeerApp(t: TestApp, opts: { runJobs?: boolean } = {}): Promise<NestExpressApplication> {
  const app = await createApp(t.config, createLogger(t.config.logLevel), { runJobs: opts.runJobs ?? false });
  await app.init();
  return app;
}

/**
 * The latest instant at or before `now` outside the quiet hours (21:00–07:00 in `timezone`): now in the daytime, 20:00
 * of the evening before otherwise. Specs that expect a guardian's message to go at once hand it to MessagesClock, so
 * they pass at any hour CI runs them (in the past, so a message is due at once, never held).
 */
export function lastDaytime(timezone = 'Asia/Shanghai', now = new Date()): Date {
  if (!inQuietHours(now, timezone)) return now;
  return instantOf(localDay(new Date(now.getTime() - 8 * 3_600_000), timezone), '20:00', timezone);
}

/**
 * The statements the app sends while `fn` runs, through either way in: `DataSource.query` (hand-written SQL) and the
 * typed layer (kdb). For the "a constant number of statements whatever the size" checks.
 */
export async function statementsOf(t: TestApp, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const ds = t.app.get(DataSource);
  const orig = ds.query.bind(ds);
  ds.query = (async (q: string, p?: unknown[]) => {
    seen.push(q);
    return orig(q, p);
  }) as typeof ds.query;
  statementTap.listener = (q) => seen.push(q);
  try {
    await fn();
    return seen;
  } finally {
    ds.query = orig;
    statementTap.listener = null;
  }
}
