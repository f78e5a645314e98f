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
    rules: {
      // The declarative settings API needs Obsidian 1.13; Strata supports 1.11.4 (SecretStorage),
      // where display() is the only way. Revisit when minAppVersion reaches 1.13.
      'obsidianmd/settings-tab/prefer-setting-definitions': 'off',
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
  {
    // The workbench's shim *is* the `obsidian` module for the browser (createEl, instanceOf, Platform,
    // Vault#configDir, FileManager.trashFile, moment): the rules that steer plugin code towards those
    // APIs cannot apply to their implementation.
    files: ['workbench/**'],
    rules: {
      'obsidianmd/prefer-create-el': 'off',
      'obsidianmd/prefer-instanceof': 'off',
      'obsidianmd/platform': 'off',
      'obsidianmd/hardcoded-config-path': 'off',
      'obsidianmd/prefer-file-manager-trash-file': 'off',
      'obsidianmd/no-static-styles-assignment': 'off',
      '@typescript-eslint/no-restricted-imports': 'off',
      'import/no-extraneous-dependencies': 'off',
    },
  },
]);
