import type { TurnAssembly } from '../engine/turnAssembly';
import { renderDynamic, renderUserText } from '../engine/render';
import { blockHash, rememberTokenCounts, tokenCounterFor } from '../tokens/tokenCounter';
import type { BlockTokens, ChatTurn } from './model';

/** Shorter blocks (a question, a reference list) cost less to count than their saved count costs bytes. */
const MIN_SAVED_CHARS = 200;

/**
 * The counts of what this turn adds to every later request: the blocks of its user message as sent
 * (context blocks, turn context, the text) and its reply, plus the plain text history measures
 * itself. They were counted while the request was assembled, so this costs hashing them only.
 */
export function blockTokensOf(assembly: TurnAssembly, reply: string): BlockTokens | undefined {
  const { envelope } = assembly;
  const counter = tokenCounterFor(envelope.model);
  // An estimate costs less than looking up a saved one.
  if (counter.encoding === 'estimate') return undefined;
  const dynamic = envelope.layers.L1.segments.filter((s) => s.lifecycle === 'dynamic');
  const userText = envelope.layers.L5.segments.map((s) => s.text);
  const blocks = [
    ...envelope.layers.L3.segments.map((s) => s.text),
    ...(dynamic.length > 0 ? [renderDynamic(dynamic)] : []),
    ...userText,
    ...userText.map(renderUserText),
    reply,
  ];
  const counts = new Map<string, number>();
  for (const block of blocks) if (block.length >= MIN_SAVED_CHARS) counts.set(blockHash(block), counter.count(block));
  return counts.size > 0 ? [counter.encoding, ...[...counts].map(([hash, n]) => `${hash}:${n}`)].join(' ') : undefined;
}

/** The counts a turn saved, by tokenizer; entries that do not read as `<hash>:<tokens>` are skipped. */
export function readBlockTokens(saved: BlockTokens): { encoding: string; counts: Record<string, number> } {
  // One pass over the string with charCode tests (no split, no regex per entry): a reopened
  // 1,000-turn chat reads thousands of entries, the first time in a process's cold code.
  let space = saved.indexOf(' ');
  const encoding = space < 0 ? saved : saved.slice(0, space);
  // Without a prototype, the object is a dictionary from the start: each hash a property name never
  // seen before made a hidden class of its own (~5 µs an entry, the cost of reading the counts).
  const counts = Object.create(null) as Record<string, number>;
  while (space >= 0) {
    const start = space + 1;
    space = saved.indexOf(' ', start);
    const end = space < 0 ? saved.length : space;
    const colon = entryColon(saved, start, end);
    if (colon < 0) continue;
    let n = 0;
    for (let i = colon + 1; i < end; i++) n = n * 10 + saved.charCodeAt(i) - 0x30;
    counts[saved.slice(start, colon)] = n;
  }
  return { encoding, counts };
}

/** Where the `:` of an entry `<hex digits>:<1 to 9 digits>` in `text[start, end)` is; -1 when it is not one. */
function entryColon(text: string, start: number, end: number): number {
  let colon = start;
  for (; colon < end; colon++) {
    const c = text.charCodeAt(colon);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) break;
  }
  if (colon === start || colon === end || text.charCodeAt(colon) !== 0x3a) return -1;
  const digits = end - colon - 1;
  if (digits < 1 || digits > 9) return -1;
  for (let i = colon + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
  }
  return colon;
}

/**
 * Saved counts read before, by their text (a chat reopened again in the session reads the same
 * strings): the tokenizer then finds the same object taken and skips it. At most `KEPT_ENTRIES`.
 */
const readCounts = new Map<string, ReturnType<typeof readBlockTokens>>();
const KEPT_ENTRIES = 20_000;

function countsOf(saved: BlockTokens): ReturnType<typeof readBlockTokens> {
  let read = readCounts.get(saved);
  if (read === undefined) {
    read = readBlockTokens(saved);
    if (readCounts.size >= KEPT_ENTRIES) readCounts.delete(readCounts.keys().next().value as string);
    readCounts.set(saved, read);
  }
  return read;
}

/** A reopened chat's saved counts, for the tokenizers to take (before its first request is assembled). */
export function rememberBlockTokens(turns: readonly ChatTurn[]): void {
  for (const turn of turns) {
    if (turn.tokens === undefined) continue;
    const { encoding, counts } = countsOf(turn.tokens);
    rememberTokenCounts(encoding, counts);
  }
}
