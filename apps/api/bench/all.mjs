#!/usr/bin/env node
// `npm run bench` in apps/api: every bench in turn, each in its own process, all of them even when one misses its
// target (each appends its own section to BENCHMARKS.md); exits 1 when any of them did.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const failed = [];
for (const bench of [
  'students.bench.mjs',
  'flow.bench.mjs',
  'money.bench.mjs',
  'contracts.bench.mjs',
  'meals.bench.mjs',
  'points.bench.mjs',
  'teaching.bench.mjs',
  'notices.bench.mjs',
  'sms.bench.mjs',
  'exams.bench.mjs',
  'store.bench.mjs',
  'courseware.bench.mjs',
  'conversations.bench.mjs',
  'typed-layer.bench.mjs',
]) {
  const run = spawnSync(process.execPath, [join(here, bench)], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(`${bench} (exit ${run.status ?? run.signal})`);
}
if (failed.length) {
  console.error(`missed a target or failed: ${failed.join(', ')}`);
  process.exit(1);
}
