#!/usr/bin/env node
// `npm start`: install what is missing, build, then run the API (which migrates, seeds the demo once and
// serves the web app) on PORT (8080). Without DATABASE_URL: embedded PGlite under ./data; without REDIS_URL:
// jobs run in-process.
import { execSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
ensureDeps();
console.log('> building');
execSync('npx turbo run build --output-logs=errors-only', { cwd: root, stdio: 'inherit' });

const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? join(root, 'data') };
const api = spawn(process.execPath, [join(root, 'apps/api/dist/main.js')], { cwd: root, env, stdio: 'inherit' });
const worker =
  process.env.REDIS_URL && process.env.DATABASE_URL
    ? spawn(process.execPath, [join(root, 'apps/api/dist/worker.js')], { cwd: root, env, stdio: 'inherit' })
    : null;
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    api.kill(sig);
    worker?.kill(sig);
  });
api.on('exit', (code) => {
  worker?.kill('SIGTERM');
  process.exit(code ?? 0);
});
