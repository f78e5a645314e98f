/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true, isolatedModules: true } , diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json', 'cjs', 'mjs'],
  testTimeout: 60000,
};
