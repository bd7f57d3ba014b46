'use strict';
/**
 * Runs one of the API's TypeScript entry points as its own process, from the sources (never a stale dist), as
 * `node test/ts-run.js src/cli.ts backup` runs like `node dist/cli.js backup`: a require hook compiles .ts with swc
 * (the options of jest.config.js) and maps @wantuo/shared to its sources, as jest does. For tests that need the real
 * process (exit codes, stderr) or code that must not run inside jest's sandbox (node-tar checks `instanceof Date` on
 * the fs.Stats dates, which come from another realm there).
 */
require('./ts-hook');
const { resolve } = require('node:path');

const entry = resolve(__dirname, '..', process.argv[2]);
// the entry sees the arguments after its own name, as under `node dist/<entry>.js`
process.argv.splice(1, 2, entry);
require(entry);
