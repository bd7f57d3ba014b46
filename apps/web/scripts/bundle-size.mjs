#!/usr/bin/env node
// Initial JavaScript of the sign-in page, gzip: the entry chunk and its static imports, plus the /login route
// chunk and its static imports (what the browser must load before the form shows). Budget: 250 KiB.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(dep, seen);
  return seen;
}
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const login = Object.keys(manifest).find((k) => k.endsWith('areas/auth/login.tsx'));
const chunks = new Set([...closure(entry), ...closure(login)]);
const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
let total = 0;
const rows = [];
for (const k of chunks) {
  const size = gz(manifest[k].file);
  total += size;
  rows.push([manifest[k].file, size]);
}
rows.sort((a, b) => b[1] - a[1]);
const kib = (n) => (n / 1024).toFixed(1);
const budget = 250 * 1024;
console.log(rows.map(([f, s]) => `  ${kib(s).padStart(7)} KiB  ${f}`).join('\n'));
console.log(`sign-in page initial JS: ${kib(total)} KiB gzip (${chunks.size} chunks), budget 250 KiB: ${total <= budget ? 'within' : 'OVER'}`);

// record the figure in BENCHMARKS.md
const file = join(web, '..', '..', 'BENCHMARKS.md');
const line = `| ${new Date().toISOString().slice(0, 10)} | ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version} | ${kib(total)} KiB | ${chunks.size} |`;
const header = '## Web: initial JS of the sign-in page (gzip)';
let md = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
if (!md.includes(header)) {
  md += `\n${header}\n\n\`npm run bench\` (apps/web/scripts/bundle-size.mjs): entry chunk + /login route chunk and their static imports, gzip level 9. Budget 250 KiB.\n\n| date | machine | initial JS | chunks |\n|---|---|---|---|\n`;
}
md = md.replace(/(## Web: initial JS of the sign-in page \(gzip\)[\s\S]*?\|---\|---\|---\|---\|\n)/, `$1${line}\n`);
writeFileSync(file, md);
process.exit(total <= budget ? 0 : 1);
