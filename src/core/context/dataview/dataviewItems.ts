import { basename, makeItem, type ContextItem } from '../items';
import type { DataviewPort } from '../../ports/dataview';
import { dataviewBlocks, dataviewId, type DataviewBlock } from './dataviewBlocks';

/**
 * The items of a note's Dataview blocks (issue 31), placed right after the note: each block's result
 * rendered to markdown by Dataview itself. The content is the query and its result, so the item's
 * hash follows the result: a changed result is a new version, the same result costs nothing. Where
 * there is no result (Dataview not enabled, a dataviewjs block, a failed query) the query text is
 * sent and the title says why.
 */
export async function dataviewItems(path: string, noteText: string, dataview: DataviewPort | undefined, only?: string): Promise<ContextItem[]> {
  const out: ContextItem[] = [];
  const seen = new Set<string>();
  for (const block of dataviewBlocks(noteText)) {
    const id = dataviewId(path, block);
    if (seen.has(id) || (only !== undefined && id !== only)) continue;
    seen.add(id);
    out.push(await blockItem(path, id, block, dataview));
  }
  return out;
}

async function blockItem(path: string, id: string, block: DataviewBlock, dataview: DataviewPort | undefined): Promise<ContextItem> {
  // The query's first line tells two blocks of one note apart in the library ("Dashboard · dataview: TABLE status").
  const first = block.query.split('\n')[0].trim();
  const clipped = first.length > 40 ? `${first.slice(0, 39)}…` : first;
  const name = block.lang === 'dataviewjs' ? `${basename(path)} · dataviewjs` : `${basename(path)} · dataview${clipped !== '' ? `: ${clipped}` : ''}`;
  const fenced = `\`\`\`${block.lang}\n${block.query}\n\`\`\``;
  const intro = `${block.lang === 'dataviewjs' ? 'Dataview JS block' : 'Dataview query'} in ${path}:\n${fenced}`;
  const item = (title: string, body: string) => makeItem({ id, kind: 'dataview', title, source: path, content: `${intro}\n\n${body}` });
  if (block.lang === 'dataviewjs') {
    return item(`${name} (result unavailable)`, 'Result unavailable: Dataview gives no text result for JavaScript blocks, and Strata does not run them. Only the code is sent.');
  }
  if (!dataview) {
    return item(`${name} (results unavailable)`, 'Results unavailable: the Dataview plugin is not enabled. Only the query text is sent.');
  }
  const answer = await dataview.queryMarkdown(block.query, path);
  if (!answer.ok) return item(`${name} (query failed)`, `Results unavailable: Dataview could not run this query (${answer.error.trim()}).`);
  const result = answer.markdown.trim();
  return item(name, `Result (from Dataview):\n${result === '' ? '(no results)' : result}`);
}
