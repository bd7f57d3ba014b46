import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The generated database types (schema.ts) are what the migrations give: a migration without `npm run gen:schema`
 * fails here, and once regenerated, every typed query using a renamed or dropped column fails `npm run check`.
 */
describe('schema.ts', () => {
  it('is what the migrations give', () => {
    const api = join(__dirname, '../../..');
    const r = spawnSync(process.execPath, ['test/ts-run.js', 'scripts/gen-schema.ts', '--check'], { cwd: api, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toContain('schema.ts is current');
    expect(r.status).toBe(0);
  });
});
