/**
 * `npm run test:corpus`: the suites over the shared corpus and scenarios in ../shared beside the
 * checkout: __tests__/corpus, plus the conversation round-trip and rehydration suites, which
 * replay every shared scenario when the global STRATA_SCENARIOS is 'shared'
 * (__tests__/core/conversation/helpers.ts). Fails at once, saying so, when ../shared is missing.
 * @type {import('jest').Config}
 */
// The run's options and the "node" project's (jest.config.cjs), as one config of a single project.
const { projects, ...run } = require('./jest.config.cjs');
const { displayName: _name, ...base } = projects[0];

module.exports = {
  ...run,
  ...base,
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['**/__tests__/corpus/**/*.test.ts', '**/__tests__/core/conversation/rehydration.test.ts', '**/__tests__/core/conversation/roundTrip.test.ts'],
  globalSetup: '<rootDir>/__tests__/corpus/requireShared.cjs',
  globals: { STRATA_SCENARIOS: 'shared' },
};
