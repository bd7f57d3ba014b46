import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The phone app (src/phone, entry m.html): a build of its own after the consoles' (`vite build`), into the same dist,
 * its hashed files under static/m/. Nothing of the consoles' antd shell is in its graph; its service worker (sw.js,
 * scope /m/) precaches exactly this build's files, so a second visit needs no network for code.
 */
export default defineConfig({
  plugins: [
    react(),
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
        // the phone's own files only (the consoles' build sits in the same dist)
        globPatterns: ['m.html', 'static/m/**/*.{js,css,woff2,svg,png}', 'm-icon.svg', 'm.webmanifest'],
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
      output: { codeSplitting: { groups: [{ name: 'm-shell', tags: ['$initial'] }] } },
    },
  },
});
