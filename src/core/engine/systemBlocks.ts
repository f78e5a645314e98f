import type { RenderedMessage } from './historyRun';

/** The separator between blocks of one message (the converter's SEP). */
const SEP = '\n\n';

/**
 * A stable part of the system message that grows only at its end between two deliberate breaks
 * (the Context Library block carried after a compaction; any later block of the same kind, such as
 * a condensed-library block). `chunks` are its contents in order, each a list of parts; a chunk is
 * never split or merged later, so the block boundaries of one request are block boundaries of every
 * later request that extends it.
 */
export interface StablePart {
  readonly open: readonly string[];
  readonly chunks: readonly (readonly string[])[];
  readonly close: readonly string[];
}

/**
 * The system message of L1 (`head`) and the stable parts after it. Its parts and content are what
 * they were before blocks existed (head, then each part's open, chunks and close, SEP between), so
 * OpenAI payloads and message hashes do not change. Anthropic reads its cache only where an earlier
 * request put a breakpoint and only at block boundaries (looking back at most 20 blocks), so a stable
 * part rewritten as one block is written again whole each time it grows. Here each chunk is its own
 * block and the end of each part's last chunk is an anchor: the request after a compaction that
 * appended chunks finds the previous request's anchor among the blocks before its own and reads
 * everything up to it. A part's close goes at the start of the next block, so the anchor sits right
 * after its last chunk (where the next growth starts). Without chunks there is one block, as before.
 */
export function systemMessage(head: readonly string[], stable: readonly StablePart[]): RenderedMessage {
  const parts: string[] = [...head];
  for (const part of stable) if (part.chunks.length > 0) parts.push(...part.open, ...part.chunks.flat(), ...part.close);
  const content = parts.length === 1 ? parts[0] : parts.join(SEP);
  const growing = stable.filter((p) => p.chunks.length > 0);
  if (growing.length === 0) return { role: 'system', content, parts };

  const groups: string[][] = [[...head]];
  const anchors: number[] = [];
  let carry: string[] = [];
  for (const part of growing) {
    part.chunks.forEach((chunk, i) => groups.push([...(i === 0 ? [...carry, ...part.open] : []), ...chunk]));
    anchors.push(groups.length - 1);
    carry = [...part.close];
  }
  if (carry.length > 0) groups.push(carry);
  const blocks = groups.map((g, i) => g.join(SEP) + (i < groups.length - 1 ? SEP : ''));
  return { role: 'system', content, parts, blocks, anchors };
}
