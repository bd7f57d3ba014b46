import { defineConfig } from 'vitest/config';

/** Browser journeys: the built web app and API on a real database, driven in Debian's Chromium. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    // one migrated, seeded database per run, copied by each journey's stack
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    // a backstop, not a measure: each step waits for its page (15 s polls), and a busy 2-core machine may take minutes
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // the machine may be busy (2 cores): give waits room, they return as soon as the page is ready
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
