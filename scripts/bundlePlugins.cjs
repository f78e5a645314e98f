/**
 * The esbuild plugins every build of the plugin bundle runs (esbuild.config.mjs, the workbench's
 * build, the bench's bundle breakdown), so all three measure and load the same main.js:
 * - the token rank tables packed (packRanks.cjs);
 * - zod's error messages in English only: zod re-exports its 40-odd locales as a namespace, which
 *   esbuild cannot shake out (250 KB minified). Strata never switches zod's locale, and zod's own
 *   default is the English one kept here;
 * - langsmith (LangChain's tracing client) swapped for shims/langsmith.cjs: Strata never traces;
 * - @langchain/core's XML output parser and its sax parser (19 KB) marked free of side effects, so
 *   esbuild drops them: core's output_parsers index re-exports them, and Strata never parses XML;
 * - the LangChain chat models' model profiles (tables of what each model supports, 18 KB) emptied:
 *   read only by a model's `profile` getter, which neither Strata nor @langchain/core calls;
 * - modules Strata never runs made empty or throwing stubs with the same exports (unusedModules.cjs):
 *   the SDKs' API resources and helpers LangChain never calls (each client wires every resource of
 *   its API, so esbuild keeps them all), LangChain's unused streams, tracers, cache and converters,
 *   image-size's types Strata does not send.
 * Plain CommonJS: the .mjs config and the TypeScript builds require it as it is.
 */
const path = require('node:path');
const { packedRanksPlugin } = require('./packRanks.cjs');
const { unusedModulesPlugin } = require('./unusedModules.cjs');
const { UNUSED_SDK_MODULES } = require('./unusedSdkModules.cjs');
const { UNUSED_LANGCHAIN_MODULES } = require('./unusedLangchainModules.cjs');
const { UNUSED_PACKAGE_MODULES } = require('./unusedPackageModules.cjs');

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

/** Modules with no side effects that esbuild cannot tell are unused (their package does not say sideEffects: false). */
const UNUSED_WHEN_UNREFERENCED = /[\\/]@langchain[\\/]core[\\/]dist[\\/](utils[\\/]sax-js[\\/]sax|output_parsers[\\/]xml)\.js$/;

function sideEffectFreePlugin() {
  return {
    name: 'strata-side-effect-free',
    setup(build) {
      build.onResolve({ filter: /xml|sax/ }, async (args) => {
        if (args.pluginData?.strataResolved) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { strataResolved: true } });
        if (resolved.errors.length > 0 || !UNUSED_WHEN_UNREFERENCED.test(resolved.path)) return undefined;
        return { ...resolved, sideEffects: false };
      });
    },
  };
}

function emptyModelProfilesPlugin() {
  return {
    name: 'strata-empty-model-profiles',
    setup(build) {
      build.onLoad({ filter: /[\\/]@langchain[\\/][^\\/]+[\\/]dist[\\/](chat_models[\\/])?profiles\.js$/ }, () => ({
        contents: 'export default {};',
        loader: 'js',
      }));
    },
  };
}

function bundlePlugins() {
  return [packedRanksPlugin(), zodEnglishOnlyPlugin(), langsmithShimPlugin(), sideEffectFreePlugin(), emptyModelProfilesPlugin(), unusedModulesPlugin([...UNUSED_SDK_MODULES, ...UNUSED_LANGCHAIN_MODULES, ...UNUSED_PACKAGE_MODULES])];
}

module.exports = { bundlePlugins, LANGSMITH_SHIM };
