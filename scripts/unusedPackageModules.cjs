/**
 * Parts of other packages Strata's bundle carries in name only (unusedModules.cjs).
 * - image-size: Strata measures the images it can send (PNG, JPEG, GIF, WebP: core/context/images.ts)
 *   and sends no other type, so its table of 20 types keeps those four, in the same order. Detection
 *   is unchanged for them: every other type's check looks at bytes that one of the four's signatures
 *   fixes otherwise, and a type that is not kept was never sent (measureImage answered null).
 */
const { replaced } = require('./unusedModules.cjs');

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
];

module.exports = { UNUSED_PACKAGE_MODULES };
