/**
 * Packs js-tiktoken's rank tables for the plugin bundle (esbuild.config.mjs and the workbench's build
 * swap src/core/tokens/packedRanks.ts for the module this writes; src/core/tokens/rankCodec.ts reads it).
 *
 * Every token past the 256 single bytes is two earlier tokens joined, so a table is stored as one pair
 * per token instead of its bytes, range coded (rangeEncoder.cjs): the left part's rank, then the
 * right part as its first byte (in the context of the left part's last byte) and its place among the
 * earlier tokens that start with that byte. Of the splits a token has, the one with the smallest
 * ranks is stored.
 * Then 13 bits per two printable ASCII characters (a string esbuild prints as it is, 1.23 chars per
 * byte against base64's 1.33). o200k_base goes from 2.3 MB of text to about 0.77 MB; cl100k_base,
 * stored over o200k_base (a flag per token; the tokens they share as o200k ranks), from 1.7 MB to
 * about 0.29 MB. DEFLATE over byte planes of the pairs took 1.18 MB for both.
 * Plain CommonJS: esbuild.config.mjs and the tests require it as it is.
 */
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { RangeEncoder, ByteModel, NumberModel, probabilities, bitLength } = require('./rangeEncoder.cjs');

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

/** 13 bits → two characters of ALPHABET (91² ≥ 2¹³). */
function toText(bytes) {
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
  return chars.join('');
}

/** Tokens every table starts with: the 256 single bytes, in ranks 0-255 (stored as 8 plain bits each). */
const SINGLES = 256;

/** A byte's kind, for the contexts: other, space, upper, lower, digit, UTF-8 lead, UTF-8 continuation, control. */
function byteKind(c) {
  if (c === 32) return 1;
  if (c >= 65 && c <= 90) return 2;
  if (c >= 97 && c <= 122) return 3;
  if (c >= 48 && c <= 57) return 4;
  if (c >= 192) return 5;
  if (c >= 128) return 6;
  if (c < 32) return 7;
  return 0;
}

/** The context of a part's place among the tokens starting with its byte: the byte's kind and how many there are. */
const PLACE_CONTEXTS = 8 * 20;
const placeContext = (firstByte, groupSize) => byteKind(firstByte) * 20 + Math.min(19, bitLength(groupSize));

/** The left part's rank is coded as it is, in the context of the token's own rank's bit length. */
const LEFT_CONTEXTS = 20;
const leftContext = (r) => Math.min(19, bitLength(r));

/** Contexts of a shared token's rank in the base: the bit length of its own rank. */
const SHARED_CONTEXTS = 32;

/**
 * The split a token is stored as: of the ways it is two earlier tokens joined, the one with the
 * smallest ranks (the sum of their logarithms: the cheapest to code). Throws if there is none.
 */
function splitOf(token, r, rankOf) {
  let best = null;
  let cost = Infinity;
  for (let k = token.length - 1; k >= 1; k--) {
    const a = rankOf(token.subarray(0, k));
    const b = rankOf(token.subarray(k));
    if (a === undefined || b === undefined || a >= r || b >= r) continue;
    const c = Math.log2(a + 1) + Math.log2(b + 1);
    if (c < cost) {
      cost = c;
      best = [a, b];
    }
  }
  if (!best) throw new Error(`packRanks: token ${r} is not two earlier tokens joined`);
  return best;
}

/**
 * A table as { pat_str, special_tokens, count, bytes, text }: count tokens, bytes of range-coded data
 * in text. With a base table (cl100k_base over o200k_base: 85 % of its tokens are there too), each
 * token past the single bytes has a flag (in the base or not) and either the base's rank or its
 * pair; `base` names the table, `shared` counts the tokens in it. rankCodec.ts decodes it.
 */
function packTable(ranks, base) {
  const tokens = tokensOf(ranks.bpe_ranks);
  const n = tokens.length;
  const rankMap = new Map(tokens.map((t, i) => [t.toString('latin1'), i]));
  const rankOf = (bytes) => rankMap.get(bytes.toString('latin1'));
  const baseRank = base ? new Map(tokensOf(base.ranks.bpe_ranks).map((t, i) => [t.toString('latin1'), i])) : null;
  const rc = new RangeEncoder();
  const leftRank = new NumberModel(LEFT_CONTEXTS);
  const firstRight = new ByteModel(256);
  const placeRight = new NumberModel(PLACE_CONTEXTS);
  const flags = probabilities(4);
  const sharedRank = new NumberModel(SHARED_CONTEXTS);
  // Each rank's place among the earlier tokens starting with its byte.
  const place = new Int32Array(n);
  const groupSize = new Int32Array(256);
  const codeRight = (left, right) => {
    const byte = tokens[right][0];
    firstRight.encode(rc, tokens[left][tokens[left].length - 1], byte);
    placeRight.encode(rc, placeContext(byte, groupSize[byte]), place[right]);
  };
  let shared = 0;
  let previousFlag = 0;
  for (let r = 0; r < n; r++) {
    const token = tokens[r];
    if ((r < SINGLES) !== (token.length === 1)) throw new Error(`packRanks: token ${r} breaks the single bytes first rule`);
    if (r < SINGLES) {
      rc.direct(token[0], 8);
    } else {
      const at = baseRank?.get(token.toString('latin1'));
      if (baseRank) {
        const flag = at === undefined ? 0 : 1;
        rc.bit(flags, previousFlag * 2 + 1, flag);
        previousFlag = flag;
      }
      if (at !== undefined) {
        sharedRank.encode(rc, bitLength(r), at);
        shared++;
      } else {
        const [a, b] = splitOf(token, r, rankOf);
        leftRank.encode(rc, leftContext(r), a);
        codeRight(a, b);
      }
    }
    place[r] = groupSize[token[0]]++;
  }
  const coded = rc.finish();
  const delta = base ? { base: base.name, shared } : {};
  return { pat_str: ranks.pat_str, special_tokens: ranks.special_tokens, count: n, ...delta, bytes: coded.length, text: toText(coded) };
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
 * packTables(), kept in the system's temporary folder under a digest of this file, rangeEncoder.cjs and
 * js-tiktoken's tables (packing takes a few seconds; a build or test after the first reads it back).
 */
function cachedPackedTables() {
  const hash = createHash('sha256').update(readFileSync(__filename)).update(readFileSync(require.resolve('./rangeEncoder.cjs')));
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
