import { chunkNote } from '../search/chunk';
import type { TokenCounter } from '../tokens/tokenCounter';
import { ArtifactIndex } from './artifactIndex';

/** A 1-based, inclusive line range of an artifact. */
export type LineRange = readonly [number, number];

/** The line ranges an extract holds (its section markers), so a later extract can leave them out. */
export function extractRanges(text: string): LineRange[] {
  return [...text.matchAll(/\(lines (\d+)-(\d+)\) ---$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const);
}

/** Sections of one artifact picked for a query: rank order to choose, document order to read. */
interface Section {
  readonly headings: readonly string[];
  readonly startLine: number;
  readonly endLine: number;
}

export interface Extract {
  readonly text: string;
  /** Sections sent, of how many the artifact has. */
  readonly sections: number;
  readonly of: number;
  /** No section matched the query: the artifact's first sections stand in. */
  readonly unmatched: boolean;
}

/** The first line of an extract: what it is, so the model (and a reader) never takes it for the whole. */
export function extractHeader(title: string, query: string, sections: number, of: number, unmatched: boolean): string {
  const what = unmatched ? `no section matched "${query}"; the first ${sections} of ${of} sections` : `the ${sections} of ${of} sections that best match "${query}"`;
  return `[Extract of "${title}": ${what}. Ask for the whole text if you need more.]`;
}

/** Overlapping or adjacent sections merged, in document order. */
function merged(sections: readonly Section[]): Section[] {
  const sorted = [...sections].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
  const out: Section[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.startLine <= last.endLine + 1) out[out.length - 1] = { ...last, endLine: Math.max(last.endLine, s.endLine) };
    else out.push(s);
  }
  return out;
}

function sectionBlock(lines: readonly string[], s: Section): string {
  const where = s.headings.length > 0 ? s.headings.join(' > ') : '(before the first heading)';
  return `--- ${where} (lines ${s.startLine}-${s.endLine}) ---\n${lines.slice(s.startLine - 1, s.endLine).join('\n')}`;
}

function render(title: string, query: string, lines: readonly string[], picked: readonly Section[], of: number, unmatched: boolean): string {
  return [extractHeader(title, query, picked.length, of, unmatched), ...merged(picked).map((s) => sectionBlock(lines, s))].join('\n\n');
}

/** An artifact to take sections from. */
export interface ExtractSource {
  readonly id: string;
  readonly title: string;
  readonly content: string;
  /** Line ranges already sent (a kept extract's): left out. */
  readonly skip?: readonly LineRange[];
}

export interface JointExtract extends Extract {
  /** Every section of the artifact was picked: the whole text can go instead. */
  readonly whole: boolean;
}

interface Prepared {
  readonly source: ExtractSource;
  readonly lines: readonly string[];
  readonly all: readonly Section[];
  readonly picked: Section[];
}

/**
 * rag_extract over several artifacts at once: their sections ranked together by the vault search's
 * ranking for `query`, the best taken until `maxTokens` (headers included) is spent, so the room
 * goes to the best passages wherever they are. Each artifact's pick is sent in document order with
 * heading paths. `firstSections`: when nothing matches, an artifact's first sections stand in (a
 * single artifact planned for a question that shares no word with it). `minScoreShare`: only passages
 * scoring at least this share of the best one. Deterministic.
 */
export async function jointExtracts(
  sources: readonly ExtractSource[],
  query: string,
  maxTokens: number,
  counter: TokenCounter,
  options: { readonly firstSections?: boolean; readonly minScoreShare?: number; readonly rivals?: readonly ExtractSource[] } = {},
): Promise<Map<string, JointExtract>> {
  const prepared = new Map<string, Prepared>();
  for (const source of sources) {
    const all = chunkNote('artifact.md', source.content).chunks.map((c) => ({ headings: c.headings, startLine: c.startLine, endLine: c.endLine }));
    prepared.set(source.id, { source, lines: source.content.split(/\r?\n/), all, picked: [] });
  }
  const rivals = (options.rivals ?? []).filter((r) => !prepared.has(r.id));
  const rivalSections = rivals.reduce((n, r) => n + chunkNote('artifact.md', r.content).chunks.length, 0);
  const total = [...prepared.values()].reduce((n, p) => n + p.all.length, 0) + rivalSections;
  const fresh = (p: Prepared, s: Section) => !(p.source.skip ?? []).some(([from, to]) => s.startLine >= from && s.endLine <= to);
  // Rivals are ranked with the sources (they set the best score) but never picked.
  const index = await ArtifactIndex.of(rivals.length > 0 ? [...sources, ...rivals] : sources);
  const hits = await index.search(query, total);
  // Passages that match only weakly (a common word) are left out when asked: a section for this question must be about it.
  const floor = options.minScoreShare !== undefined && hits.length > 0 ? hits[0].score * options.minScoreShare : -Infinity;
  let ranked = hits.filter((h) => h.score >= floor).flatMap((h) => {
    const p = prepared.get(h.id);
    const section = { headings: h.headings, startLine: h.startLine, endLine: h.endLine };
    return p && fresh(p, section) ? [{ p, section }] : [];
  });
  const unmatched = ranked.length === 0;
  if (unmatched && options.firstSections) ranked = [...prepared.values()].flatMap((p) => p.all.filter((s) => fresh(p, s)).map((section) => ({ p, section })));
  // Sections are counted one by one (a join adds a token or two); each artifact's whole is counted once at the end.
  const header = (p: Prepared) => counter.count(extractHeader(p.source.title, query, p.all.length, p.all.length, unmatched)) + 2;
  let used = 0;
  for (const { p, section } of ranked) {
    const cost = counter.count(sectionBlock(p.lines, section)) + 2 + (p.picked.length === 0 ? header(p) : 0);
    // Ranked passages are independent: one too large is passed over for smaller ones further down.
    if (used + cost > maxTokens) continue;
    p.picked.push(section);
    used += cost;
  }
  const texts = () =>
    [...prepared.values()].filter((p) => p.picked.length > 0).map((p) => ({ p, text: render(p.source.title, query, p.lines, p.picked, p.all.length, unmatched) }));
  let out = texts();
  // Joins can add a token here and there: drop the lowest-ranked pick until the whole fits.
  while (out.reduce((n, o) => n + counter.count(o.text), 0) > maxTokens) {
    const last = [...ranked].reverse().find(({ p, section }) => p.picked.includes(section));
    if (!last) break;
    last.p.picked.splice(last.p.picked.indexOf(last.section), 1);
    out = texts();
  }
  return new Map(
    out.map(({ p, text }) => [
      p.source.id,
      { text, sections: p.picked.length, of: p.all.length, unmatched, whole: p.picked.length === p.all.length && (p.source.skip ?? []).length === 0 },
    ]),
  );
}

/**
 * rag_extract of one artifact: the sections that best match `query`, as many as fit `maxTokens`.
 * Null when not even one section fits (or, with `matchedOnly`, none matches).
 */
export async function extractOf(
  title: string,
  content: string,
  query: string,
  maxTokens: number,
  counter: TokenCounter,
  options: { readonly skip?: readonly LineRange[]; readonly matchedOnly?: boolean } = {},
): Promise<Extract | null> {
  const found = await jointExtracts([{ id: 'artifact', title, content, ...(options.skip ? { skip: options.skip } : {}) }], query, maxTokens, counter, {
    firstSections: !options.matchedOnly,
  });
  return found.get('artifact') ?? null;
}
