'use strict';
/**
 * Lets a plain node process run the API's TypeScript sources as jest does (never a stale dist): a require hook compiles
 * .ts with swc (the options of jest.config.js) and maps @wantuo/shared to its sources. Required first by the test
 * launchers: ts-run.js, two-zone/serve.js, shutdown/main.js.
 */
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { transformSync } = require('@swc/core');

const SHARED = resolve(__dirname, '../../../packages/shared/src/index.ts');
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
