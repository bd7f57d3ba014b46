import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Hashed build output (Vite's assetsDir): a file's name changes with its content, so a browser may keep it for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current hashed files: asked again (a 304 when unchanged) on every visit. */
export const REVALIDATE = 'no-cache';

/** Text types worth compressing (images, fonts and the PDF worker's wasm are already compressed or small). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.svg', '.map', '.txt']);
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip';

/** The encoding to answer with, from the request's Accept-Encoding (brotli first; `q=0` refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (e: string) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/**
 * A file of the built web app, compressed once per encoding and kept in memory (the build's files do not change while
 * the process runs; a new build comes with a restart). A `.br` / `.gz` file written next to it by the build is used
 * as is; otherwise the file is compressed on its first request (brotli at a middle quality, fast enough to do inline).
 */
class CompressedFiles {
  private readonly cache = new Map<string, { mtimeMs: number; body: Buffer }>();

  get(file: string, encoding: Encoding): Buffer {
    const key = `${encoding}:${file}`;
    const mtimeMs = statSync(file).mtimeMs;
    const hit = this.cache.get(key);
    if (hit && hit.mtimeMs === mtimeMs) return hit.body;
    const pre = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    let body: Buffer;
    if (existsSync(pre) && statSync(pre).mtimeMs >= mtimeMs) body = readFileSync(pre);
    else {
      const raw = readFileSync(file);
      body =
        encoding === 'br'
          ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
          : gzipSync(raw, { level: 9 });
    }
    this.cache.set(key, { mtimeMs, body });
    return body;
  }
}

/**
 * Sends `file` (inside the web app's folder), compressed when the browser accepts it and the type is text, with
 * `cacheControl`; a conditional GET whose ETag still matches gets a 304. Answers false when there is no such file.
 */
function sendWebFile(req: Request, res: Response, file: string, cacheControl: string, files: CompressedFiles): boolean {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  const ext = extname(file).toLowerCase();
  const type = TYPES[ext];
  const encoding = type && COMPRESSIBLE.has(ext) && stat.size >= MIN_BYTES ? pickEncoding(req.headers['accept-encoding']) : null;
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', stat.mtime.toUTCString());
  if (type && COMPRESSIBLE.has(ext)) res.setHeader('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end();
    return true;
  }
  if (!encoding) {
    res.sendFile(file, { cacheControl: false, etag: false, lastModified: false, dotfiles: 'deny' });
    return true;
  }
  const body = files.get(file, encoding);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * The built web app on the same port (npm start): hashed files under `/<assetsDir>/` kept a year (immutable), every
 * other file of the build revalidated, m.html for the phone app's paths (/m/…), index.html for any other non-API path
 * (the router's), never kept without
 * asking; text compressed with brotli or gzip when the browser accepts it.
 */
export function serveWeb(app: NestExpressApplication, dist: string, assetsDir = 'static'): void {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return;
  const root = normalize(dist + sep);
  const files = new CompressedFiles();
  app.use(`/${assetsDir}`, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = normalize(join(dist, assetsDir, path));
    if (!file.startsWith(root) || path.includes('\0')) return next();
    if (!sendWebFile(req, res, file, IMMUTABLE, files)) next();
  });
  // the rest of the build's files (favicon and the like): revalidated, so a new build shows at once
  app.use(express.static(dist, { index: false, cacheControl: true, maxAge: 0, setHeaders: (res) => res.setHeader('Cache-Control', REVALIDATE) }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || /^\/(api|socket\.io|uploads|admin|metrics)(\/|$)/.test(req.path)) return next();
    // a missing hashed file is a 404 (a stale tab asking for an old build's chunk), not the app's page
    if (req.path.startsWith(`/${assetsDir}/`)) return next();
    // the phone app (its own entry, m.html) answers every path under /m; its service worker precaches it
    if (/^\/m(\/|$)/.test(req.path) && sendWebFile(req, res, join(dist, 'm.html'), REVALIDATE, files)) return;
    sendWebFile(req, res, index, REVALIDATE, files);
  });
}
