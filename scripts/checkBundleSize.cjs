/**
 * CI's check after the build (.ci/run): main.js must stay under the size it is allowed. Obsidian
 * Sync's Standard plan skips plugin files over 5 MB; issue 30 aims at 2.5 MB, and this line only
 * moves down once issue 30's bundle work goes on (main.js is 3.32 MB with note edits, several chats
 * at once and library condensing merged, the packed rank tables 1.3 MB of it; the limit leaves 80 KB).
 */
const { statSync } = require('node:fs');
const path = require('node:path');

const LIMIT_BYTES = 3_400_000;
const TARGET_BYTES = 2_500_000;

const file = path.join(__dirname, '..', 'main.js');
const bytes = statSync(file).size;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
if (bytes > LIMIT_BYTES) {
  console.error(`main.js is ${mb(bytes)}, over its ${mb(LIMIT_BYTES)} limit (scripts/checkBundleSize.cjs; target ${mb(TARGET_BYTES)})`);
  process.exit(1);
}
console.log(`main.js: ${mb(bytes)} (limit ${mb(LIMIT_BYTES)}, target ${mb(TARGET_BYTES)}, Obsidian Sync Standard skips files over 5 MB)`);
