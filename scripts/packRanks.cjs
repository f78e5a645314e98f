/**
 * Packs js-tiktoken's rank tables for the plugin bundle (esbuild.config.mjs and the workbench's build
 * swap src/core/tokens/packedRanks.ts for the module this writes; src/core/tokens/rankCodec.ts reads it).
 *
 * Every token past the single bytes is two earlier tokens joined (the merge that made it), so a table
 * is stored as one pair of ranks per token instead of its bytes: byte planes of the pairs, DEFLATE,
 * then 13 bits per two printable ASCII characters (a string esbuild prints as it is, 1.23 chars per
 * byte against base64's 1.33). o200k_base goes from 2.3 MB of text to about 0.9 MB; cl100k_base,
 * stored over o200k_base (the tokens they share as o200k ranks), from 1.7 MB to about 0.3 MB.
 * Plain CommonJS: esbuild.config.mjs and the tests require it as it is.
 */
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { deflateRawSync } = require('node:zlib');

/** The 91 printable ASCII characters that need no escape in any JS string literal (no quotes, no backslash). */
const ALPHABET = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .filter((c) => !`"'\`\\`.includes(c))
  .join('');

/** Tokens of a bpe_ranks text in rank order; throws unless the ranks run 0, 1, 2, ... without gaps. */
function tokensOf(bpeRanks) {
  const lines = bpeRanks.split('\n').filter(Boolean);
  const tokens = [];
  for (const line of lines) {
    const [, offsetText, ...rest] = line.split(' ');
    if (Number(offsetText) !== tokens.length) throw new Error('packRanks: ranks with gaps are not supported');
    for (const b64 of rest) tokens.push(Buffer.from(b64, 'base64'));
  }
  return tokens;
}

/** One pair per token: [0, byte] for a single byte, else [left + 1, right], both of lower rank. */
function mergesOf(tokens) {
  const rank = new Map(tokens.map((t, i) => [t.toString('latin1'), i]));
  const left = new Uint32Array(tokens.length);
  const right = new Uint32Array(tokens.length);
  tokens.forEach((token, r) => {
    if (token.length === 1) {
      right[r] = token[0];
      return;
    }
    // The longest left part whose rest is a token too (any split gives the same bytes back).
    for (let k = token.length - 1; k >= 1; k--) {
      const a = rank.get(token.subarray(0, k).toString('latin1'));
      const b = rank.get(token.subarray(k).toString('latin1'));
      if (a !== undefined && b !== undefined && a < r && b < r) {
        left[r] = a + 1;
        right[r] = b;
        return;
      }
    }
    throw new Error(`packRanks: token ${r} is not two earlier tokens joined`);
  });
  return { left, right };
}

/** 13 bits → two characters of ALPHABET (91² ≥ 2¹³). */
function toText(bytes) {
  let out = '';
  let acc = 0;
  let bits = 0;
  const chars = [];
  const emit = (v) => chars.push(ALPHABET[v % 91], ALPHABET[Math.floor(v / 91)]);
  for (const byte of bytes) {
    acc |= byte << bits;
    bits += 8;
    if (bits >= 13) {
      emit(acc & 0x1fff);
      acc >>>= 13;
      bits -= 13;
    }
  }
  if (bits > 0) emit(acc);
  out = chars.join('');
  return out;
}

/** Byte planes of 24-bit values: the high bytes of all values together compress far better than interleaved. */
function planes24(values) {
  const n = values.length;
  const out = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    out[i] = values[i] >>> 16;
    out[n + i] = (values[i] >>> 8) & 255;
    out[2 * n + i] = values[i] & 255;
  }
  return out;
}

/**
 * A table as { pat_str, special_tokens, count, bytes, text }: count tokens, bytes of DEFLATE in text.
 * With a base table (cl100k_base over o200k_base: 85 % of its tokens are there too), the data is a
 * flag per token (1: in the base), the base's rank of each shared token, then the pairs of the
 * others; `base` names the table, `shared` counts the flags. Without, the pairs of all tokens.
 */
function packTable(ranks, base) {
  const tokens = tokensOf(ranks.bpe_ranks);
  const { left, right } = mergesOf(tokens);
  const n = tokens.length;
  let data;
  let delta = {};
  if (base) {
    const baseRank = new Map(tokensOf(base.ranks.bpe_ranks).map((t, i) => [t.toString('latin1'), i]));
    const flags = Buffer.alloc(n);
    const shared = [];
    const ownLeft = [];
    const ownRight = [];
    tokens.forEach((token, r) => {
      const at = baseRank.get(token.toString('latin1'));
      if (at !== undefined) {
        flags[r] = 1;
        shared.push(at);
      } else {
        ownLeft.push(left[r]);
        ownRight.push(right[r]);
      }
    });
    data = Buffer.concat([flags, planes24(shared), planes24(ownLeft), planes24(ownRight)]);
    delta = { base: base.name, shared: shared.length };
  } else {
    data = Buffer.concat([planes24(left), planes24(right)]);
  }
  const deflated = deflateRawSync(data, { level: 9, memLevel: 9 });
  return { pat_str: ranks.pat_str, special_tokens: ranks.special_tokens, count: n, ...delta, bytes: deflated.length, text: toText(deflated) };
}

const ENCODINGS = ['o200k_base', 'cl100k_base'];
/** Tables stored over another: cl100k_base as what it shares with o200k_base plus its own tokens' pairs. */
const BASES = { cl100k_base: 'o200k_base' };

/** Every bundled encoding's table, packed. */
function packTables() {
  const tables = {};
  for (const encoding of ENCODINGS) {
    const baseName = BASES[encoding];
    const base = baseName ? { name: baseName, ranks: require(`js-tiktoken/ranks/${baseName}`) } : undefined;
    tables[encoding] = packTable(require(`js-tiktoken/ranks/${encoding}`), base);
  }
  return tables;
}

/**
 * packTables(), kept in the system's temporary folder under a digest of this file and js-tiktoken's
 * tables (packing takes a few seconds; a build or test after the first reads it back).
 */
function cachedPackedTables() {
  const hash = createHash('sha256').update(readFileSync(__filename));
  for (const encoding of ENCODINGS) hash.update(readFileSync(require.resolve(`js-tiktoken/ranks/${encoding}`)));
  const file = path.join(os.tmpdir(), `strata-packed-ranks-${hash.digest('hex').slice(0, 16)}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const tables = packTables();
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(tables));
  renameSync(partial, file);
  return tables;
}

/** The module that stands in for src/core/tokens/packedRanks.ts in a bundle (ESM source). */
function packedRanksModule() {
  return [
    "// Generated at build time by scripts/packRanks.cjs from js-tiktoken's rank tables.",
    `const TABLES = ${JSON.stringify(cachedPackedTables())};`,
    'export function rankSource(encoding) { return { packed: TABLES[encoding] }; }',
    '',
  ].join('\n');
}

/** The esbuild plugin that swaps src/core/tokens/packedRanks.ts for the packed tables. */
function packedRanksPlugin() {
  let source = null;
  return {
    name: 'strata-packed-ranks',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]core[\\/]tokens[\\/]packedRanks\.ts$/ }, () => {
        source ??= packedRanksModule();
        return { contents: source, loader: 'js' };
      });
    },
  };
}

module.exports = { ALPHABET, ENCODINGS, BASES, packTable, cachedPackedTables, packedRanksModule, packedRanksPlugin };
