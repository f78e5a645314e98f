import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { Tiktoken } from 'js-tiktoken/lite';
import fc from 'fast-check';
import { unpackRanks, type PackedRanks } from '../../../src/core/tokens/rankCodec';

/*
 * Issue 30: the bundle carries the rank tables packed (o200k_base as pairs, cl100k_base stored over
 * o200k_base) and decodes them on the first count. Here tokenCounter.ts is bundled with the same
 * build plugins as main.js (scripts/bundlePlugins.cjs) and its counts and tokens are compared with
 * js-tiktoken's over its own tables from node_modules, on a varied text set: prose in several
 * scripts, code, markdown, emoji, special-token strings, runs, and every note of the examples vault.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../../../scripts/bundlePlugins.cjs') as { bundlePlugins: () => Plugin[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const packer = require('../../../scripts/packRanks.cjs') as { cachedPackedTables: () => Record<string, PackedRanks> };

type RanksModule = TiktokenBPE & { default?: TiktokenBPE };
/* eslint-disable @typescript-eslint/no-require-imports -- js-tiktoken's own tables, the reference */
const reference = {
  'gpt-4o': new Tiktoken(unwrap(require('js-tiktoken/ranks/o200k_base') as RanksModule)),
  'gpt-4': new Tiktoken(unwrap(require('js-tiktoken/ranks/cl100k_base') as RanksModule)),
} as const;
/* eslint-enable @typescript-eslint/no-require-imports -- end */
function unwrap(module: RanksModule): TiktokenBPE {
  return module.default ?? module;
}

interface BundledCounter {
  tokenCounterFor(model: string): { encoding: string; count(text: string): number; encode(text: string): number[] };
  warmTokenizer(encoding: string, pause: () => Promise<void>): Promise<void>;
}

const ROOT = path.join(__dirname, '..', '..', '..');

function notesOf(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return notesOf(full);
      return name.endsWith('.md') ? [readFileSync(full, 'utf8')] : [];
    });
}

const TEXTS = [
  'Obsidian vaults hold Markdown notes; Strata sends them to the model.',
  'Der schnelle braune Fuchs springt über den faulen Hund. Ça coûte 12,50 € — déjà vu?',
  'Быстрая коричневая лиса перепрыгивает через ленивую собаку.',
  '漢字とひらがなとカタカナ、한국어 문장, 中文句子。',
  'مرحبا بالعالم. שלום עולם. नमस्ते दुनिया.',
  '👩‍👩‍👧‍👦 🇫🇷 👍🏽 ❤️ 🏳️‍🌈 emoji in a sentence 🙂.',
  'function add(a: number, b: number): number {\n\treturn a + b; // sum\n}\n',
  '| col | col |\n| --- | --- |\n| 1 | 2 |\n\n- [ ] a task\n> [!note] a callout\n',
  '<|endoftext|> <|fim_prefix|> <|im_start|>system<|im_end|>',
  ' '.repeat(300) + '\t'.repeat(40) + '\n'.repeat(30) + '-'.repeat(200),
  'a'.repeat(250) + ' ' + '漢'.repeat(100) + ' ' + '0123456789'.repeat(20),
  'https://example.com/path?query=1&other=two#fragment user@example.com',
];

describe('the rank tables as the bundle carries and decodes them', () => {
  let dir: string;
  let bundled: BundledCounter;
  let bundleBytes = 0;
  let outfile = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bundled-tables-'));
    outfile = path.join(dir, 'counter.js');
    await build({
      absWorkingDir: ROOT,
      entryPoints: [path.join('src', 'core', 'tokens', 'tokenCounter.ts')],
      bundle: true,
      format: 'cjs',
      target: 'es2022',
      minify: true,
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      logLevel: 'silent',
      outfile,
      plugins: bundlePlugins(),
    });
    bundleBytes = statSync(outfile).size;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle just built
    bundled = require(outfile) as BundledCounter;
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('carries the packed tables, not js-tiktoken\'s text (3.9 MB of it)', () => {
    expect(bundleBytes).toBeGreaterThan(900_000);
    expect(bundleBytes).toBeLessThan(1_400_000);
  });

  it.each(['gpt-4o', 'gpt-4'] as const)('counts and encodes as js-tiktoken does over its own table (%s)', (model) => {
    const counter = bundled.tokenCounterFor(model);
    const texts = [...TEXTS, ...notesOf(path.join(ROOT, 'examples', 'vault'))];
    const differing = texts.filter((text) => {
      const tokens = reference[model].encode(text, [], []);
      const encoded = counter.encode(text);
      return counter.count(text) !== tokens.length || encoded.length !== tokens.length || encoded.some((t, i) => t !== tokens[i]);
    });
    expect(texts.length).toBeGreaterThan(TEXTS.length);
    expect(differing).toEqual([]);
  });

  it('unpacks ahead of the first count in slices, a pause between each, to the same tokens', async () => {
    let fresh: BundledCounter | null = null;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the bundle: nothing unpacked yet
      fresh = require(outfile) as BundledCounter;
    });
    const counter = fresh as unknown as BundledCounter;
    let pauses = 0;
    // cl100k_base is stored over o200k_base: both are unpacked, each in slices.
    await counter.warmTokenizer('cl100k_base', () => {
      pauses++;
      return Promise.resolve();
    });
    expect(pauses).toBeGreaterThanOrEqual(10);
    const gpt4 = counter.tokenCounterFor('gpt-4');
    expect(TEXTS.filter((text) => gpt4.encode(text).join() !== reference['gpt-4'].encode(text, [], []).join())).toEqual([]);
    // o200k_base was unpacked as cl100k_base's base (no hash index): its own first count indexes it.
    const gpt4o = counter.tokenCounterFor('gpt-4o');
    expect(TEXTS.filter((text) => gpt4o.encode(text).join() !== reference['gpt-4o'].encode(text, [], []).join())).toEqual([]);
  });

  it('unpacks each table whole (cl100k_base over o200k_base), and a damaged text does not read back as the table', () => {
    const tables = packer.cachedPackedTables();
    const o200k = unpackRanks(tables.o200k_base);
    const cl100k = unpackRanks(tables.cl100k_base, o200k);
    expect(o200k.keys.length).toBe(tables.o200k_base.count);
    expect(cl100k.keys.length).toBe(tables.cl100k_base.count);
    // A character changed a third of the way in: the range decoder reads something else from there on.
    const text = tables.o200k_base.text;
    const at = Math.floor(text.length / 3);
    const damaged = { ...tables.o200k_base, text: text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1) };
    let differs: boolean;
    try {
      differs = unpackRanks(damaged).keys.some((key, r) => key !== o200k.keys[r]);
    } catch {
      differs = true; // refused: a pair referring forward, or the wrong size
    }
    expect(differs).toBe(true);
  });

  /** Random texts: words, code and markup, any Unicode, and runs of random tokens of the table itself (its rare tokens too). */
  const textOf = (model: keyof typeof reference) => {
    const table = reference[model] as unknown as { textMap: Map<number, Uint8Array> };
    const size = table.textMap.size;
    const decoder = new TextDecoder();
    const tokens = fc
      .array(fc.integer({ min: 0, max: size - 1 }), { minLength: 1, maxLength: 40 })
      .map((ranks) => decoder.decode(Buffer.concat(ranks.map((r) => table.textMap.get(r) ?? new Uint8Array()))));
    const words = fc.array(fc.constantFrom(' the', 'The', ' model', 'Strata', '\n\n', '  ', '\t', '漢字', ' über', '🙂', '1234', '```ts\n', '| a |', '->', "'s"), { maxLength: 30 }).map((w) => w.join(''));
    return fc.array(fc.oneof(tokens, words, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 60 })), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
  };

  it.each(['gpt-4o', 'gpt-4'] as const)('counts random texts as js-tiktoken does over its own table (%s, property)', (model) => {
    const counter = bundled.tokenCounterFor(model);
    fc.assert(
      fc.property(textOf(model), (text) => {
        const tokens = reference[model].encode(text, [], []);
        expect(counter.count(text)).toBe(tokens.length);
        expect(counter.encode(text)).toEqual(tokens);
      }),
      { numRuns: 300, seed: 30 },
    );
  });
});
