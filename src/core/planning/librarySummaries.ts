import type { LibrarySummaries } from '../budget/libraryPlan';
import type { LibraryItem } from '../engine/types';
import type { TokenCounter } from '../tokens/tokenCounter';
import { itemArtifact } from './artifacts';
import type { ArtifactSummarizer } from './summarize';
import { SummaryCache } from './summaryCache';

/** The focus a condensed library item is summarized for: the whole note, since no question is known yet. */
export const LIBRARY_FOCUS = 'what this note holds, to recognise later questions about it';
/** Length asked of a condensed item's summary (the compact block stays small: see CONDENSED_SHARE). */
const LIBRARY_SUMMARY_TOKENS = 120;

/**
 * The compact forms of condensed library items (issue 27): the summary cache's for the item's text
 * (offline, deterministic: a hit or nothing), and with a summarizer (the model path) one written
 * and cached on a miss. Null: the item goes as its outline.
 */
export function librarySummaries(cache: SummaryCache, summarizer: ArtifactSummarizer | null, counter: TokenCounter): LibrarySummaries {
  return async (item: LibraryItem, signal: AbortSignal) => {
    if (item.planned) return null;
    const key = SummaryCache.key(item.id, item.hash, LIBRARY_FOCUS);
    const cached = await cache.get(key);
    if (cached) return cached.text;
    if (!summarizer) return null;
    const artifact = itemArtifact({ id: item.id, kind: item.kind, title: item.title, source: item.source, content: item.content, hash: item.hash }, counter.count(item.content), true);
    const made = await summarizer.summarize(artifact, LIBRARY_FOCUS, LIBRARY_SUMMARY_TOKENS, signal);
    const text = made.text.trim();
    if (!text) return null;
    await cache.set(key, { text, model: made.model });
    return text;
  };
}
