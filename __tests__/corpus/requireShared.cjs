// globalSetup of `npm run test:corpus`: stop before any suite runs when ../shared is not there.
const { existsSync } = require('node:fs');
const path = require('node:path');

module.exports = async function requireShared(config) {
  const shared = path.resolve(config.rootDir, '..', 'shared');
  const missing = ['corpus', 'scenarios'].map((d) => path.join(shared, d)).filter((d) => !existsSync(d));
  if (missing.length > 0) {
    throw new Error(
      `npm run test:corpus needs the shared corpus and scenarios beside this checkout (${shared}); not found: ${missing.join(', ')}. ` +
        '`npm test` runs everything else without them.',
    );
  }
};
