import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENV_KEYS, loadConfig } from '../src/core/config/config';
import { SHUTDOWN } from '../src/core/shutdown/graceful-shutdown';

/** docker-compose.yml cannot run on the CI machine (no Docker engine): check it matches what the code reads. */
const root = join(__dirname, '..', '..', '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'));
const services = compose.services as Record<
  string,
  { environment?: Record<string, string>; command?: string[]; build?: { context: string; target: string }; ports?: string[] }
>;

it('has postgres, redis, api, worker, backup and web (and prometheus and grafana under the monitoring profile)', () => {
  const profiled = (name: string) => (services[name] as { profiles?: string[] }).profiles !== undefined;
  expect(
    Object.keys(services)
      .filter((s) => !profiled(s))
      .sort(),
  ).toEqual(['api', 'backup', 'postgres', 'redis', 'web', 'worker']);
  // what the monitoring profile adds is checked against deploy/monitoring in src/core/metrics/monitoring.spec.ts
  expect(Object.keys(services).filter(profiled).sort()).toEqual(['grafana', 'prometheus']);
});

it.each(['api', 'worker'])('%s sets only variables the code reads, and they are valid', (name) => {
  const env = services[name].environment!;
  expect(Object.keys(env).filter((k) => !(ENV_KEYS as string[]).includes(k))).toEqual([]);
  const config = loadConfig(env);
  expect(new URL(config.databaseUrl!).hostname).toBe('postgres');
  expect(new URL(config.redisUrl!).hostname).toBe('redis');
  expect(config.env).toBe('production');
});

it('the database credentials match the postgres service', () => {
  const pg = services.postgres.environment!;
  const url = new URL(services.api.environment!.DATABASE_URL);
  expect([url.username, url.password, url.pathname.slice(1)]).toEqual([pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, pg.POSTGRES_DB]);
  expect(services.worker.environment!.DATABASE_URL).toBe(services.api.environment!.DATABASE_URL);
});

it('the worker runs the worker entry of the api image', () => {
  expect(services.worker.build).toEqual(services.api.build);
  expect(services.worker.command).toEqual(['node', 'apps/api/dist/worker.js']);
  expect(existsSync(join(root, 'apps/api/src/worker.ts'))).toBe(true);
});

it('backup runs the daily backup of the api image on the same database and uploads into the backups volume', () => {
  const backup = services.backup as (typeof services)[string] & { volumes: string[] };
  expect(backup.build).toEqual(services.api.build);
  expect(backup.command!.join(' ')).toMatch(/while true; do node apps\/api\/dist\/cli\.js backup\b.*sleep 86400; done/);
  expect(Object.keys(backup.environment!).filter((k) => !(ENV_KEYS as string[]).includes(k))).toEqual([]);
  const config = loadConfig(backup.environment!);
  const api = loadConfig(services.api.environment!);
  expect([config.databaseUrl, config.uploadDir, config.env]).toEqual([api.databaseUrl, api.uploadDir, 'production']);
  expect(backup.volumes).toEqual(expect.arrayContaining(['uploads:/data', `backups:${config.backupDir}`]));
  expect(Object.keys(compose.volumes)).toContain('backups');
  // pg_dump and pg_restore in the api image, and the backups folder the node user writes
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  expect(dockerfile).toMatch(/apt-get install [^\n]*postgresql-client/);
  expect(dockerfile).toMatch(/mkdir -p [^\n]*\/backups && chown node:node [^\n]*\/backups/);
});

it('web serves :8080 and nginx proxies /api, /socket.io, /uploads and the queue board to the api port', () => {
  expect(services.web.ports).toEqual(['8080:8080']);
  const conf = readFileSync(join(root, 'apps/web/nginx/default.conf'), 'utf8');
  expect(conf).toContain(`server api:${services.api.environment!.PORT};`);
  expect(conf).toMatch(/location \/api\/ \{\s+proxy_pass http:\/\/api;/);
  expect(conf).toMatch(/location \/socket\.io\/ \{[^}]*Upgrade \$http_upgrade/);
  expect(conf).toMatch(/location \/uploads\/ \{\s+proxy_pass http:\/\/api;/);
  expect(conf).toMatch(/location \/admin\/queues \{\s+proxy_pass http:\/\/api;/);
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  for (const s of ['api', 'web', 'worker']) expect(dockerfile).toMatch(new RegExp(`^FROM \\S+ AS ${services[s].build!.target}$`, 'm'));
  expect(dockerfile).toContain('COPY apps/web/nginx/default.conf');
});

it('web runs nginx as a user that is not root, on the port compose maps, with a health check nginx answers itself (issue 34)', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const web = /^FROM \S+ AS web$[\s\S]*?(?=^FROM |(?![\s\S]))/m.exec(dockerfile)![0];
  // the stage's last USER is the one nginx runs as
  const user = [...web.matchAll(/^USER (\S+)$/gm)].at(-1)?.[1];
  expect(user).toBeDefined();
  expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
  // its main configuration: no user directive (that needs root), the pid and the temporary files where that user writes
  expect(web).toContain('COPY apps/web/nginx/nginx.conf /etc/nginx/nginx.conf');
  const main = readFileSync(join(root, 'apps/web/nginx/nginx.conf'), 'utf8');
  expect(main).not.toMatch(/^\s*user\s/m);
  expect(main).toMatch(/^pid \/tmp\/\S+;$/m);
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) expect(main).toMatch(new RegExp(`^\\s+${t}_temp_path /tmp/\\S+;$`, 'm'));
  expect(main).toContain('include /etc/nginx/conf.d/*.conf;');
  // the port: what compose maps on the container's side, what nginx listens on and the stage exposes, above 1024
  const conf = readFileSync(join(root, 'apps/web/nginx/default.conf'), 'utf8');
  const ports = services.web.ports!.map((p) => p.split(':').at(-1)!);
  expect([...conf.matchAll(/^\s*listen (\d+);$/gm)].map((m) => m[1])).toEqual(ports);
  expect(web).toMatch(new RegExp(`^EXPOSE ${ports[0]}$`, 'm'));
  expect(Number(ports[0])).toBeGreaterThan(1024);
  // the health check: a location nginx answers itself (no API, no file), asked by the image and by compose on that port
  const health = /location = (\/\S+) \{[^}]*\breturn 200\b/.exec(conf);
  expect(health).not.toBeNull();
  const url = `http://127.0.0.1:${ports[0]}${health![1]}`;
  expect(web).toMatch(new RegExp(`^HEALTHCHECK (--\\S+ )*CMD wget -q -O /dev/null ${url.replace(/\./g, '\\.')}( |$)`, 'm'));
  const check = (services.web as { healthcheck?: { test: string[] } }).healthcheck;
  expect(check?.test).toEqual(['CMD', 'wget', '-q', '-O', '/dev/null', url]);
});

it('the images: a Node LTS from 24 on for the build and the api, inside the engines that keep Node 20 for development; nginx stable', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const from = Object.fromEntries([...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => [m[2], m[1]]));
  expect(from.build).toBe(from.api);
  const node = /^node:(\d+)-bookworm-slim$/.exec(from.api);
  expect(node).not.toBeNull();
  // LTS lines have even majors
  expect([Number(node![1]) % 2, Number(node![1]) >= 24]).toEqual([0, true]);
  // the root engines: one lower bound (no upper one), at most Node 20.19: development machines and CI stay on Node 20
  const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
  const min = /^>=(\d+)\.(\d+)$/.exec(engines);
  expect(min).not.toBeNull();
  expect(Number(min![1]) * 1000 + Number(min![2])).toBeLessThanOrEqual(20_019);
  // nginx's stable branches have even minors (1.30 since April 2026)
  const nginx = /^nginx:1\.(\d+)-alpine$/.exec(from.web);
  expect(nginx).not.toBeNull();
  expect([Number(nginx![1]) % 2, Number(nginx![1]) >= 28]).toEqual([0, true]);
});

it('docker gives the api and the worker longer to stop than their own shutdown bound', () => {
  for (const name of ['api', 'worker']) {
    const grace = (services[name] as { stop_grace_period?: string }).stop_grace_period;
    expect(grace).toMatch(/^\d+s$/);
    expect(parseInt(grace!, 10) * 1000).toBeGreaterThan(SHUTDOWN.timeoutMs);
  }
});

describe('.env.example (issue 34)', () => {
  /** The variables of the README's "## Environment" table: the backticked names in its first column. */
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /^## Environment\n([\s\S]*?)(?=^## )/m.exec(readme)![1];
  const documented = section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
  const example = readFileSync(join(root, '.env.example'), 'utf8').split('\n');
  const assignments = example.flatMap((l, i) => {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(l);
    return m ? [{ name: m[1], value: m[2], line: i }] : [];
  });
  const named = assignments.map((a) => a.name);

  it('names every variable of the README table, once, and none the table does not list', () => {
    expect(documented.length).toBeGreaterThan(40);
    expect({ missing: documented.filter((n) => !named.includes(n)), unlisted: named.filter((n) => !documented.includes(n)) }).toEqual({
      missing: [],
      unlisted: [],
    });
    expect(named.filter((n, i) => named.indexOf(n) !== i)).toEqual([]);
    // and only lines of those two kinds (a commented-out variable would hide one from this check)
    expect(example.filter((l) => l !== '' && !l.startsWith('# ') && !/^[A-Z][A-Z0-9_]*=/.test(l))).toEqual([]);
    expect(example.filter((l) => /^#\s*[A-Z][A-Z0-9_]*=/.test(l))).toEqual([]);
  });

  it('each variable under a comment, its value the default: the file as it is configures what no variable does', () => {
    for (const a of assignments) {
      let i = a.line - 1;
      while (i >= 0 && /^[A-Z][A-Z0-9_]*=/.test(example[i])) i--;
      expect({ name: a.name, comment: example[i]?.startsWith('# ') }).toEqual({ name: a.name, comment: true });
    }
    expect(named.filter((n) => !(ENV_KEYS as string[]).includes(n))).toEqual([]);
    const env = Object.fromEntries(assignments.map((a) => [a.name, a.value]));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });
});
