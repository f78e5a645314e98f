/**
 * `npm test`: everything that runs on a fresh clone (the project's own vault and scenarios). The
 * suites over ../shared run with `npm run test:corpus` (jest.corpus.config.cjs).
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/__tests__/corpus/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true, isolatedModules: true } , diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'cjs', 'mjs'],
  // The one stand-in of the obsidian module (the npm package has types only): the workbench's shim.
  moduleNameMapper: { '^obsidian$': '<rootDir>/workbench/shim/node.ts' },
  testTimeout: 60000,
  // Both cores (jest's default leaves one free): the suite runs in about half the time on CI's 2 cores.
  maxWorkers: 2,
};
