/**
 * The imports between domain modules (design.md §3: a cycle between modules is a design error) and any module file
 * that imports src/seed or src/sandboxes (the arrows point from them to the modules, never back). Specs are left out.
 *
 *   node test/ts-run.js scripts/module-graph.ts           the module → module edges, then the cycles
 *   … --check                                            exits 1 when there is a cycle or a module imports seed/sandboxes
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const say = (line: string) => process.stdout.write(`${line}\n`);

const src = join(__dirname, '..', 'src');
const modulesDir = join(src, 'modules');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.ts$/.test(e.name) && !/\.spec\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );

const edges = new Map<string, Set<string>>();
const wrong: string[] = [];
for (const file of files(modulesDir)) {
  const from = relative(modulesDir, file).split(sep)[0];
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
    const [top, to] = relative(src, resolve(dirname(file), spec)).split(sep);
    if (top === 'seed' || top === 'sandboxes') wrong.push(`${relative(src, file)} imports ${spec}`);
    if (top === 'modules' && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
}

// the strongly connected components of more than one module (Tarjan)
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const cycles: string[][] = [];
const visit = (m: string): void => {
  index.set(m, index.size);
  low.set(m, index.get(m)!);
  stack.push(m);
  for (const n of edges.get(m) ?? []) {
    if (!index.has(n)) visit(n);
    if (stack.includes(n)) low.set(m, Math.min(low.get(m)!, low.get(n)!));
  }
  if (low.get(m) !== index.get(m)) return;
  const scc = stack.splice(stack.indexOf(m));
  if (scc.length > 1) cycles.push(scc.sort());
};
[...edges.keys()].sort().forEach((m) => index.has(m) || visit(m));

if (!process.argv.includes('--check')) for (const [m, to] of [...edges].sort()) say(`${m} → ${[...to].sort().join(', ')}`);
for (const scc of cycles) {
  const inside = scc.flatMap((m) => [...(edges.get(m) ?? [])].filter((n) => scc.includes(n)).map((n) => `${m}→${n}`));
  say(`cycle: ${scc.join(', ')} (${inside.join(' ')})`);
}
for (const w of wrong) say(`module imports seed/sandboxes: ${w}`);
if (process.argv.includes('--check') && (cycles.length || wrong.length)) process.exitCode = 1;
