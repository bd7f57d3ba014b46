import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The API's modules form no circle and point no arrow upward (issue 38): scripts/module-graph.ts --check reads every
 * import between modules/ folders and fails on a cycle or on a module importing the seed or the sandboxes.
 */
describe('the module graph', () => {
  it('has no cycle and no upward arrow', () => {
    const root = join(__dirname, '..');
    const r = spawnSync(process.execPath, [join(root, 'test', 'ts-run.js'), join(root, 'scripts', 'module-graph.ts'), '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
