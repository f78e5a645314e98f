import { z } from 'zod';
import type { SearchHit, VaultSearch } from './types';

/**
 * The search's evaluation (issue 13): questions written in the user's words, each with the note(s)
 * that answer it, run through a VaultSearch per vault. A question counts as found at rank r when
 * the r-th distinct note of the result list is one of its expected notes. Pure: the searches are
 * given, nothing is read or timed here.
 */

const questionSchema = z.object({
  id: z.string().min(1),
  vault: z.string().min(1),
  question: z.string().min(1),
  expected: z.array(z.string().min(1)).min(1),
  heading: z.string().min(1).optional(),
});

const evalSetSchema = z.object({
  version: z.literal(1),
  questions: z.array(questionSchema).min(1),
});

export type EvalQuestion = z.infer<typeof questionSchema>;

/** Notes looked at per question: a question found below this rank counts as not found (reciprocal rank 0). */
export const EVAL_DEPTH = 10;

/** The questions of an evaluation set (bench/search-eval/questions.json); throws on a malformed set or a repeated id. */
export function parseEvalSet(value: unknown): EvalQuestion[] {
  const parsed = evalSetSchema.safeParse(value);
  if (!parsed.success) throw new Error(`malformed evaluation set: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const seen = new Set<string>();
  for (const q of parsed.data.questions) {
    if (seen.has(q.id)) throw new Error(`malformed evaluation set: question id "${q.id}" is repeated`);
    seen.add(q.id);
  }
  return parsed.data.questions;
}

export interface QuestionOutcome {
  readonly id: string;
  readonly vault: string;
  readonly question: string;
  readonly expected: readonly string[];
  /** 1-based rank of the first expected note among the distinct notes returned, null when not in the first EVAL_DEPTH. */
  readonly rank: number | null;
  /** For questions with an expected heading: whether a hit among the first 5 notes is an expected note's chunk under that heading. */
  readonly headingAt5: boolean | null;
  /** The first 5 distinct notes returned, for the misses list. */
  readonly top: readonly string[];
}

export interface EvalFigures {
  readonly questions: number;
  readonly foundAt1: number;
  readonly foundAt3: number;
  readonly foundAt5: number;
  readonly foundAt10: number;
  readonly recallAt1: number;
  readonly recallAt3: number;
  readonly recallAt5: number;
  /** Found among the first EVAL_DEPTH (10) notes. */
  readonly recallAt10: number;
  /** Mean reciprocal rank over the first EVAL_DEPTH notes. */
  readonly mrr: number;
  /** Questions that name a heading, and how many of them had it in the top 5 (chunked searches only can). */
  readonly headingQuestions: number;
  readonly headingAt5: number;
}

export interface EvalReport {
  readonly overall: EvalFigures;
  /** Per vault, in the order vaults first appear in the set. */
  readonly vaults: readonly { readonly vault: string; readonly figures: EvalFigures }[];
  readonly outcomes: readonly QuestionOutcome[];
  /** Questions whose expected note is not in the top 5. */
  readonly misses: readonly QuestionOutcome[];
}

/** Runs every question through its vault's search, in the set's order. */
export async function evaluateSearch(questions: readonly EvalQuestion[], searches: ReadonlyMap<string, VaultSearch>): Promise<EvalReport> {
  const outcomes: QuestionOutcome[] = [];
  for (const q of questions) {
    const search = searches.get(q.vault);
    if (!search) throw new Error(`no search for vault "${q.vault}" (question ${q.id})`);
    const hits = await search.search(q.question, { k: EVAL_DEPTH, perNote: 1 });
    outcomes.push(outcomeOf(q, hits));
  }
  const vaultNames = [...new Set(questions.map((q) => q.vault))];
  return {
    overall: figuresOf(outcomes),
    vaults: vaultNames.map((vault) => ({ vault, figures: figuresOf(outcomes.filter((o) => o.vault === vault)) })),
    outcomes,
    misses: outcomes.filter((o) => o.rank === null || o.rank > 5),
  };
}

function outcomeOf(q: EvalQuestion, hits: readonly SearchHit[]): QuestionOutcome {
  // Searches may return several chunks of one note: rank by distinct notes, in the order they first appear.
  const notes: string[] = [];
  const firstHits = new Map<string, SearchHit[]>();
  for (const hit of hits) {
    if (!firstHits.has(hit.path)) {
      notes.push(hit.path);
      firstHits.set(hit.path, []);
    }
    firstHits.get(hit.path)?.push(hit);
  }
  const index = notes.slice(0, EVAL_DEPTH).findIndex((p) => q.expected.includes(p));
  const top5 = notes.slice(0, 5);
  const headingAt5 =
    q.heading === undefined
      ? null
      : top5.some((p) => q.expected.includes(p) && (firstHits.get(p) ?? []).some((h) => h.heading === q.heading || h.headings.includes(q.heading ?? '')));
  return { id: q.id, vault: q.vault, question: q.question, expected: q.expected, rank: index < 0 ? null : index + 1, headingAt5, top: top5 };
}

function figuresOf(outcomes: readonly QuestionOutcome[]): EvalFigures {
  const n = outcomes.length;
  const foundAt = (k: number) => outcomes.filter((o) => o.rank !== null && o.rank <= k).length;
  const [foundAt1, foundAt3, foundAt5, foundAt10] = [foundAt(1), foundAt(3), foundAt(5), foundAt(10)];
  const reciprocal = outcomes.reduce((sum, o) => sum + (o.rank === null ? 0 : 1 / o.rank), 0);
  const withHeading = outcomes.filter((o) => o.headingAt5 !== null);
  return {
    questions: n,
    foundAt1,
    foundAt3,
    foundAt5,
    foundAt10,
    recallAt1: n > 0 ? foundAt1 / n : 0,
    recallAt3: n > 0 ? foundAt3 / n : 0,
    recallAt5: n > 0 ? foundAt5 / n : 0,
    recallAt10: n > 0 ? foundAt10 / n : 0,
    mrr: n > 0 ? reciprocal / n : 0,
    headingQuestions: withHeading.length,
    headingAt5: withHeading.filter((o) => o.headingAt5 === true).length,
  };
}
