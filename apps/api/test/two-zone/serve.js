'use strict';
/**
 * One API process of the two-zone test (test/two-zone.spec.ts), run from the TypeScript sources so it tests the code
 * as it is now (never a stale dist): a require hook compiles .ts with swc (the options of jest.config.js) and maps
 * @wantuo/shared to its sources, as jest does. The process's zone is its TZ environment variable; the parent passes
 * the resolved config as JSON (TWO_ZONE_CONFIG), gets { port, offset } when it listens, and sends 'stop'.
 */
require('../ts-hook');

require('reflect-metadata');
const { createApp } = require('../../src/bootstrap.ts');
const { createLogger } = require('../../src/core/logging/logger.ts');

(async () => {
  const config = JSON.parse(process.env.TWO_ZONE_CONFIG);
  const app = await createApp(config, createLogger(config.logLevel), { runJobs: false });
  await app.listen(0, '127.0.0.1');
  process.on('message', (m) => {
    if (m === 'stop') void app.close().then(() => process.exit(0));
  });
  process.send({ port: app.getHttpServer().address().port, offset: new Date('2026-11-26T17:30:00Z').getTimezoneOffset() });
})().catch((err) => {
  process.stderr.write(`two-zone serve failed: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exit(1);
});
