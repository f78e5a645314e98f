/**
 * `npm test`: everything that runs on a fresh clone (the project's own vault and scenarios). The
 * suites over ../shared run with `npm run test:corpus` (jest.corpus.config.cjs).
 *
 * Two projects, so that the browser's set-up runs only when a browser suite does: "node" (everything
 * but __tests__/e2e) and "browser" (__tests__/e2e, whose globalSetup builds the workbench once and
 * launches the one Chromium all its suites connect to).
 * @type {import('jest').Config}
 */
const TIMEOUT = 60000;

/** @type {import('jest').Config} */
const node = {
  displayName: 'node',
  rootDir: __dirname,
  // Jest's node environment, keeping the tokenizer's rank maps for the worker's life (see the file).
  testEnvironment: '<rootDir>/__tests__/helpers/testEnvironment.cjs',
  roots: ['<rootDir>/__tests__'],
  // A chat reopened from a note kept in memory is decoded as well and compared (decodedNotes.ts).
  setupFilesAfterEnv: ['<rootDir>/__tests__/helpers/checkKeptNotes.ts'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/__tests__/corpus/', '<rootDir>/__tests__/e2e/'],
  transform: {
    // pdfjs-dist's legacy build (the stand-in for Obsidian's pdf.js) ships ES modules only.
    'pdfjs-dist/.+\\.mjs$': '<rootDir>/__tests__/helpers/esmTransform.cjs',
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true, isolatedModules: true } , diagnostics: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!pdfjs-dist/)'],
  moduleFileExtensions: ['ts', 'js', 'json', 'cjs', 'mjs'],
  // The one stand-in of the obsidian module (the npm package has types only): the workbench's shim.
  // js-tiktoken/lite: the real tokenizer, its rank maps built once per worker (__tests__/helpers/sharedTiktoken.ts).
  // langsmith: the bundle's shim (scripts/shims/langsmith.cjs), so the provider tests run what ships.
  moduleNameMapper: {
    '^obsidian$': '<rootDir>/workbench/shim/node.ts',
    '^js-tiktoken/lite$': '<rootDir>/__tests__/helpers/sharedTiktoken.ts',
    '^langsmith(/run_trees|/singletons/traceable)?$': '<rootDir>/scripts/shims/langsmith.cjs',
  },
  testTimeout: TIMEOUT,
};

/** @type {import('jest').Config} */
const browser = {
  ...node,
  displayName: 'browser',
  roots: ['<rootDir>/__tests__/e2e'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/__tests__/e2e/globalSetup.ts',
  globalTeardown: '<rootDir>/__tests__/e2e/globalTeardown.ts',
};

module.exports = {
  projects: [node, browser],
  testTimeout: TIMEOUT,
  // Both cores (jest's default leaves one free): the suite runs in about half the time on CI's 2 cores.
  maxWorkers: 2,
};
