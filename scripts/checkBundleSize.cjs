/**
 * CI's check after the build (.ci/run): main.js must stay under the size it is allowed. Obsidian
 * Sync's Standard plan skips plugin files over 5 MB; issue 30 aims at 2.5 MB. After its second round
 * (langsmith shimmed, cl100k_base stored over o200k_base, the XML parser, the model profiles and the
 * SDK helpers LangChain never calls left out) main.js is 2.90 MB, the packed rank tables 1.18 MB of
 * it; Gemini's SDK (+59 KB) and the Codex CLI provider then took it to 3.00 MB. The rank tables
 * range coded instead of DEFLATEd: 1.07 MB, main.js 2.86 MB (2,862,100 bytes). The 2.5 MB target is
 * not reached, so the limit sits just above what was reached (3.00 MB and 50 KB of room): a feature
 * that needs more says so in its commit.
 */
const { statSync } = require('node:fs');
const path = require('node:path');

const LIMIT_BYTES = 3_050_000;
const TARGET_BYTES = 2_500_000;

const file = path.join(__dirname, '..', 'main.js');
const bytes = statSync(file).size;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
if (bytes > LIMIT_BYTES) {
  console.error(`main.js is ${mb(bytes)}, over its ${mb(LIMIT_BYTES)} limit (scripts/checkBundleSize.cjs; target ${mb(TARGET_BYTES)})`);
  process.exit(1);
}
console.log(`main.js: ${mb(bytes)} (limit ${mb(LIMIT_BYTES)}, target ${mb(TARGET_BYTES)}, Obsidian Sync Standard skips files over 5 MB)`);
