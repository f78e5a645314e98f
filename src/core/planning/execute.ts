import type { TokenCounter } from '../tokens/tokenCounter';
import { extractOf, jointExtracts, type JointExtract } from './extract';
import { SummaryCache } from './summaryCache';
import { summaryHeader, type ArtifactSummarizer } from './summarize';
import type { Artifact } from './types';
import type { ArtifactDecision, Decider, PlanCall, Strategy } from '../conversation/records/plan';

/** Tokens a context block's wrapper adds to its text (the tag, id and title attributes), counted generously. */
export const WRAPPER_TOKENS = 40;
/** Smallest extract or summary worth sending. */
const MIN_PART_TOKENS = 150;
/** A summary aims at this share of the whole, between these bounds (then the room left decides). */
const SUMMARY_SHARE = 0.15;
const SUMMARY_MIN = 250;
const SUMMARY_MAX = 1_500;

/** What was done with one artifact. */
export interface Outcome {
  readonly artifact: Artifact;
  readonly decision: ArtifactDecision;
  /** What was done (a decision can step down: full → extract when it no longer fits, summary → extract on failure). */
  readonly strategy: Strategy;
  readonly rationale: string;
  readonly by: Decider;
  /** The text sent for it (null: excluded). */
  readonly text: string | null;
  /** Tokens of the text (the wrapper not counted). */
  readonly tokens: number;
  readonly cacheHit?: boolean;
}

export interface ExecuteDeps {
  readonly counter: TokenCounter;
  /** Null: no summaries (the deterministic planner, summaries off): a summary becomes an extract. */
  readonly summarizer: ArtifactSummarizer | null;
  readonly cache: SummaryCache;
  readonly signal: AbortSignal;
  /** A summary failed (the plan goes on with an extract): said in the turn's warning. */
  readonly onProblem?: (text: string) => void;
}

export interface Executed {
  readonly outcomes: readonly Outcome[];
  readonly calls: readonly PlanCall[];
  readonly hits: number;
  readonly misses: number;
}

function summarySize(artifact: Artifact, room: number): number {
  return Math.min(room, Math.max(SUMMARY_MIN, Math.min(SUMMARY_MAX, Math.floor(artifact.tokens * SUMMARY_SHARE))));
}

/**
 * Carry out a plan inside `room` tokens. First, in priority order (ties: the order given), what goes
 * whole or as a summary: a full text that no longer fits, or a summary that fails or is too long,
 * joins the extracts. Then the extracts, per query, ranked together (jointExtracts), so the room left
 * goes to the best sections wherever they are; an artifact none of whose sections made the cut is
 * excluded, one all of whose sections did is sent whole. What is sent never passes the room.
 */
export async function executePlan(
  artifacts: readonly Artifact[],
  decisions: ReadonlyMap<string, { readonly decision: ArtifactDecision; readonly by: Decider }>,
  room: number,
  question: string,
  deps: ExecuteDeps,
): Promise<Executed> {
  const order = artifacts
    .map((artifact, i) => ({ artifact, i, ...(decisions.get(artifact.id) as { decision: ArtifactDecision; by: Decider }) }))
    .sort((a, b) => a.decision.priority - b.decision.priority || a.i - b.i);
  type Entry = (typeof order)[number];
  const outcomes = new Map<string, Outcome>();
  const calls: PlanCall[] = [];
  const pool: { entry: Entry; query: string; why: string }[] = [];
  let hits = 0;
  let misses = 0;
  let left = room;
  // Extracts still to come keep a floor each, so a full text or a summary cannot take every token.
  const floor = () => order.filter((o) => !outcomes.has(o.artifact.id) && o.decision.strategy === 'rag_extract').length * (MIN_PART_TOKENS + WRAPPER_TOKENS);

  const done = (o: Entry, strategy: Strategy, text: string | null, rationale: string, extra: { cacheHit?: boolean } = {}) => {
    const tokens = text === null ? 0 : deps.counter.count(text);
    if (text !== null) left -= tokens + WRAPPER_TOKENS;
    outcomes.set(o.artifact.id, { artifact: o.artifact, decision: o.decision, strategy, rationale, by: o.by, text, tokens, ...extra });
  };

  for (const o of order) {
    if (deps.signal.aborted) throw new DOMException('Planning was stopped.', 'AbortError');
    const { decision, artifact } = o;
    switch (decision.strategy) {
      case 'exclude':
        done(o, 'exclude', null, decision.rationale);
        break;
      case 'include_full':
        if (artifact.tokens + WRAPPER_TOKENS <= left - floor()) done(o, 'include_full', artifact.content, decision.rationale);
        else pool.push({ entry: o, query: decision.query ?? question, why: `${decision.rationale}; too large for the room left, so an extract` });
        break;
      case 'rag_extract':
        pool.push({ entry: o, query: decision.query ?? question, why: decision.rationale });
        break;
      case 'summarize': {
        const focus = decision.focus ?? question;
        const size = summarySize(artifact, left - WRAPPER_TOKENS - floor());
        if (!deps.summarizer || size < MIN_PART_TOKENS) {
          pool.push({ entry: o, query: focus, why: `${decision.rationale}; ${deps.summarizer ? 'no room for a summary' : 'no summary model here'}, so an extract` });
          break;
        }
        const key = SummaryCache.key(artifact.id, artifact.hash, focus);
        const cached = await deps.cache.get(key);
        let summary = cached?.text ?? null;
        if (cached) hits += 1;
        else {
          misses += 1;
          try {
            const made = await deps.summarizer.summarize(artifact, focus, size, deps.signal);
            calls.push(made.call);
            summary = made.text;
            if (summary) await deps.cache.set(key, { text: summary, model: made.model });
          } catch (error) {
            if (deps.signal.aborted) throw error;
            deps.onProblem?.(`the summary of ${artifact.title} failed (${error instanceof Error ? error.message : String(error)}); an extract was sent`);
          }
        }
        const text = summary ? `${summaryHeader(artifact.title, artifact.tokens, focus)}\n\n${summary}` : null;
        if (text && deps.counter.count(text) + WRAPPER_TOKENS <= left - floor()) done(o, 'summarize', text, decision.rationale, { cacheHit: Boolean(cached) });
        else pool.push({ entry: o, query: focus, why: `${decision.rationale}; ${text ? 'the summary is longer than the room left' : 'the summary failed'}, so an extract` });
        break;
      }
    }
  }

  // The extracts, one joint ranking per query; the room left is shared by the queries in proportion to their artifacts.
  const queries = [...new Set(pool.map((p) => p.query))];
  const start = left;
  const unplaced: typeof pool = [];
  for (const query of queries) {
    if (deps.signal.aborted) throw new DOMException('Planning was stopped.', 'AbortError');
    const group = pool.filter((p) => p.query === query);
    const share = Math.floor((start * group.length) / pool.length) - WRAPPER_TOKENS * group.length;
    const found = share > 0 ? await jointExtracts(group.map((g) => g.entry.artifact), query, share, deps.counter, { firstSections: group.length === 1 }) : new Map<string, JointExtract>();
    for (const p of group) {
      const extract = found.get(p.entry.artifact.id);
      if (!extract) unplaced.push(p);
      else if (extract.whole) done(p.entry, 'include_full', p.entry.artifact.content, `${p.why}; every section fits, so the whole text`);
      else done(p.entry, 'rag_extract', extract.text, p.why);
    }
  }
  // What no query reached (a short note that shares no word with the question) still has a claim on
  // the room the extracts left: whole if it fits, else its first sections; excluded only when no room is left.
  for (const { entry, query, why } of unplaced.sort((a, b) => a.entry.decision.priority - b.entry.decision.priority || a.entry.i - b.entry.i)) {
    const { artifact } = entry;
    if (artifact.tokens + WRAPPER_TOKENS <= left) {
      done(entry, 'include_full', artifact.content, `${why}; no section matched, but it fits whole in the room left`);
      continue;
    }
    const head = left - WRAPPER_TOKENS >= MIN_PART_TOKENS ? await extractOf(artifact.title, artifact.content, query, left - WRAPPER_TOKENS, deps.counter) : null;
    if (head) done(entry, 'rag_extract', head.text, `${why}; no section matched, so its first sections in the room left`);
    else done(entry, 'exclude', null, `${why}; none of its sections made the cut for the room left`);
  }
  return { outcomes: artifacts.map((a) => outcomes.get(a.id) as Outcome), calls, hits, misses };
}
