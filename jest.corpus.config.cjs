/**
 * `npm run test:corpus`: the suites over the shared corpus and scenarios in ../shared beside the
 * checkout: __tests__/corpus, plus the conversation round-trip and rehydration suites, which
 * replay every shared scenario when the global STRATA_SCENARIOS is 'shared'
 * (__tests__/core/conversation/helpers.ts). Fails at once, saying so, when ../shared is missing.
 * @type {import('jest').Config}
 */
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['**/__tests__/corpus/**/*.test.ts', '**/__tests__/core/conversation/rehydration.test.ts', '**/__tests__/core/conversation/roundTrip.test.ts'],
  globalSetup: '<rootDir>/__tests__/corpus/requireShared.cjs',
  globals: { STRATA_SCENARIOS: 'shared' },
};
