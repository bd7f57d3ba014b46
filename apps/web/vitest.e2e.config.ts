import { defineConfig } from 'vitest/config';

/** Browser journeys: the built web app and API on a real database, driven in Debian's Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
