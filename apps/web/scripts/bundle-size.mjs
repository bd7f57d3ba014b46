#!/usr/bin/env node
// Initial JavaScript of the sign-in page, gzip: the entry chunk and its static imports, plus the /login route
// chunk and its static imports (what the browser must load before the form shows). Budget: 250 KiB.
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
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

// the PDF viewer (react-pdf / PDF.js): never in the sign-in page's initial JS; its route chunk and the chunks only it
// loads (beyond the entry's), plus the PDF.js worker file, reported on their own line
const viewer = Object.keys(manifest).find((k) => k.endsWith('areas/public/pdf-viewer.tsx'));
const pdfInSignIn = [...chunks].filter((k) => readFileSync(join(dist, manifest[k].file), 'utf8').includes('GlobalWorkerOptions'));
let viewerOk = pdfInSignIn.length === 0;
if (viewer) {
  const entryChunks = closure(entry);
  const own = [...closure(viewer)].filter((k) => !entryChunks.has(k));
  const ownSize = own.reduce((n, k) => n + gz(manifest[k].file), 0);
  const assetDirs = ['static', 'assets'].filter((d) => existsSync(join(dist, d)));
  const worker = assetDirs.flatMap((d) =>
    readdirSync(join(dist, d))
      .filter((f) => /^pdf\.worker.*\.m?js$/.test(f))
      .map((f) => join(d, f)),
  );
  const workerSize = worker.reduce((n, f) => n + gz(f), 0);
  console.log(
    `PDF viewer (/pdf-viewer) route JS: ${kib(ownSize)} KiB gzip (${own.length} chunks: ${own.map((k) => manifest[k].file).join(', ')}), PDF.js worker ${kib(workerSize)} KiB gzip (${worker.join(', ') || 'not found'}); in the sign-in page's initial JS: ${pdfInSignIn.length ? `YES (${pdfInSignIn.join(', ')})` : 'no'}`,
  );
  // the CMaps and standard fonts PDF.js fetches for fonts a PDF does not embed (issue 34 item 6): in the build, at
  // the versioned folder the viewer's code names
  const pdfjsDir = existsSync(join(dist, 'static')) ? readdirSync(join(dist, 'static')).find((f) => /^pdfjs-\d/.test(f)) : undefined;
  const cmaps = pdfjsDir ? readdirSync(join(dist, 'static', pdfjsDir, 'cmaps')).length : 0;
  const fonts =
    pdfjsDir && existsSync(join(dist, 'static', pdfjsDir, 'standard_fonts'))
      ? readdirSync(join(dist, 'static', pdfjsDir, 'standard_fonts')).length
      : 0;
  const named = pdfjsDir && own.some((k) => readFileSync(join(dist, manifest[k].file), 'utf8').includes(`/static/${pdfjsDir}/`));
  const assetsOk = cmaps > 100 && fonts > 10 && existsSync(join(dist, 'static', pdfjsDir ?? '-', 'cmaps', 'UniGB-UCS2-H.bcmap')) && named;
  console.log(
    `PDF.js data: ${pdfjsDir ? `static/${pdfjsDir}` : 'MISSING'}: ${cmaps} CMaps, ${fonts} standard fonts, named by the viewer's code: ${named ? 'yes' : 'NO'}`,
  );
  viewerOk &&= assetsOk;
  const vHeader = "## Web: the PDF viewer's route chunk (gzip)";
  let vmd = readFileSync(file, 'utf8');
  if (!vmd.includes(vHeader)) {
    vmd += `\n${vHeader}\n\n\`npm run bench\` (apps/web/scripts/bundle-size.mjs): the /pdf-viewer route chunk and the chunks only it loads (react-pdf, PDF.js), the PDF.js worker (loaded when a PDF opens), and whether any of it is in the sign-in page's initial JS (it must not be).\n\n| date | route JS | worker | in sign-in JS |\n|---|---|---|---|\n`;
  }
  const vLine = `| ${new Date().toISOString().slice(0, 10)} | ${kib(ownSize)} KiB (${own.length} chunks) | ${kib(workerSize)} KiB | ${pdfInSignIn.length ? 'YES' : 'no'} |`;
  vmd = vmd.replace(/(## Web: the PDF viewer's route chunk \(gzip\)[\s\S]*?\|---\|---\|---\|---\|\n)/, `$1${vLine}\n`);
  writeFileSync(file, vmd);
} else {
  console.log('PDF viewer route chunk not found in the manifest');
  viewerOk = false;
}
process.exit(total <= budget && viewerOk ? 0 : 1);
