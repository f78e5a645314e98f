import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { Tiktoken } from 'js-tiktoken/lite';
import { linearEncoderFor, tokenCounterFor } from '../../../src/core/tokens/tokenCounter';

/*
 * Issue 26, finding 1: js-tiktoken merges a piece its pre-tokenizer keeps whole in quadratic time or
 * worse (5,000 spaces 16 s, 10,000 spaces over 60 s, 漢 ×100k 20 s). The counter's own merge
 * (linearBpe.ts) is checked here token for token against js-tiktoken where js-tiktoken is fast
 * enough to run, and its work (rank lookups) is bounded by the bytes encoded on long runs of every
 * Unicode category. Wall-clock figures are in the bench (npm run bench -- --only tokens), not here.
 */

/* eslint-disable @typescript-eslint/no-require-imports -- the tokenizers themselves, as the reference */
const reference = {
  o200k_base: new Tiktoken(unwrap(require('js-tiktoken/ranks/o200k_base') as RanksModule)),
  cl100k_base: new Tiktoken(unwrap(require('js-tiktoken/ranks/cl100k_base') as RanksModule)),
} as const;
/* eslint-enable @typescript-eslint/no-require-imports -- end */
type RanksModule = TiktokenBPE & { default?: TiktokenBPE };
function unwrap(module: RanksModule): TiktokenBPE {
  return module.default ?? module;
}
const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
const MODEL = { o200k_base: 'gpt-4o', cl100k_base: 'gpt-4' } as const;

/** Units of every kind a note may repeat: each category of Unicode a pre-tokenizer treats apart. */
const UNITS: Readonly<Record<string, readonly string[]>> = {
  spaces: [' ', '\t', '\u00a0', '\u2000', '\u2003', '\u2009', '\u200a', '\u202f', '\u205f', '\u3000', '\u1680'],
  newlines: ['\n', '\r\n', '\r', '\u2028', '\u2029', '\v', '\f'],
  cjk: ['漢', '字', 'ひ', 'カ', '한', '中文'],
  emoji: ['😀', '👩\u200d👩\u200d👧\u200d👦', '👍🏽', '🇫🇷', '❤️', '\u200d', '🏳️\u200d🌈'],
  marks: ['\u0301', 'e\u0301', '\u0300\u0301', '\u0903', '\u20dd'],
  letters: ['a', 'Z', 'é', 'ß', 'Ж', 'ж', 'ǅ', 'ʰ', 'ا', 'x'],
  digits: ['1', '0', '٣', '²', 'Ⅻ'],
  punctuation: ['-', '=', '.', '|', '/', '…', '«', '*', '#', "'", '"', '<|endoftext|>'],
};
const ALL_UNITS = Object.values(UNITS).flat();

/** A run: one unit of one category repeated, or a mixture of units (one category or all). */
function runOf(maxLength: number): fc.Arbitrary<string> {
  const category = fc.constantFrom(...Object.keys(UNITS));
  const same = fc
    .tuple(category, fc.nat(), fc.integer({ min: 1, max: maxLength }))
    .map(([cat, pick, n]) => UNITS[cat][pick % UNITS[cat].length].repeat(n));
  const mixedCategory = category.chain((cat) =>
    fc.array(fc.constantFrom(...UNITS[cat]), { minLength: 1, maxLength }).map((units) => units.join('')),
  );
  const mixed = fc.array(fc.constantFrom(...ALL_UNITS), { minLength: 1, maxLength }).map((units) => units.join(''));
  return fc.oneof(same, mixedCategory, mixed);
}

function textOf(maxRun: number, maxRuns: number): fc.Arbitrary<string> {
  return fc.array(fc.oneof(runOf(maxRun), fc.constantFrom(' word ', 'The plan. ', '\n', '| a | b |\n')), { minLength: 1, maxLength: maxRuns }).map((parts) => parts.join(''));
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('token counting is exact', () => {
  it.each(ENCODINGS)('on ordinary text: prose, code, markdown tables, special-token strings (%s)', (encoding) => {
    const texts = [
      'The plan for the week, with seeds and soil. '.repeat(200),
      "function add(a: number, b: number): number {\n\treturn a + b; // it's fine\n}\n".repeat(40),
      '| Name | Qty | Price |\n|------|----:|------:|\n| Apple | 3 | 1.20 |\n| Pear  | 12 | 0.80 |\n'.repeat(30),
      'Ünïcödé façade — naïve café; 漢字かな交じり文; Привет, мир! 😀👍🏽 <|endoftext|> done.\r\n'.repeat(20),
      '    indented code\n\n\n\t\ttabs   and  spaces  \n'.repeat(50),
    ];
    const linear = linearEncoderFor(encoding);
    expect(linear).not.toBeNull(); // js-tiktoken still has the internals the linear merge reads
    for (const text of texts) {
      expect(tokenCounterFor(MODEL[encoding]).encode(text)).toEqual(reference[encoding].encode(text, [], []));
    }
  });

  it.each(ENCODINGS)('on every note of the examples vault (%s)', (encoding) => {
    const root = path.join(__dirname, '..', '..', '..', 'examples', 'vault');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.md')) files.push(full);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(10);
    const counter = tokenCounterFor(MODEL[encoding]);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(counter.encode(text)).toEqual(reference[encoding].encode(text, [], []));
    }
  });

  it.each(ENCODINGS)('on runs of every category and their mixtures, short enough for js-tiktoken (%s)', (encoding) => {
    const counter = tokenCounterFor(MODEL[encoding]);
    fc.assert(
      fc.property(textOf(90, 6), (text) => {
        expect(counter.encode(text)).toEqual(reference[encoding].encode(text, [], []));
      }),
      { numRuns: 120, seed: 26 },
    );
  });
});

describe('token counting is linear on long runs (issue 26)', () => {
  /** Counts text and returns the rank lookups it took per UTF-8 byte. */
  function lookupsPerByte(encoding: (typeof ENCODINGS)[number], text: string): number {
    const linear = linearEncoderFor(encoding);
    if (!linear) throw new Error('no linear encoder');
    const before = linear.lookups;
    const ids = tokenCounterFor(MODEL[encoding]).encode(text);
    expect(reference[encoding].decode(ids)).toBe(text); // nothing lost, no character cut in two
    return (linear.lookups - before) / Math.max(1, utf8Bytes(text));
  }

  // A short piece is merged by a plain scan (at most 48 bytes: ≤ 24 lookups a byte); a long one by
  // the heap (≤ 3 lookups a byte). Quadratic merging would take thousands per byte on these runs.
  const BOUND = 26;

  it.each(ENCODINGS)("the issue's inputs: spaces, tabs, NBSP, CJK, emoji, accented letters, letters (%s)", (encoding) => {
    const inputs = [
      ' '.repeat(10_000),
      '\t'.repeat(5_000),
      '\u00a0'.repeat(5_000),
      '漢'.repeat(100_000),
      '😀'.repeat(50_000),
      'é'.repeat(100_000),
      'a'.repeat(200_000),
    ];
    for (const text of inputs) expect(lookupsPerByte(encoding, text)).toBeLessThanOrEqual(BOUND);
  });

  it.each(ENCODINGS)('property: long runs of every Unicode category and mixes of them (%s)', (encoding) => {
    fc.assert(
      fc.property(textOf(12_000, 4), (text) => {
        expect(lookupsPerByte(encoding, text)).toBeLessThanOrEqual(BOUND);
      }),
      { numRuns: 30, seed: 2026 },
    );
  });
});
