import { defineConfig } from 'vitest/config';

/** Browser journeys: the built web app and API on a real database, driven in Debian's Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    // one migrated, seeded database per run, copied by each journey's stack
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // the machine may be busy (2 cores): give waits room, they return as soon as the page is ready
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
