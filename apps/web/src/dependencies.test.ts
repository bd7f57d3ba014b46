import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(WEB, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The package an import names (`antd/es/result` → antd, `@ant-design/icons` → itself), null for a relative one. */
const packageOf = (spec: string): string | null => {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

// `import('pkg' as string)`: a lazy import whose typings TypeScript does not load (phone/wechat/jssdk.ts)
const IMPORT =
  /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*(?:as\s+string\s*)?\)/gm;

function resolveFile(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  for (const f of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(f) && statSync(f).isFile()) return f;
  }
  return null;
}

/** The packages an entry imports (both entries by default): everything reachable from it, statically or lazily. */
function packagesOfApp(
  roots = [join(WEB, 'src', 'main.tsx'), join(WEB, 'src', 'phone', 'main.tsx'), join(WEB, 'src', 'phone', 'sw.ts')],
  specs?: Set<string>,
  typesOnly?: Set<string>,
): Map<string, string> {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file) || !/\.(ts|tsx)$/.test(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      // types only: nothing of the package is bundled (still a dependency the code needs to type-check)
      if (/^\s*(?:import|export)\s+type\b/.test(m[0])) {
        const pkgName = packageOf(spec);
        if (pkgName) typesOnly?.add(pkgName);
        continue;
      }
      const name = packageOf(spec);
      if (name) specs?.add(spec);
      if (name) {
        if (!found.has(name)) found.set(name, file.slice(WEB.length + 1));
      } else if (spec.startsWith('.')) {
        const next = resolveFile(file, spec);
        if (next) todo.push(next);
      }
    }
  }
  expect(seen.size, 'the walk reaches the pages').toBeGreaterThan(roots.length > 1 ? 100 : 20);
  return found;
}

describe('the web app’s dependency list (issue 34 item 7)', () => {
  const types = new Set<string>();
  const bundled = packagesOfApp(undefined, undefined, types);
  const used = new Map([...[...types].map((n) => [n, 'types'] as [string, string]), ...bundled]);

  it('every package the app imports is declared in dependencies (not reached through hoisting)', () => {
    const undeclared = [...used].filter(([name]) => !(name in pkg.dependencies)).map(([name, file]) => `${name} (${file})`);
    expect(undeclared).toEqual([]);
  });

  it('a package the app never imports is not a production dependency (crypto-js serves only a test’s cipher)', () => {
    expect(Object.keys(pkg.dependencies).filter((name) => !used.has(name))).toEqual([]);
  });

  it('one exact version for every @fullcalendar package', () => {
    const versions = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })
      .filter(([name]) => name.startsWith('@fullcalendar/'))
      .map(([, v]) => v);
    expect(versions.length).toBeGreaterThan(1);
    expect(new Set(versions).size).toBe(1);
    expect(versions[0]).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('the phone app (src/phone, design.md §7: its own small entry)', () => {
  const specs = new Set<string>();
  const used = packagesOfApp([join(WEB, 'src', 'phone', 'main.tsx')], specs);

  it('never reaches the consoles’ antd, their icons, charts or calendar, statically or lazily', () => {
    const desktop = ['antd', '@ant-design/icons', 'echarts', '@fullcalendar/react', '@fullcalendar/core', 'react-pdf', 'nprogress', 'aos'];
    expect([...used].filter(([name]) => desktop.includes(name)).map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });

  it('imports antd-mobile and its icons by each component’s own path (the package root pulls in every component and its CSS)', () => {
    expect([...specs].filter((s) => s === 'antd-mobile' || s === 'antd-mobile-icons')).toEqual([]);
  });
});

/** Every text file of the served app's sources: index.html, src (scripts and CSS), public. */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(html|css|ts|tsx|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

it('no page or style of the app loads web fonts from Google (blocked in mainland China): fonts are the system’s', () => {
  const files = [join(WEB, 'index.html'), ...sources(join(WEB, 'src')), ...sources(join(WEB, 'public'))].filter(
    (f) => !f.endsWith('dependencies.test.ts'),
  );
  expect(files.length).toBeGreaterThan(100);
  const outside = files.filter((f) => /fonts\.(googleapis|gstatic)\.com|fonts\.loli\.net/.test(readFileSync(f, 'utf8')));
  expect(outside).toEqual([]);
});
