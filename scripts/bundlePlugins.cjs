/**
 * The esbuild plugins every build of the plugin bundle runs (esbuild.config.mjs, the workbench's
 * build, the bench's bundle breakdown), so all three measure and load the same main.js:
 * - the token rank tables packed (packRanks.cjs);
 * - zod's error messages in English only: zod re-exports its 40-odd locales as a namespace, which
 *   esbuild cannot shake out (250 KB minified). Strata never switches zod's locale, and zod's own
 *   default is the English one kept here;
 * - langsmith (LangChain's tracing client) swapped for shims/langsmith.cjs: Strata never traces.
 * Plain CommonJS: the .mjs config and the TypeScript builds require it as it is.
 */
const path = require('node:path');
const { packedRanksPlugin } = require('./packRanks.cjs');

function zodEnglishOnlyPlugin() {
  return {
    name: 'strata-zod-english-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
        contents: 'export { default as en } from "./en.js";',
        resolveDir: path.dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/** The langsmith entry points @langchain/core imports, all answered by the one shim. */
const LANGSMITH_SHIM = path.join(__dirname, 'shims', 'langsmith.cjs');

function langsmithShimPlugin() {
  return {
    name: 'strata-langsmith-shim',
    setup(build) {
      build.onResolve({ filter: /^langsmith(\/run_trees|\/singletons\/traceable)?$/ }, () => ({ path: LANGSMITH_SHIM }));
    },
  };
}

function bundlePlugins() {
  return [packedRanksPlugin(), zodEnglishOnlyPlugin(), langsmithShimPlugin()];
}

module.exports = { bundlePlugins, LANGSMITH_SHIM };
