/**
 * Jest transform for pdfjs-dist's legacy build (issue 31): it ships ES modules only (.mjs), and jest
 * runs CommonJS. esbuild turns them into CommonJS once (jest caches the result); `import.meta.url`
 * becomes undefined, which pdf.js uses only to look for an optional canvas package (in a try).
 */
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, { loader: 'js', format: 'cjs', target: 'node20', sourcemap: 'external', sourcefile: filename, logLevel: 'silent' });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('node:crypto').createHash('sha256').update('esm-v1\0').update(filename).update('\0').update(source).digest('hex');
  },
};
