import { spawn } from 'node:child_process';
import { join } from 'node:path';

const SRC = join(__dirname, '..', '..');

/**
 * Requires the given modules of the API in a node process of its own (its TypeScript compiled on the fly by the
 * tests' one require hook, test/ts-hook.js: jest's own module registry is not node's) and answers which packages of
 * node_modules that loaded.
 */
async function packagesLoadedBy(entries: string[]): Promise<string[]> {
  const script = `require(${JSON.stringify(join(SRC, '..', 'test', 'ts-hook.js'))});
${entries.map((e) => `require(${JSON.stringify(join(SRC, e))});`).join('\n')}
const names = new Set(Object.keys(require.cache).map((k) => /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(k)?.[1]).filter(Boolean));
process.stdout.write(JSON.stringify([...names]));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`node exited ${code}: ${err}`);
  return JSON.parse(out) as string[];
}

describe('exceljs is loaded where a sheet is read or written, not when a process starts', () => {
  it('the module graphs of the API and of the worker do not load exceljs', async () => {
    const loaded = await packagesLoadedBy(['bootstrap.ts', 'app.module.ts', 'worker.module.ts']);
    // the graph did load (the check would pass on an empty one otherwise)
    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'typeorm']));
    expect(loaded).not.toContain('exceljs');
  }, 60_000);
});
