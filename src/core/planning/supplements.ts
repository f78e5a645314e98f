import type { ContextItem } from '../context/items';
import type { ToolOutput } from '../engine/types';
import type { TokenCounter } from '../tokens/tokenCounter';
import { WRAPPER_TOKENS } from './execute';
import { extractRanges, jointExtracts, type ExtractSource, type LineRange } from './extract';
import type { ArtifactUsage } from '../conversation/records/plan';

/** The tool name of a supplement block: sections of a planned item for this turn's question. */
export const SUPPLEMENT_TOOL = 'planExtract';
/** Share of the budget one turn's supplements may take (history keeps the rest; compaction masks old ones). */
export const SUPPLEMENT_SHARE = 0.2;
/** Only sections scoring at least this share of the best one: a section sent for a question must be about it. */
export const SUPPLEMENT_MIN_SCORE_SHARE = 0.5;
/** Room below this is not worth a block. */
const MIN_SUPPLEMENT_TOKENS = 120;

/** An item the prefix holds only in part (a kept summary or extract) or not at all (left out by the plan). */
export interface SupplementSource {
  readonly id: string;
  readonly title: string;
  /** The item as it is now: its whole text. */
  readonly item: ContextItem;
  /** How the prefix holds it. */
  readonly held: 'summary' | 'extract' | 'excluded' | 'condensed';
  /** Line ranges the request already carries (the kept extract's, earlier supplements still in history). */
  readonly skip: readonly LineRange[];
}

export interface Supplement {
  readonly tool: ToolOutput;
  readonly usage: ArtifactUsage;
}

/** The tool input of a supplement block: whose sections, for which question. */
function supplementInput(source: string, question: string): string {
  return `${source}: ${question.length > 120 ? `${question.slice(0, 119)}…` : question}`;
}

/**
 * Line ranges of `source` already sent in earlier supplement blocks that history still carries, so a
 * later question does not get the same sections twice.
 */
export function sentRanges(history: readonly ToolOutput[], source: string): LineRange[] {
  return history.filter((t) => t.name === SUPPLEMENT_TOOL && t.input.startsWith(`${source}: `)).flatMap((t) => extractRanges(t.output));
}

const HELD_WORDS = {
  summary: 'the kept summary does not hold them',
  extract: 'the kept extract does not hold them',
  excluded: 'the plan left it out',
  condensed: 'the library holds it condensed',
} as const;

/**
 * A kept summary or extract stays in the prefix as it was sent (sticky), and an item the plan left
 * out was never sent; a later question about another part of them gets that part as this turn's own
 * block: the sections that best match the question across all of them (the vault search's ranking,
 * jointly, so the room goes to the best passages), minus what the request already carries. It goes
 * where tool outputs go (after the prefix, in this turn's message, masked at compaction), so the
 * prefix never changes for it. Deterministic: the same texts and question give the same blocks.
 */
export async function supplementsFor(
  question: string,
  sources: readonly SupplementSource[],
  room: number,
  counter: TokenCounter,
  rivals: readonly ExtractSource[] = [],
): Promise<Supplement[]> {
  if (sources.length === 0 || question.trim() === '' || room < MIN_SUPPLEMENT_TOKENS + WRAPPER_TOKENS) return [];
  const byId = new Map(sources.map((s) => [s.id, s]));
  const texts = sources.map((s) => ({ id: s.id, title: s.title, content: s.item.content, skip: s.skip }));
  // Each block adds a wrapper: room for the texts is what is left after the blocks' wrappers,
  // fewer blocks leaving more room (a second pass when the first picked more blocks than assumed).
  let blocks = Math.min(sources.length, 3);
  // What this turn sends in full competes for the best score: a question about the note it attaches
  // does not pull sections of condensed notes that only share its common words.
  const options = { minScoreShare: SUPPLEMENT_MIN_SCORE_SHARE, ...(rivals.length > 0 ? { rivals } : {}) };
  let found = await jointExtracts(texts, question, room - blocks * WRAPPER_TOKENS, counter, options);
  while (found.size > blocks) {
    blocks = found.size;
    found = await jointExtracts(texts, question, room - blocks * WRAPPER_TOKENS, counter, options);
  }
  const out: Supplement[] = [];
  for (const source of sources) {
    const extract = found.get(source.id);
    if (!extract) continue;
    const { item, held } = byId.get(source.id) as SupplementSource;
    out.push({
      tool: { name: SUPPLEMENT_TOOL, input: supplementInput(item.source, question), output: extract.text },
      usage: {
        id: `${source.id}#${SUPPLEMENT_TOOL}`,
        type: 'tool',
        title: `${source.title}: sections for this question`,
        strategy: 'rag_extract',
        priority: 0,
        rationale: `${HELD_WORDS[held]}; ${extract.sections} of ${extract.of} sections match the question`,
        by: 'heuristic',
        kept: false,
        fullTokens: counter.count(item.content),
        tokens: counter.count(extract.text),
        query: question,
      },
    });
  }
  return out;
}
