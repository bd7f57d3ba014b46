'use strict';
/**
 * The API's own entry (src/main.ts) run from the TypeScript sources, for test/shutdown.spec.ts: a require hook compiles
 * .ts with swc (the options of jest.config.js) and maps @wantuo/shared to its sources, as test/two-zone/serve.js does.
 * Configured by its environment, as in production; it listens, and stops on SIGTERM, as main.ts says.
 */
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { transformSync } = require('@swc/core');

const SHARED = resolve(__dirname, '../../../../packages/shared/src/index.ts');
const SWC = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, request === '@wantuo/shared' ? SHARED : request, ...rest);
};
Module._extensions['.ts'] = function (module, filename) {
  module._compile(transformSync(readFileSync(filename, 'utf8'), { ...SWC, filename }).code, filename);
};
process.setSourceMapsEnabled(true);

require('../../src/main.ts');
