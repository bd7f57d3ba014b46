'use strict';
/**
 * The API's own entry (src/main.ts) run from the TypeScript sources, for test/shutdown.spec.ts: a require hook compiles
 * .ts with swc (the options of jest.config.js) and maps @wantuo/shared to its sources, as test/two-zone/serve.js does.
 * Configured by its environment, as in production; it listens, and stops on SIGTERM, as main.ts says.
 */
require('../ts-hook');

require('../../src/main.ts');
