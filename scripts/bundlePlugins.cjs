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
 * - the SDKs' helpers for APIs LangChain never calls (OpenAI's Assistants streams, Anthropic's tool
 *   runners and environment worker) replaced by classes that throw if ever made: each client wires
 *   every resource of its API, so esbuild keeps them.
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

/** SDK helper modules LangChain's chat models never reach, by path, with what each exports. */
const UNUSED_SDK_HELPERS = [
  { file: /[\\/]openai[\\/]lib[\\/]AssistantStream\.mjs$/, classes: ['AssistantStream'] },
  { file: /[\\/]@anthropic-ai[\\/]sdk[\\/]lib[\\/]tools[\\/]BetaToolRunner\.mjs$/, classes: ['BetaToolRunner'] },
  {
    file: /[\\/]@anthropic-ai[\\/]sdk[\\/]lib[\\/]tools[\\/]SessionToolRunner\.mjs$/,
    classes: ['SessionToolRunner'],
    values: { MANAGED_AGENTS_BETA: 'managed-agents-2026-04-01', DEFAULT_MAX_IDLE_MS: 60000 },
  },
  { file: /[\\/]@anthropic-ai[\\/]sdk[\\/]lib[\\/]environments[\\/]worker\.mjs$/, classes: ['EnvironmentWorker'], functions: ['sessionsTokenFromSecret'] },
];

function unusedSdkHelpersPlugin() {
  return {
    name: 'strata-unused-sdk-helpers',
    setup(build) {
      build.onLoad({ filter: /(AssistantStream|BetaToolRunner|SessionToolRunner|worker)\.mjs$/ }, (args) => {
        const helper = UNUSED_SDK_HELPERS.find((h) => h.file.test(args.path));
        if (!helper) return undefined;
        const fail = (name) => `throw new Error(${JSON.stringify(`${name} is not in Strata's bundle`)});`;
        const lines = [
          ...helper.classes.map((name) => `export class ${name} { constructor() { ${fail(name)} } }`),
          ...(helper.functions ?? []).map((name) => `export function ${name}() { ${fail(name)} }`),
          ...Object.entries(helper.values ?? {}).map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`),
        ];
        return { contents: lines.join('\n'), loader: 'js' };
      });
    },
  };
}

function bundlePlugins() {
  return [packedRanksPlugin(), zodEnglishOnlyPlugin(), langsmithShimPlugin(), sideEffectFreePlugin(), emptyModelProfilesPlugin(), unusedSdkHelpersPlugin()];
}

module.exports = { bundlePlugins, LANGSMITH_SHIM };
