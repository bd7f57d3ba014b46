/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  // NestJS 12 and some of its dependencies ship ES modules only: jest must transform them too.
  transform: {
    '^.+\\.(t|j|mj|cj)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2023',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // transform node_modules too: many dependencies (NestJS 12, htmlparser2, ...) are ESM-only; jest caches the output
  // except plain CommonJS packages that swc's interop would break (wechatpay-axios-plugin's classes have a `default` getter)
  transformIgnorePatterns: ['/node_modules/wechatpay-axios-plugin/'],
  moduleNameMapper: { '^@wantuo/shared$': '<rootDir>/../../packages/shared/src/index.ts' },
  // the longest spec files first, so the two workers finish together (test/sequencer.js)
  testSequencer: '<rootDir>/test/sequencer.js',
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30000,
};
