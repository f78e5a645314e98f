/**
 * Modules Strata's bundle carries in name only (issue 30): at bundle time a listed module's source is
 * replaced by a stub with the same exports (scripts/bundlePlugins.cjs). Kinds of stub:
 * - `inert`: each export an empty class; an SDK client still makes its resources, they carry no
 *   method (calling one is "not a function");
 * - `throws`: each export a function that throws if ever called or made (`new`, `extends`);
 * - `source`: a hand-written replacement (when what is kept must still work, e.g. an inert tracer).
 * `values` gives constants kept as they are, `code` an export's own source. Each entry lists the module's exports in full:
 * __tests__/providers/bundledClients.test.ts checks them against the installed packages, and esbuild
 * fails the build if an importer wants a name the stub lacks.
 * The tables: unusedSdkModules.cjs (OpenAI, Anthropic), unusedLangchainModules.cjs (LangChain),
 * unusedPackageModules.cjs (others).
 * Plain CommonJS: the .mjs config and the TypeScript builds require it as it is.
 */
const path = require('node:path');

/**
 * @typedef {{ pkg: string, file: string, kind: 'inert' | 'throws' | 'source', exports: string[],
 *   values?: Record<string, unknown>, code?: Record<string, string>, source?: string }} UnusedModule
 */

/** @returns {UnusedModule} */
const inert = (pkg, file, ...exports) => ({ pkg, file, kind: 'inert', exports });
/** @returns {UnusedModule} */
const throws = (pkg, file, exports, values = {}, code = {}) => ({ pkg, file, kind: 'throws', exports, values, code });
/** @returns {UnusedModule} */
const replaced = (pkg, file, exports, source) => ({ pkg, file, kind: 'source', exports, source });

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `node_modules/<pkg>/<file>` at the end of a path, either separator (any copy of the package). */
function pathPattern(entry) {
  return `[\\\\/]node_modules[\\\\/]${`${entry.pkg}/${entry.file}`.split('/').map(escapeRegExp).join('[\\\\/]')}$`;
}

/** The stub module's source for an entry. */
function stubSource(entry) {
  if (entry.kind === 'source') return entry.source;
  const where = `${entry.pkg}/${entry.file}`;
  const values = entry.values ?? {};
  const code = entry.code ?? {};
  return entry.exports
    .map((name) => {
      if (name in code) return code[name];
      if (name in values) return `export const ${name} = ${JSON.stringify(values[name])};`;
      if (entry.kind === 'inert') return `export class ${name} { constructor(client) { this._client = client; } }`;
      // A function, so it serves as a class to extend, to make with `new`, or to call.
      return `export function ${name}() { throw new Error(${JSON.stringify(`${name} (${where}) is not in Strata's bundle`)}); }`;
    })
    .join('\n');
}

/** @param {UnusedModule[]} entries */
function unusedModulesPlugin(entries) {
  const patterns = entries.map((entry) => ({ entry, re: new RegExp(pathPattern(entry)) }));
  const filter = new RegExp(patterns.map((p) => `(${p.re.source})`).join('|'));
  return {
    name: 'strata-unused-modules',
    setup(build) {
      build.onLoad({ filter }, (args) => {
        const hit = patterns.find((p) => p.re.test(args.path));
        if (!hit) return undefined;
        return { contents: stubSource(hit.entry), resolveDir: path.dirname(args.path), loader: 'js' };
      });
    },
  };
}

module.exports = { inert, throws, replaced, stubSource, unusedModulesPlugin };
