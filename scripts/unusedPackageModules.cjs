/**
 * Parts of other packages Strata's bundle carries in name only (unusedModules.cjs).
 * - image-size: Strata measures the images it can send (PNG, JPEG, GIF, WebP: core/context/images.ts)
 *   and sends no other type, so its table of 20 types keeps those four, in the same order. Detection
 *   is unchanged for them: every other type's check looks at bytes that one of the four's signatures
 *   fixes otherwise, and a type that is not kept was never sent (measureImage answered null).
 * - zod 3 (`zod/v3`, 57 KiB): Strata's schemas are zod 4. @langchain/core imports zod 3 for paths
 *   Strata never takes: a DynamicTool's default schema, `asTool`, `getGraph` (already throwing),
 *   StructuredOutputParser.fromNamesAndDescriptions, and its zod 3 to JSON Schema converter
 *   (stubbed in unusedLangchainModules.cjs). Every export of the stub throws, naming zod 3, when
 *   used: `z.object(...)` included (a Proxy gives each member as a throwing function).
 */
const { replaced } = require('./unusedModules.cjs');

/** zod 3's names, as the installed zod exports them (the stub must export the same). */
const ZOD_V3_EXPORTS = Object.keys(require('zod/v3'));

/** @type {import('./unusedModules.cjs').UnusedModule[]} */
const UNUSED_PACKAGE_MODULES = [
  replaced('image-size', 'dist/esm/types/index.js', ['typeHandlers', 'types'], `
import { GIF } from './gif.js';
import { JPG } from './jpg.js';
import { PNG } from './png.js';
import { WEBP } from './webp.js';
export const typeHandlers = new Map([['gif', GIF], ['jpg', JPG], ['png', PNG], ['webp', WEBP]]);
export const types = Array.from(typeHandlers.keys());
`),
  replaced('zod', 'v3/index.js', ZOD_V3_EXPORTS, [
    'const fail = (name) => () => { throw new Error(`zod 3 (${name}) is not in Strata\'s bundle`); };',
    'const z3 = new Proxy({}, { get: (_, name) => fail(`z.${String(name)}`) });',
    'export { z3 as z, z3 as default };',
    // Through a local name: some of zod 3's exports are reserved words (`enum`, `function`, `null`).
    ...ZOD_V3_EXPORTS.filter((n) => n !== 'z' && n !== 'default').map((n, i) => `const e${i} = fail(${JSON.stringify(n)}); export { e${i} as ${n} };`),
  ].join('\n')),
];

module.exports = { UNUSED_PACKAGE_MODULES };
