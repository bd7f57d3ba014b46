import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { pdfjsAssets } from './vite-pdfjs-assets.ts';

// spec §9: dev server on 8080, output dist with assets under static, /api proxied unchanged (secure false, no websockets)
export default defineConfig({
  plugins: [react(), pdfjsAssets()],
  resolve: {
    alias: { '@wantuo/shared': fileURLToPath(new URL('../../packages/shared/src/index.ts', import.meta.url)) },
  },
  server: {
    port: 8080,
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: true, secure: false, ws: false },
      // the live flow (not in the spec's proxy list, which predates it)
      '/socket.io': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: true, ws: true },
      '/uploads': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: true },
      // the operators' queue board (Bull Board, served by the API)
      '/admin/queues': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    manifest: true,
    // everything the entry imports statically in one chunk (`shell`): every page loads all of it anyway, and on a
    // phone over 4G each of the ~20 small chunks it was split into cost a request (issue 26 item 4)
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] } } },
  },
  // unit tests only; the browser journeys (e2e/) have their own config (vitest.e2e.config.ts)
  // hooks in the order written: test-setup's afterEach (unmount every root) runs before a file's own, which
  // may empty document.body under the portals React still has to remove
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    sequence: { hooks: 'list' },
  },
});
