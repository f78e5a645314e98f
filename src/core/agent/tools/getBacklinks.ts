import { z } from 'zod';
import { UnreadableNoteError } from '../../context/vaultReader';
import { LinkResolver, linksIn } from '../links';
import { defineTool, errorText, throwIfAborted } from '../tool';
import { VaultView } from '../vaultView';
import { resolveForTool } from './readNote';

export const BACKLINK_LIMIT_NOTES = 200;
/** Notes whose linking line is quoted (each costs a read); the rest are listed by path only. */
export const BACKLINK_QUOTED_NOTES = 50;
const QUOTE_CHARS = 200;

export const getBacklinks = defineTool({
  name: 'getBacklinks',
  description:
    'List the other notes that link to a note (wikilinks [[…]], embeds ![[…]] and markdown links), sorted by path, each with its line number and the text of the first line that links. ' +
    `Use it to find what else the vault says about a note's subject, or where a note is used. At most ${BACKLINK_LIMIT_NOTES} notes are listed.`,
  schema: () => z.object({
    path: z.string().trim().min(1).describe('The note to find links to: its vault-relative path, or its name when unique.'),
  }),
  async run({ path: input }, ctx) {
    if (!ctx.host.backlinks) return errorText('this app cannot tell which notes link to a note; use localSearch with the note\'s name instead.');
    const view = new VaultView(ctx.host);
    const resolved = await resolveForTool(view, input);
    if ('error' in resolved) return resolved.error;
    const target = resolved.path;
    const sources = await ctx.host.backlinks(target);
    throwIfAborted(ctx.signal);
    if (sources === null) return errorText(`the links to ${target} are not known yet (the app is still indexing); try again later, or use localSearch with the note's name.`);
    // A note's links to itself (a table of contents, "see below") are not backlinks.
    const visible = sources.filter((s) => s !== target && view.isVisible(s));
    if (visible.length === 0) return `No notes link to ${target}.`;
    const resolver = new LinkResolver(await ctx.host.vault.listMarkdown());
    const lines = [`${visible.length} note${visible.length === 1 ? ' links' : 's link'} to ${target}:`];
    for (const [i, source] of visible.slice(0, BACKLINK_LIMIT_NOTES).entries()) {
      const quote = i < BACKLINK_QUOTED_NOTES && source.toLowerCase().endsWith('.md') ? await linkingLine(ctx.host.vault.read.bind(ctx.host.vault), source, target, resolver) : null;
      lines.push(quote ? `- ${source} (line ${quote.line}): ${quote.text}` : `- ${source}`);
      throwIfAborted(ctx.signal);
    }
    if (visible.length > BACKLINK_LIMIT_NOTES) lines.push(`… ${visible.length - BACKLINK_LIMIT_NOTES} more not listed (${visible.length} in all).`);
    return lines.join('\n');
  },
});

/** The first line of source that links to target, trimmed and shortened; null when none is found. */
async function linkingLine(
  read: (path: string) => Promise<string | null>,
  source: string,
  target: string,
  resolver: LinkResolver,
): Promise<{ line: number; text: string } | null> {
  let text: string | null;
  try {
    text = await read(source);
  } catch (error) {
    if (error instanceof UnreadableNoteError) return null;
    throw error;
  }
  if (text === null) return null;
  const link = linksIn(text).find((l) => resolver.resolve(l, source) === target);
  if (!link) return null;
  const line = text.split(/\r\n?|\n/)[link.line - 1].replace(/\s+/g, ' ').trim();
  return { line: link.line, text: line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line };
}
