#!/usr/bin/env node
// `npm test`: install what is missing, run every workspace's tests (turbo) against the machine's PostgreSQL
// and Redis (DATABASE_URL / REDIS_URL, defaults 127.0.0.1:5432 and :6379), then print `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';
import { ensureChromium } from './ensure-chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = ['packages/shared/reports/jest.json', 'apps/api/reports/jest.json', 'apps/web/reports/vitest.json', 'apps/web/reports/e2e.json'].map(
  (p) => join(root, p),
);

ensureDeps();
ensureChromium();
for (const r of reports) {
  rmSync(r, { force: true });
  mkdirSync(dirname(r), { recursive: true });
}
const run = spawnSync('npx', ['turbo', 'run', 'test', '--concurrency=1', '--continue', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });

let passed = 0;
let failed = 0;
let missing = 0;
for (const r of reports) {
  if (!existsSync(r)) {
    missing++;
    console.error(`no test report at ${r}`);
    continue;
  }
  const j = JSON.parse(readFileSync(r, 'utf8'));
  passed += j.numPassedTests;
  failed += j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status !== 0 || failed > 0 || missing > 0 || passed === 0 ? 1 : 0);
