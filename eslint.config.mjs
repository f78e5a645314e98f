import { builtinModules } from 'node:module';
import { defineConfig, globalIgnores } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import globals from 'globals';

// The plugin's own restricted imports for TypeScript (axios, moment, ...): the core's rule below
// replaces the rule's options, so it restates them.
const pluginRestrictedImports = obsidianmd.configs.recommended
  .filter((c) => c.files?.some((f) => f.includes('ts')) && c.rules?.['@typescript-eslint/no-restricted-imports'])
  .flatMap((c) => c.rules['@typescript-eslint/no-restricted-imports'].slice(1));

const PURE = 'src/core is pure: it reaches the world only through the ports it is given (src/core/ports).';
const CLOCK = 'src/core reads no clock: take the time as an argument or a Clock port.';
const RANDOM = 'src/core uses no randomness: derive ids from content or source.';

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
      // The text cursor, not the Cursor editor the rule's brand list knows.
      'obsidianmd/ui/sentence-case': ['warn', { enforceCamelCaseLower: true, ignoreRegex: ['\\bat cursor\\b'] }],
    },
  },
  {
    // Import cycles, value imports only (the rule skips `import type`). eslint-plugin-import resolves
    // with its Node resolver, which needs the .ts extension; it follows project files only, since
    // parsing node_modules made the check cost ~13 s of CPU and a package cannot import us back.
    files: ['**/*.ts'],
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] } },
      'import/extensions': ['.ts', '.js', '.mjs'],
      'import/ignore': ['node_modules'],
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The core's purity (DESIGN.md): no Obsidian, no Node, no adapters, no clock, no randomness.
    // Type imports count too: the dependency must point from the adapters to the core.
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...pluginRestrictedImports,
            { name: 'obsidian', message: PURE },
            ...builtinModules.filter((m) => !m.startsWith('_')).map((name) => ({ name, message: PURE })),
          ],
          patterns: [
            { regex: '^node:', message: PURE },
            // Relative (or baseUrl) paths into the adapters; the core has no folder of these names.
            { regex: '^(?:(?:\\.\\./)+|src/)(?:providers|obsidian|node)(?:/|$)', message: PURE },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: CLOCK },
        { object: 'performance', property: 'now', message: CLOCK },
        { object: 'Math', property: 'random', message: RANDOM },
        { object: 'crypto', property: 'randomUUID', message: RANDOM },
        { object: 'crypto', property: 'getRandomValues', message: RANDOM },
      ],
      'no-restricted-syntax': [
        'error',
        // new Date(ms) is a pure conversion; only the argument-less form reads the clock.
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: CLOCK },
        { selector: "CallExpression[callee.name='Date']", message: CLOCK },
      ],
    },
  },
  {
    // Node-side code (tests, scripts, benchmarks, the filesystem adapter and local servers, this
    // config) is not plugin code: Node modules and Node globals are its job.
    files: ['__tests__/**', 'testing/**', 'scripts/**', 'bench/**', 'src/node/**', 'workbench/**', 'eslint.config.mjs'],
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
