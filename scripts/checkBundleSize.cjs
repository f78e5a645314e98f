/**
 * CI's check after the build (.ci/run): main.js must stay under the size it is allowed. Obsidian
 * Sync's Standard plan skips plugin files over 5 MB; issue 30's target is 2.5 MB, reached in its
 * third round (the SDKs', LangChain's and zod 3's unused modules stubbed: scripts/unusedModules.cjs;
 * the rank tables range coded): 2.46 MB (2,459,198 bytes). The limit is the target itself: a
 * feature that needs more makes room for itself first, or says in its commit why it cannot.
 */
const { statSync } = require('node:fs');
const path = require('node:path');

const LIMIT_BYTES = 2_500_000;
const TARGET_BYTES = 2_500_000;

const file = path.join(__dirname, '..', 'main.js');
const bytes = statSync(file).size;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
if (bytes > LIMIT_BYTES) {
  console.error(`main.js is ${mb(bytes)}, over its ${mb(LIMIT_BYTES)} limit (scripts/checkBundleSize.cjs; target ${mb(TARGET_BYTES)})`);
  process.exit(1);
}
console.log(`main.js: ${mb(bytes)} (limit ${mb(LIMIT_BYTES)}, target ${mb(TARGET_BYTES)}, Obsidian Sync Standard skips files over 5 MB)`);
