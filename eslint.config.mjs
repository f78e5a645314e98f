import { defineConfig, globalIgnores } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import globals from 'globals';

export default defineConfig([
  globalIgnores(['node_modules/', 'main.js', 'bench-results/', 'test-output/', 'coverage/', '**/*.cjs', 'esbuild.config.mjs']),
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Node-side code (tests, scripts, benchmarks, the filesystem adapter and local servers) is not
    // plugin code: Node modules and Node globals are its job.
    files: ['__tests__/**', 'scripts/**', 'bench/**', 'src/node/**', 'workbench/**'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      'obsidianmd/no-nodejs-modules': 'off',
      'obsidianmd/prefer-window-timers': 'off',
      'obsidianmd/no-global-this': 'off',
      'import/no-nodejs-modules': 'off',
      'no-restricted-globals': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
]);
