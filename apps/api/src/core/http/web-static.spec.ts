import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from '../../../test/harness';
import { IMMUTABLE, pickEncoding, REVALIDATE } from './web-static';

describe('the built web app: caching and compression', () => {
  let t: TestApp;
  let web: string;
  const chunk = `export const a = ${JSON.stringify('x'.repeat(4000))};\n`;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'wantuo-web-'));
    mkdirSync(join(web, 'static'));
    writeFileSync(join(web, 'index.html'), `<!doctype html><script type="module" src="/static/index-abc.js"></script>${' '.repeat(2000)}`);
    writeFileSync(join(web, 'static', 'index-abc.js'), chunk);
    writeFileSync(join(web, 'static', 'tiny-abc.js'), 'export {};');
    writeFileSync(join(web, 'static', 'logo-abc.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(web, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    writeFileSync(join(web, 'm.html'), `<!doctype html><script type="module" src="/static/m/m-abc.js"></script>${' '.repeat(2000)}`);
    writeFileSync(join(web, 'sw.js'), `self.addEventListener('fetch', () => {});${' '.repeat(2000)}`);
    t = await startTestApp({ runJobs: false, env: { WEB_DIST: web } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });
  const server = () => t.app.getHttpServer();
  // supertest undoes the Content-Encoding: the header and the length on the wire tell what was sent, the text what it held

  it('a hashed chunk is kept a year, in brotli when the browser takes it', async () => {
    const res = await request(server()).get('/static/index-abc.js').set('Accept-Encoding', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.text).toBe(chunk);
    expect(Number(res.headers['content-length'])).toBeLessThan(chunk.length / 4);
  });

  it('gzip for a browser without brotli, the file as is for one that takes neither', async () => {
    const gz = await request(server()).get('/static/index-abc.js').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(chunk);
    expect(Number(gz.headers['content-length'])).toBeLessThan(chunk.length / 4);
    const plain = await request(server()).get('/static/index-abc.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    expect(plain.text).toBe(chunk);
  });

  it('small files and images are sent as they are, still kept a year', async () => {
    const tiny = await request(server()).get('/static/tiny-abc.js').set('Accept-Encoding', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers['cache-control']).toBe(IMMUTABLE);
    const png = await request(server()).get('/static/logo-abc.png').set('Accept-Encoding', 'br');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('index.html (the app and any route of it) is revalidated on every visit; an unchanged one answers 304', async () => {
    for (const path of ['/', '/teacher_today', '/parent']) {
      const res = await request(server()).get(path).set('Accept-Encoding', 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(REVALIDATE);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.text).toContain('/static/index-abc.js');
    }
    const first = await request(server()).get('/parent').set('Accept-Encoding', 'gzip');
    const again = await request(server()).get('/parent').set('Accept-Encoding', 'gzip').set('If-None-Match', first.headers['etag']);
    expect(again.status).toBe(304);
  });

  it('the phone app: every path under /m is m.html; its service worker is revalidated; /mall is not under /m', async () => {
    for (const path of ['/m', '/m/', '/m/teacher_today', '/m/pickup/abc']) {
      const res = await request(server()).get(path).set('Accept-Encoding', 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(REVALIDATE);
      expect(res.text).toContain('/static/m/m-abc.js');
    }
    const sw = await request(server()).get('/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers['cache-control']).toBe(REVALIDATE);
    const other = await request(server()).get('/mall');
    expect(other.text).toContain('/static/index-abc.js');
  });

  it('other files of the build are revalidated; a missing chunk is a 404, not the app page; paths stay inside the build', async () => {
    const ico = await request(server()).get('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers['cache-control']).toBe(REVALIDATE);
    const missing = await request(server()).get('/static/gone-123.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('<!doctype html>');
    const escape = await request(server()).get('/static/..%2f..%2fetc%2fpasswd');
    expect(escape.status).toBe(404);
  });

  it('the API is not served from the build', async () => {
    const res = await request(server()).get('/api/health');
    expect(res.headers['cache-control']).not.toBe(IMMUTABLE);
  });
});

describe('pickEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    ['', null],
    [undefined, null],
    ['gzip;q=0', null],
  ] as const)('%s → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});
