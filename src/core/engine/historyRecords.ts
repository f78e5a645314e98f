import type { CompletedTurn } from './completedTurn';
import type { HistoryRun } from './historyRun';
import type { HistoryTurn, ImagePart, MessageSegment, SummarySegment } from './types';

/** What the engine keeps of earlier turns for L4: their envelope records and their segments. */

export function addSegment(run: HistoryRun, s: SummarySegment | MessageSegment): void {
  run.segments.push(s);
  run.segmentHashes.push(s.hash);
  run.segmentTokens += s.tokens;
}

// A kept turn's record in the envelope, one object per turn (turns are immutable): an assembly at
// turn 1,000 does not build 1,000 of them again.
const historyRecords = new WeakMap<CompletedTurn, HistoryTurn>();

export function historyRecordOf(t: CompletedTurn): HistoryTurn {
  let record = historyRecords.get(t);
  if (!record) {
    const { turn, dynamic, tools, referenced, problems, images, lostImages, agent } = t;
    record = {
      turn,
      dynamic,
      tools,
      referenced,
      problems,
      ...(images && images.length > 0 ? { images } : {}),
      ...(lostImages && lostImages.length > 0 ? { lostImages } : {}),
      ...(agent ? { agent } : {}),
    };
    historyRecords.set(t, record);
  }
  return record;
}

/**
 * This turn's images less those an earlier turn still in history carries (same bytes): the model
 * sees them there already, so a question after question about the open note does not pay for its
 * images every turn. After a compaction drops that turn, the image is sent again.
 */
export function imagesNotInHistory(images: readonly ImagePart[], kept: readonly HistoryTurn[]): readonly ImagePart[] {
  if (images.length === 0) return images;
  const seen = new Set<string>();
  for (const t of kept) for (const i of t.images ?? []) seen.add(i.hash);
  return seen.size === 0 ? images : images.filter((i) => !seen.has(i.hash));
}
