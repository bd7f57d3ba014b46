import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const PDFJS = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const VERSION = (JSON.parse(readFileSync(join(PDFJS, 'package.json'), 'utf8')) as { version: string }).version;
/** The data PDF.js fetches at run time: the CMaps (CJK encodings such as UniGB-UCS2-H) and the standard 14 fonts. */
const DIRS = ['cmaps', 'standard_fonts'] as const;

/** Every file to serve: its path under the assets folder (`pdfjs-<version>/cmaps/…`) and where it lies in pdfjs-dist. */
export function pdfjsAssetFiles(): { path: string; source: string }[] {
  return DIRS.flatMap((dir) =>
    readdirSync(join(PDFJS, dir))
      .filter((f) => !f.startsWith('LICENSE'))
      .map((f) => ({ path: `pdfjs-${VERSION}/${dir}/${f}`, source: join(PDFJS, dir, f) })),
  );
}

/**
 * Serves pdfjs-dist's cmaps/ and standard_fonts/ with the app (issue 34 item 6: a PDF whose Chinese font is not
 * embedded renders blank without them), at `/<assetsDir>/pdfjs-<version>/` (versioned, so the long cache of /static
 * holds and a new PDF.js gets new URLs): emitted into the build, answered by the dev server, and named to the app as
 * `__PDFJS_ASSETS__` (pdfjs.ts passes it to react-pdf as cMapUrl and standardFontDataUrl).
 */
export function pdfjsAssets(): Plugin {
  let base = '/static/';
  return {
    name: 'wantuo:pdfjs-assets',
    config: (config) => {
      base = `${config.base ?? '/'}${config.build?.assetsDir ?? 'assets'}/`;
      return { define: { __PDFJS_ASSETS__: JSON.stringify(`${base}pdfjs-${VERSION}/`) } };
    },
    configureServer(server) {
      const files = new Map(pdfjsAssetFiles().map((f) => [`${base}${f.path}`, f.source]));
      server.middlewares.use((req, res, next) => {
        const source = files.get((req.url ?? '').split('?')[0]);
        if (!source) return next();
        res.setHeader('content-type', 'application/octet-stream');
        res.end(readFileSync(source));
      });
    },
    generateBundle() {
      const dir = base.replace(/^\/+/, '');
      for (const f of pdfjsAssetFiles()) this.emitFile({ type: 'asset', fileName: `${dir}${f.path}`, source: readFileSync(f.source) });
    },
  };
}
