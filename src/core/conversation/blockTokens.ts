import type { TurnAssembly } from '../engine/engine';
import { renderDynamic, renderUserText } from '../engine/render';
import { blockHash, rememberTokenCounts, tokenCounterFor } from '../tokens/tokenCounter';
import type { ChatTurn } from './model';

/**
 * Token counts of a turn's message blocks, saved with the turn, so the first request after the chat
 * is reopened does not tokenize its whole history again (at 1,000 turns, most of a second). Keyed by
 * the tokenizer's name, then by each block's content hash (blockHash): a block whose text changed, or
 * a chat continued with another tokenizer, simply finds no count and is counted, never miscounted.
 * Saved as one line of text, `<tokenizer> <hash>:<tokens> <hash>:<tokens>…` (one tokenizer per turn:
 * its model's), compact to keep and cheap to check on reading.
 */
export type BlockTokens = string;

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
  const [encoding = '', ...entries] = saved.split(' ');
  const counts: Record<string, number> = {};
  for (const entry of entries) {
    const m = /^([0-9a-f]+):(\d{1,9})$/.exec(entry);
    if (m) counts[m[1]] = Number(m[2]);
  }
  return { encoding, counts };
}

/** A reopened chat's saved counts, for the tokenizers to take (before its first request is assembled). */
export function rememberBlockTokens(turns: readonly ChatTurn[]): void {
  for (const turn of turns) {
    if (turn.tokens === undefined) continue;
    const { encoding, counts } = readBlockTokens(turn.tokens);
    rememberTokenCounts(encoding, counts);
  }
}
