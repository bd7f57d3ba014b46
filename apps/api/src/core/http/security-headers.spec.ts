import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from '../../../test/harness';
import { CSP_DIRECTIVES, cspHeader } from './security-headers';

const SITE_CSP = cspHeader(CSP_DIRECTIVES);

describe('security headers (helmet) on every answer', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    // a built web app of our own, so the test does not depend on apps/web/dist
    web = mkdtempSync(join(tmpdir(), 'wantuo-web-'));
    mkdirSync(join(web, 'static'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><script type="module" src="/static/index.js"></script>');
    writeFileSync(join(web, 'static', 'index.js'), 'console.log(1)');
    t = await startTestApp({ runJobs: false, env: { WEB_DIST: web } });
    writeFileSync(join(t.config.uploadDir, 'a.txt'), 'hello');
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });
  const server = () => t.app.getHttpServer();

  it.each([
    ['the web app', 'get', '/'],
    ['a web route (index.html fallback)', 'get', '/principalIndex'],
    ['a web asset', 'get', '/static/index.js'],
    ['an action', 'post', '/api/index/login'],
    ['an unknown action (404)', 'get', '/api/index/noSuchAction'],
    ['the health check', 'get', '/api/health'],
    ['the OpenAPI UI', 'get', '/api/docs'],
    ['the OpenAPI document', 'get', '/api/docs-json'],
    ['an upload', 'get', '/uploads/a.txt'],
  ] as const)('%s: CSP, nosniff, same-origin framing and no X-Powered-By', async (_name, method, path) => {
    const res = await request(server())[method](path);
    expect(res.status).toBeLessThan(500);
    expect(res.headers).toMatchObject({
      'content-security-policy': SITE_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'strict-transport-security': 'max-age=15552000',
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('the queue board gets the same policy (its fonts are the system ones, nothing from Google), on its page and its API', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      const res = await request(server()).get(path).set('accept', 'text/html');
      expect(res.headers['content-security-policy']).toBe(SITE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('the policy: scripts only from this origin (no inline, no eval), framing only by this origin, no plugins, no upgrade', () => {
    expect(SITE_CSP).toContain("script-src 'self';");
    expect(SITE_CSP).toContain("script-src-attr 'none'");
    expect(SITE_CSP).toContain("frame-ancestors 'self'");
    expect(SITE_CSP).toContain("object-src 'none'");
    expect(SITE_CSP).not.toMatch(/unsafe-eval|upgrade-insecure-requests|\*/);
    // no outside origin (the queue board's Google fonts are gone: blocked in mainland China)
    expect(SITE_CSP).not.toMatch(/https?:/);
  });
});

describe('nginx (docker) sends the same headers with the web app it serves', () => {
  const conf = readFileSync(join(__dirname, '..', '..', '..', '..', 'web', 'nginx', 'default.conf'), 'utf8');
  const block = (location: string) => {
    const start = conf.indexOf(`location ${location} {`);
    expect(start).toBeGreaterThanOrEqual(0);
    return conf.slice(start, conf.indexOf('\n  }', start));
  };

  it.each(['/', '/static/'])('location %s: the API’s CSP, nosniff and SAMEORIGIN, on every status', (location) => {
    const b = block(location);
    expect(b).toContain(`add_header Content-Security-Policy "${SITE_CSP}" always;`);
    expect(b).toContain('add_header X-Content-Type-Options "nosniff" always;');
    expect(b).toContain('add_header X-Frame-Options "SAMEORIGIN" always;');
    expect(b).toContain('add_header Referrer-Policy "no-referrer" always;');
  });

  it.each(['/api/', '/socket.io/', '/admin/queues', '/uploads/'])('location %s passes the API’s own headers without adding its own', (location) => {
    expect(block(location)).not.toMatch(/add_header (Content-Security-Policy|X-Content-Type-Options|X-Frame-Options)/);
  });

  it('adds no security header at server level (nginx would add it to the proxied answers too)', () => {
    const serverLevel = conf.replace(/\n {2}location [^{]+\{[\s\S]*?\n {2}\}/g, '');
    expect(serverLevel).not.toMatch(/add_header/);
  });
});
