import type { ToolOutput } from '../engine/types';
import type { SearchHit } from '../search/types';
import type { SearchSource } from '../conversation/records/search';
import type { SourceCatalog } from '../agent/sourceCatalog';

/** The tool name of a Vault QA search: the block is a tool output like any other (`<tool_output tool="localSearch">`). */
export const LOCAL_SEARCH_TOOL = 'localSearch';

/** The rules every block carries, so each search in a chat brings its own guidance. */
export const CITATION_RULES =
  'Citation rules: cite the sources you use as [1], [2], right after the statement they support, using the numbers listed here. Only cite sources listed here. If they do not answer the question, say that you do not know.';

export const NOTHING_FOUND =
  'Nothing relevant was found in the vault for this search. Tell the user you could not find this in their notes and that you do not know; do not answer from general knowledge and do not cite anything.';

/**
 * The agent's rules (a catalog numbers the turn's searches): a source keeps its number across the
 * searches of one turn, so any number listed in this turn's search results may be cited.
 */
export const AGENT_CITATION_RULES =
  "Citation rules: cite the sources you use as [1], [2], right after the statement they support, using the numbers listed in this turn's search results (a source keeps its number across searches). Only cite sources listed there. If they do not answer the question, say that you do not know.";

/** An agent's empty search is not the end of the turn: it can search again or look elsewhere. */
export const AGENT_NOTHING_FOUND =
  'Nothing relevant was found in the vault for this search. Try other words (synonyms, a shorter query), or look with listFolder, findByTag or readNote. If nothing is found at all, tell the user you could not find this in their notes; do not answer from general knowledge and do not cite anything for it.';

/** A source's label: `path › heading`, or the path alone for text before the first heading. */
export function sourceLabel(source: SearchSource): string {
  return source.heading ? `${source.path} › ${source.heading}` : source.path;
}

/**
 * The sources of a ranked hit list: one per note and heading (chunks of one long section share a
 * number), numbered in rank order, each with its chunks in rank order.
 */
export function groupHits(hits: readonly SearchHit[]): Array<{ source: SearchSource; chunks: SearchHit[] }> {
  const groups: Array<{ source: SearchSource; chunks: SearchHit[] }> = [];
  const byKey = new Map<string, { source: SearchSource; chunks: SearchHit[] }>();
  for (const hit of hits) {
    const key = `${hit.path}\u0000${hit.heading}`;
    let group = byKey.get(key);
    if (!group) {
      group = { source: { path: hit.path, heading: hit.heading }, chunks: [] };
      byKey.set(key, group);
      groups.push(group);
    }
    group.chunks.push(hit);
  }
  return groups;
}

/**
 * The localSearch block of one search: self-contained (the instruction, the numbered catalog, the
 * chunks, the citation rules), a pure function of the query and the hits, so it renders the same
 * bytes wherever it is rendered. The engine's tool wrapper escapes it like any tool output.
 *
 * With a catalog (an agent turn, issue 14), sources are numbered through it instead of 1..n, so a
 * second search of the turn continues the numbering and a source seen before keeps its number; the
 * catalog's rules and empty-result text are the agent's. Without one, the output is Vault QA's.
 * `sources` is this block's sources in rank order either way (with a catalog, their numbers are
 * the catalog's).
 */
export function localSearchBlock(
  query: string,
  hits: readonly SearchHit[],
  catalog?: SourceCatalog,
): { tool: ToolOutput; sources: SearchSource[] } {
  const groups = groupHits(hits);
  const sources = groups.map((g) => g.source);
  const numbers = groups.map((g, i) => (catalog ? catalog.number(g.source) : i + 1));
  const lines: string[] = [`Vault search for: ${oneLine(query)}`, ''];
  if (groups.length === 0) {
    lines.push(catalog ? AGENT_NOTHING_FOUND : NOTHING_FOUND);
  } else {
    lines.push("Answer the user's question based only on the following sources from their vault.", '', 'Sources:');
    groups.forEach((g, i) => lines.push(`[${numbers[i]}] ${sourceLabel(g.source)}`));
    groups.forEach((g, i) => {
      for (const chunk of g.chunks) {
        lines.push('', `--- [${numbers[i]}] ${sourceLabel(g.source)} (lines ${chunk.startLine}-${chunk.endLine}) ---`, chunk.text.replace(/\s+$/, ''));
      }
    });
    lines.push('', '---', catalog ? AGENT_CITATION_RULES : CITATION_RULES);
  }
  return { tool: { name: LOCAL_SEARCH_TOOL, input: oneLine(query), output: lines.join('\n') }, sources };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
