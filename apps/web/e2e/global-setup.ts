import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { adminSql, E2E_ROOT, withDatabase } from './db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the migrated and seeded database every journey's stack copies, and the data folder (uploads, sandbox keys) it goes with */
    e2eTemplate: { db: string; dataDir: string };
  }
}

/**
 * Once per run: a database migrated and seeded with the demo (`node apps/api/dist/cli.js seed --no-showcase`, as `npm run
 * seed` does but without the showcase's data, which the journeys do not expect) and its data folder. Each journey's
 * stack is then a copy (CREATE DATABASE … TEMPLATE and a copy of the folder), so no journey pays for the migrations and
 * the seed again.
 */
export default async function setup(project: TestProject) {
  const cli = join(E2E_ROOT, 'apps/api/dist/cli.js');
  if (!existsSync(cli)) throw new Error('apps/api/dist/cli.js is missing: build first (npm run build)');
  const db = `wantuo_e2e_tpl_${process.pid}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'wantuo-e2e-tpl-'));
  await adminSql(`create database ${db}`);
  const code = await new Promise<number | null>((resolve) => {
    const p = spawn(process.execPath, [cli, 'seed', '--no-showcase'], {
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: withDatabase(db), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    p.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`seeding the journeys' template database failed (exit ${code})`);
  project.provide('e2eTemplate', { db, dataDir });
  return async () => {
    await adminSql(`drop database if exists ${db} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
