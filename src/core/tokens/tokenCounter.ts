import type { Tiktoken } from 'js-tiktoken/lite';
import { sha256Hex } from '../hash';
import { DEFAULT_TIMERS } from '../timers';
import { encodingForModel, type EncodingName } from './encodings';
import { chunkStarts } from './lineChunks';
import { internalsOf, LinearEncoder } from './linearBpe';
import { rankSource } from './packedRanks';
import { unpackRanksInSlices, type PackedRanks, type UnpackedRanks } from './rankCodec';

/** Counts tokens for one model's tokenizer. */
export interface TokenCounter {
  readonly encoding: EncodingName;
  count(text: string): number;
  /** Token ids; for 'estimate' a deterministic pseudo-tokenisation (one id per ~4 chars). */
  encode(text: string): number[];
}

const tokenizers = new Map<EncodingName, Tiktoken>();
/** The bundle's unpacked tables by encoding: cl100k_base is stored over o200k_base's (rankCodec.ts). */
const unpacked = new Map<string, UnpackedRanks>();

type PackedEncoding = Exclude<EncodingName, 'estimate'>;

function packedSource(encoding: PackedEncoding): { packed: PackedRanks; baseName: PackedEncoding | undefined } {
  const source = rankSource(encoding);
  if (!('packed' in source)) throw new Error(`${encoding}: no packed table`);
  const baseName = source.packed.base;
  return { packed: source.packed, baseName: baseName === 'o200k_base' || baseName === 'cl100k_base' ? baseName : undefined };
}

/**
 * A bundled table unpacked (its base first), in slices (the generator stops between them), or
 * `whole`, each table in one call (rankCodec.ts). A base's table is the one its own count reads
 * too: its hash index is built on its first lookup, so a table unpacked only as a base costs no index.
 */
function* unpackedTableInSlices(encoding: PackedEncoding, whole = false): Generator<void, UnpackedRanks, void> {
  const cached = unpacked.get(encoding);
  if (cached) return cached;
  const { packed, baseName } = packedSource(encoding);
  const base = baseName ? yield* unpackedTableInSlices(baseName, whole) : undefined;
  const fresh = yield* unpackRanksInSlices(packed, base, { sliceTokens: whole ? packed.count : undefined });
  // A count may have unpacked it meanwhile (between the slices of a warm-up): that one is kept.
  const table = unpacked.get(encoding) ?? fresh;
  unpacked.set(encoding, table);
  return table;
}

function unpackedTable(encoding: PackedEncoding): UnpackedRanks {
  const steps = unpackedTableInSlices(encoding, true);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

// The rank tables are ~1-2 MB each: required and decoded on first use only, never at plugin load.
function loadTokenizer(encoding: Exclude<EncodingName, 'estimate'>): Tiktoken {
  const cached = tokenizers.get(encoding);
  if (cached) return cached;
  /* eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- synchronous lazy load: the bundle is CommonJS, and counting must stay synchronous */
  const lite = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const source = rankSource(encoding);
  let tokenizer: Tiktoken;
  if ('bpe' in source) tokenizer = new lite.Tiktoken(source.bpe);
  else {
    // The bundle's packed table: js-tiktoken gets an empty table and the maps built from the pairs
    // (the same two fields linearBpe.ts reads), so its own text parsing is skipped.
    const { pat_str, special_tokens } = source.packed;
    tokenizer = new lite.Tiktoken({ pat_str, special_tokens, bpe_ranks: '' });
    const { rankMap, textMap, byteRanks, maxTokenBytes } = unpackedTable(encoding);
    Object.assign(tokenizer, { rankMap, textMap, byteRanks, maxTokenBytes });
  }
  tokenizers.set(encoding, tokenizer);
  return tokenizer;
}

/** Rough count for unknown model families: ~4 chars per token for Latin text, ~1.5 for others. */
export function estimateTokens(text: string): number {
  let ascii = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 128) ascii++;
  const other = text.length - ascii;
  return Math.ceil(ascii / 4 + other / 1.5);
}

function estimateEncode(text: string): number[] {
  // Deterministic ids from 4-char chunks: good enough for prefix comparisons in the benchmarks.
  const ids: number[] = [];
  for (let i = 0; i < text.length; i += 4) {
    let h = 0;
    for (let j = i; j < Math.min(i + 4, text.length); j++) h = (h * 31 + text.charCodeAt(j)) | 0;
    ids.push(h >>> 0);
  }
  return ids;
}

const MEMO_LIMIT = 20_000;
const SAVED_LIMIT = 100_000;
/** Hex digits of a block's sha256 that key its saved count (80 bits: no two blocks of a chat share one). */
const BLOCK_HASH_HEX = 20;

/** What a saved count is keyed by, with the tokenizer's name: the block's content hash. */
export function blockHash(text: string): string {
  return sha256Hex(text).slice(0, BLOCK_HASH_HEX);
}

/** A text this long is counted by its chunks (lineChunks.ts), each memoised. */
const CHUNKED_FROM = 32_000;
const CHUNK_MEMO_LIMIT = 50_000;
/** Characters encoded between two pauses of countYielding. */
const SLICE_CHARS = 16_000;

/** Gives the host's event loop a turn (a frame can be drawn): a timer of 0 ms. */
export type Pause = () => Promise<void>;

/** Token counter memoised by content hash, shared by every caller using the same encoding. */
class MemoTokenCounter implements TokenCounter {
  private readonly memo = new Map<string, number>();
  /** Counts of long texts' chunks, by sha256. */
  private readonly chunkMemo = new Map<string, number>();
  /** Counts saved with chats (by blockHash), for this tokenizer only: used for the text they were counted from. */
  private readonly saved = new Map<string, number>();
  /** Counts objects taken whole since the last time `saved` dropped one (remember() skips them). */
  private taken = new WeakSet<object>();
  constructor(readonly encoding: EncodingName) {}

  count(text: string): number {
    if (text.length === 0) return 0;
    // Short strings are cheaper to count than to hash.
    const hash = text.length > 256 ? sha256Hex(text) : null;
    const key = hash ?? text;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const saved = this.saved.size > 0 ? this.saved.get((hash ?? sha256Hex(text)).slice(0, BLOCK_HASH_HEX)) : undefined;
    const n = saved ?? (this.encoding === 'estimate' ? estimateTokens(text) : text.length >= CHUNKED_FROM ? this.countChunked(text) : this.encode(text).length);
    if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value as string);
    this.memo.set(key, n);
    return n;
  }

  /** The sum of the chunks' counts: exact, as no pre-token crosses a cut (lineChunks.ts). */
  private countChunked(text: string): number {
    let n = 0;
    for (const chunk of chunksOf(text)) {
      const key = sha256Hex(chunk);
      let c = this.chunkMemo.get(key);
      if (c === undefined) {
        c = this.encode(chunk).length;
        this.rememberChunk(key, c);
      }
      n += c;
    }
    return n;
  }

  private rememberChunk(key: string, n: number): void {
    if (this.chunkMemo.size >= CHUNK_MEMO_LIMIT) this.chunkMemo.delete(this.chunkMemo.keys().next().value as string);
    this.chunkMemo.set(key, n);
  }

  /**
   * count(), with a pause after every SLICE_CHARS characters encoded: a long text is counted
   * without holding the interface, and its chunks' counts are memoised for the engine's own
   * (synchronous) count of any text that holds them.
   */
  async countYielding(text: string, pause: Pause): Promise<number> {
    if (this.encoding === 'estimate' || text.length < CHUNKED_FROM) return this.count(text);
    const linear = this.encoding === 'o200k_base' || this.encoding === 'cl100k_base' ? linearEncoderFor(this.encoding) : null;
    let since = 0;
    for (const chunk of chunksOf(text)) {
      const key = sha256Hex(chunk);
      if (this.chunkMemo.has(key)) continue;
      let n = 0;
      if (!linear) n = this.encode(chunk).length;
      else {
        const ids: number[] = [];
        for (const piece of linear.pieces(chunk)) {
          linear.encodePiece(piece, ids);
          n += ids.length;
          ids.length = 0;
          since += piece.length;
          if (since >= SLICE_CHARS) {
            since = 0;
            await pause();
          }
        }
      }
      this.rememberChunk(key, n);
    }
    return this.count(text);
  }

  /** Take counts saved with a chat (blockHash → tokens, counted by this tokenizer). */
  remember(counts: Readonly<Record<string, number>>): void {
    // The same counts taken again (a chat reopened in this session): nothing to do while none was dropped since.
    if (this.taken.has(counts)) return;
    for (const [hash, n] of Object.entries(counts)) {
      if (hash.length !== BLOCK_HASH_HEX || !Number.isSafeInteger(n) || n < 0) continue;
      if (this.saved.size >= SAVED_LIMIT) {
        this.saved.delete(this.saved.keys().next().value as string);
        this.taken = new WeakSet();
      }
      this.saved.set(hash, n);
    }
    this.taken.add(counts);
  }

  encode(text: string): number[] {
    if (this.encoding === 'estimate') return estimateEncode(text);
    return encodeGuarded(loadTokenizer(this.encoding), text);
  }
}

const linearEncoders = new Map<Tiktoken, LinearEncoder | null>();

/**
 * Encoded in time linear in the text whatever it holds (see linearBpe.ts), exactly as js-tiktoken
 * encodes it. Should a js-tiktoken release lack the internals that needs, the older guard runs.
 */
function encodeGuarded(tokenizer: Tiktoken, text: string): number[] {
  let linear = linearEncoders.get(tokenizer);
  if (linear === undefined) {
    const internals = internalsOf(tokenizer);
    linear = internals ? new LinearEncoder(internals) : null;
    linearEncoders.set(tokenizer, linear);
  }
  return linear ? linear.encode(text) : encodeChunked(tokenizer, text);
}

/** The linear encoder of an encoding, for the async counting path and the tests. */
export function linearEncoderFor(encoding: Exclude<EncodingName, 'estimate'>): LinearEncoder | null {
  const tokenizer = loadTokenizer(encoding);
  encodeGuarded(tokenizer, '');
  return linearEncoders.get(tokenizer) ?? null;
}

/**
 * Fallback only: a run the tokenizer's pre-split keeps as one piece (letters only, or marks and
 * punctuation only) encoded 64 characters at a time (at most one token more per cut).
 */
const LONG_PIECE = /\p{L}{256,}|[^\s\p{L}\p{N}]{256,}|\s{256,}/gu;
const PIECE_CHUNK = 64;

function encodeChunked(tokenizer: Tiktoken, text: string): number[] {
  // Special-token strings in a note ("<|endoftext|>") are plain text here, not control tokens.
  const plain = (part: string) => tokenizer.encode(part, [], []);
  LONG_PIECE.lastIndex = 0;
  if (!LONG_PIECE.test(text)) return plain(text);
  // test() moved lastIndex past the first run; matchAll starts where it stands.
  LONG_PIECE.lastIndex = 0;
  const out: number[] = [];
  const add = (ids: number[]) => {
    for (const id of ids) out.push(id);
  };
  let at = 0;
  for (const m of text.matchAll(LONG_PIECE)) {
    if (m.index > at) add(plain(text.slice(at, m.index)));
    const run = m[0];
    for (let i = 0; i < run.length; ) {
      let end = Math.min(run.length, i + PIECE_CHUNK);
      // Never between the two halves of a surrogate pair.
      if (end < run.length && /[\uD800-\uDBFF]/.test(run[end - 1])) end++;
      add(plain(run.slice(i, end)));
      i = end;
    }
    at = m.index + run.length;
  }
  if (at < text.length) add(plain(text.slice(at)));
  return out;
}

function* chunksOf(text: string): Generator<string> {
  const starts = chunkStarts(text);
  for (let i = 0; i < starts.length; i++) yield text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : text.length);
}

const counters = new Map<EncodingName, MemoTokenCounter>();

function counterOf(encoding: EncodingName): MemoTokenCounter {
  let counter = counters.get(encoding);
  if (!counter) {
    counter = new MemoTokenCounter(encoding);
    counters.set(encoding, counter);
  }
  return counter;
}

/** The shared, memoised counter for a model's tokenizer. */
export function tokenCounterFor(model: string): TokenCounter {
  return counterOf(encodingForModel(model));
}

const ENCODINGS: readonly string[] = ['o200k_base', 'cl100k_base', 'estimate'] satisfies EncodingName[];

/**
 * Counts a reopened chat saved (blockHash → tokens, per tokenizer name): a text later counted by that
 * tokenizer takes its saved count instead of being tokenized again. A changed text has another hash
 * and a count of another tokenizer is never looked at, so neither can give a wrong count; a
 * tokenizer this version does not know is skipped.
 */
export function rememberTokenCounts(encoding: string, counts: Readonly<Record<string, number>>): void {
  if (ENCODINGS.includes(encoding)) counterOf(encoding as EncodingName).remember(counts);
}

/** A pause of one event-loop turn, on the host's timers (the window's in Obsidian). */
export const pauseForHost: Pause = () => new Promise<void>((resolve) => DEFAULT_TIMERS.setTimeout(resolve, 0));

/**
 * Unpack the bundle's rank table for `encoding` ahead of its first count, pausing between slices
 * (5,000 tokens at a time), so the unpacking never holds the main thread in one piece; then, each
 * after a pause of its own, the table's hash index is built and the pre-tokenizer's pattern
 * compiled (one short text encoded), which the first count would otherwise do in its own task. A
 * count meanwhile unpacks the rest at once, as without this. Run from source (js-tiktoken's own
 * tables: tests, scripts) there is nothing to unpack.
 */
export async function warmTokenizer(encoding: EncodingName, pause: Pause = pauseForHost): Promise<void> {
  if (encoding === 'estimate' || unpacked.has(encoding) || !('packed' in rankSource(encoding))) return;
  const steps = unpackedTableInSlices(encoding);
  for (let step = steps.next(); !step.done; step = steps.next()) {
    await pause();
    if (unpacked.has(encoding)) break;
  }
  await pause();
  unpacked.get(encoding)?.byteRanks.prepare();
  await pause();
  linearEncoderFor(encoding)?.encode('Warm up.');
}

/**
 * Count the long ones of `texts` for `model` ahead of time, pausing between slices (see
 * countYielding): what the plugin calls before the engine counts attached notes, a preview or a
 * reopened chat synchronously. Short texts are left to the engine (they count in well under a frame).
 */
export async function warmTokenCounts(model: string, texts: Iterable<string>, pause: Pause = pauseForHost): Promise<void> {
  await warmTokenizer(encodingForModel(model), pause);
  const counter = counterOf(encodingForModel(model));
  for (const text of texts) if (text.length >= CHUNKED_FROM) await counter.countYielding(text, pause);
}

/**
 * Forget every memoised count (tokenizers stay loaded). For benchmarks that measure cold assembly
 * inside one process; the plugin never needs it.
 */
export function resetTokenCounterMemos(): void {
  counters.clear();
}

/**
 * Chat-format overhead, from OpenAI's published counting recipe: each message costs 3 tokens of
 * framing and every reply is primed with 3 more.
 */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_REPLY_PRIMING = 3;

export function countMessagesTokens(counter: TokenCounter, contents: readonly string[]): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const content of contents) total += TOKENS_PER_MESSAGE + counter.count(content);
  return total;
}
