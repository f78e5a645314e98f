import { citationParts, hasCitation, sourceLink, sourceTitle } from '../../core/vaultQa/citations';
import { sourceLabel } from '../../core/vaultQa/localSearchBlock';
import type { TurnSearch } from '../../core/conversation/records/search';
import { formatUsd } from './format';

export const UNVERIFIED =
  'Unverified: this number is not among the sources the vault search gave for this answer.';

/** Elements whose text is not prose: a `[1]` there is code or already a link. */
const SKIP = new Set(['CODE', 'PRE', 'A', 'BUTTON']);

/**
 * A rendered answer's `[1]`, `[2]` become links to the sources (the note at the heading, opened by
 * the message list's internal-link handler); a number that was not among the sources given becomes
 * an unverified mark (its own style and tooltip). Only text nodes change: the markdown's own
 * elements stay as rendered.
 */
export function linkCitations(body: HTMLElement, search: TurnSearch): void {
  if (!hasCitation(body.textContent ?? '')) return;
  const sources = search.sources;
  const walker = body.ownerDocument.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.instanceOf(Text) || !hasCitation(node.data)) continue;
    let skip = false;
    for (let el = node.parentElement; el && el !== body; el = el.parentElement) if (SKIP.has(el.tagName)) skip = true;
    if (!skip) nodes.push(node);
  }
  for (const node of nodes) {
    const fragment = createFragment();
    for (const part of citationParts(node.data, sources)) {
      if (!('n' in part)) {
        fragment.append(part.text);
      } else if (part.source) {
        const link = sourceLink(part.source);
        const a = createEl('a', { cls: 'internal-link strata-citation', text: part.text, href: link });
        a.setAttr('data-href', link);
        a.setAttr('aria-label', `Source ${part.n}: ${sourceLabel(part.source)}`);
        fragment.append(a);
      } else {
        const mark = createSpan({ cls: 'strata-citation is-unverified', text: part.text });
        mark.setAttr('tabindex', '0');
        mark.setAttr('aria-label', UNVERIFIED);
        mark.setAttr('title', UNVERIFIED);
        fragment.append(mark);
      }
    }
    node.replaceWith(fragment);
  }
}

/** The numbered sources under an answer: note and heading, each a link (Tab reaches them; Enter opens). */
export function renderSources(parent: HTMLElement, search: TurnSearch): void {
  const box = parent.createDiv({ cls: 'strata-sources' });
  if (search.sources.length === 0) {
    box.createDiv({ cls: 'strata-sources-title', text: 'Sources: nothing relevant found in the vault' });
    return;
  }
  box.createDiv({ cls: 'strata-sources-title', text: 'Sources' });
  const list = box.createEl('ol', { cls: 'strata-sources-list' });
  search.sources.forEach((source, i) => {
    const item = list.createEl('li', { cls: 'strata-source' });
    item.createSpan({ cls: 'strata-source-number', text: `[${i + 1}]` });
    const link = sourceLink(source);
    const a = item.createEl('a', { cls: 'internal-link strata-source-link', text: sourceTitle(source), href: link });
    a.setAttr('data-href', link);
    a.setAttr('aria-label', `Open ${sourceLabel(source)}`);
    item.createSpan({ cls: 'strata-source-path', text: source.path });
  });
}

/** The turn's search in words, for the turn's details: the query, and how it was made. */
export function searchDetail(search: TurnSearch): string[] {
  const lines = [`Vault search: "${search.query}" (${search.sources.length} source${search.sources.length === 1 ? '' : 's'})`];
  const r = search.rewrite;
  if (r?.status === 'rewritten') {
    const usage = r.usage ? `, ${r.usage.inputTokens} tokens in, ${r.usage.outputTokens} out` : '';
    lines.push(`Query rewritten from your message by ${r.model ?? 'the summary model'}${usage}, ${formatUsd(r.cost ?? null)}`);
  } else if (r?.status === 'cached') {
    lines.push('Query rewritten earlier for the same message (reused, no new call)');
  } else if (r?.status === 'failed') {
    lines.push(`Query rewrite failed (${r.detail ?? 'unknown'}): your message was searched as typed`);
  }
  return lines;
}
