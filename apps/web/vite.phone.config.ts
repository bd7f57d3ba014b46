import react from '@vitejs/plugin-react';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The release's build id, shown in 我的 (support staff ask a phone which release it runs) and written into m.html as
 * `<meta name="wantuo-build">`: WANTUO_BUILD when the deploy sets one, else the commit and the build's time (UTC).
 * Only m.html carries it, so the hashed chunks stay the same from build to build of the same code.
 */
function buildId(): string {
  if (process.env.WANTUO_BUILD) return process.env.WANTUO_BUILD;
  let commit = 'dev';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || commit;
  } catch {
    // a build outside a git checkout (a docker context without .git)
  }
  const at = new Date().toISOString().replace(/[-:]/g, '').replace('T', '.').slice(0, 13);
  return `${commit}.${at}`;
}

function buildMeta(id: string): Plugin {
  return {
    name: 'wantuo-build-id',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { name: 'wantuo-build', content: id }, injectTo: 'head' }],
  };
}

/**
 * The page modules of the first screens (the routes of src/phone/route-table.ts whose data boot.ts starts early, i.e.
 * the teacher's and the parent's home), read from route-table.ts (each route's lazy import): `src/phone/teacher/today`, ….
 */
export function firstScreenModules(routeTable: string): string[] {
  const early = [...routeTable.matchAll(/\{\s*path: '[^']+',\s*page: \(\) => import\('\.\/([^']+)'\)[^{}]*?\bearly: '\w+'/g)].map((m) => m[1]);
  if (!early.length) throw new Error('vite.phone.config.ts: no route with `early` found in route-table.ts');
  return early.map((mod) => `src/phone/${mod}`);
}

/**
 * m.html asks for the code every first screen needs (the chunks the teacher's and the parent's home both import,
 * with their CSS) in parallel with the shell, instead of after the shell has loaded and run (boot.ts's import). A
 * screen's own chunks are not named: the CSP allows no inline script to pick them by path, and the other role's
 * would take connections from this one's.
 */
function preloadFirstScreens(): Plugin {
  const read = (f: string) => readFileSync(fileURLToPath(new URL(f, import.meta.url)), 'utf8');
  return {
    name: 'wantuo-preload-first-screens',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle as OutputBundle | undefined;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
        const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
        /** a page chunk's own chunks (itself and what it imports, not the shell's) and their CSS */
        const own = (c: OutputChunk, js = new Set<string>(), css = new Set<string>()) => {
          if (entries.has(c.fileName) || js.has(c.fileName)) return { js, css };
          js.add(c.fileName);
          for (const f of (c as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []) css.add(f);
          for (const f of c.imports) {
            const dep = bundle[f];
            if (dep?.type === 'chunk') own(dep, js, css);
          }
          return { js, css };
        };
        const screens = firstScreenModules(read('./src/phone/route-table.ts')).map((mod) => {
          const chunk = chunks.find(
            (c) => c.facadeModuleId && /\.tsx?$/.test(c.facadeModuleId) && c.facadeModuleId.replace(/\.tsx?$/, '').endsWith(mod),
          );
          if (!chunk) throw new Error(`vite.phone.config.ts: no chunk for ${mod}`);
          return own(chunk);
        });
        // only what every first screen needs: on HTTP/1.1 (six connections) each chunk of the other role's screen
        // would delay this one's
        const every = (pick: (s: { js: Set<string>; css: Set<string> }) => Set<string>) =>
          [...pick(screens[0])].filter((f) => screens.every((s) => pick(s).has(f)));
        const js = every((s) => s.js);
        const css = every((s) => s.css);
        const tags: HtmlTagDescriptor[] = [
          ...js.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `/${f}` }, injectTo: 'head' as const })),
          ...css.map((f) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: '', href: `/${f}` },
            injectTo: 'head' as const,
          })),
        ];
        return tags;
      },
    },
  };
}

/**
 * The phone app (src/phone, entry m.html): a build of its own after the consoles' (`vite build`), into the same dist,
 * its hashed files under static/m/. Nothing of the consoles' antd shell is in its graph; its service worker (sw.js,
 * scope /m/) precaches exactly this build's files, so a second visit needs no network for code.
 */
export default defineConfig({
  plugins: [
    react(),
    buildMeta(buildId()),
    preloadFirstScreens(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/phone',
      filename: 'sw.ts',
      scope: '/m/',
      injectRegister: false,
      manifest: {
        name: '晚托',
        short_name: '晚托',
        lang: 'zh-CN',
        start_url: '/m/',
        scope: '/m/',
        display: 'standalone',
        background_color: '#f5f6f8',
        theme_color: '#1677ff',
        icons: [{ src: '/m-icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      manifestFilename: 'm.webmanifest',
      injectManifest: {
        // the phone's own files only (the consoles' build sits in the same dist); the plugin adds the webmanifest and
        // its icon itself
        globPatterns: ['m.html', 'static/m/**/*.{js,css,woff2,svg,png}'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
  ],
  resolve: {
    alias: { '@wantuo/shared': fileURLToPath(new URL('../../packages/shared/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'static/m',
    manifest: 'm-manifest.json',
    rolldownOptions: {
      input: { m: fileURLToPath(new URL('./m.html', import.meta.url)) },
      // the shell in one chunk: each of many small ones would cost a request on 4G
      output: {
        codeSplitting: {
          groups: [{ name: 'm-shell', tags: ['$initial'], priority: 20 }],
        },
      },
    },
  },
});
