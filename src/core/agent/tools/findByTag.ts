import { z } from 'zod';
import { UnreadableNoteError } from '../../context/vaultReader';
import { extractTags } from '../../context/tags';
import type { ToolHost } from '../../ports/toolHost';
import { defineTool, errorText, throwIfAborted } from '../tool';
import { VaultView } from '../vaultView';

export const TAG_LIMIT_NOTES = 200;

/** A tag as compared: no '#', lowercase (Obsidian's tags are case-insensitive). */
function bare(tag: string): string {
  return tag.trim().replace(/^#+/, '').toLowerCase();
}

/** A note's tags (frontmatter and inline), from the host's index when it has one, else from the text. */
async function tagsOf(host: ToolHost, path: string): Promise<string[]> {
  const indexed = await host.vault.tagsOf?.(path);
  if (indexed) return indexed.map(bare);
  try {
    return extractTags((await host.vault.read(path)) ?? '').map(bare);
  } catch (error) {
    if (error instanceof UnreadableNoteError) return []; // A binary or huge file carries no tags we can read.
    throw error;
  }
}

export const findByTag = defineTool({
  name: 'findByTag',
  description:
    'Find the notes that carry a tag (in their frontmatter `tags` or inline as #tag). Returns the number of notes and their paths, sorted; a note matched only through a nested tag shows it, e.g. "(#project/alpha)". ' +
    `Nested tags count by default: "project" also finds #project/alpha. At most ${TAG_LIMIT_NOTES} paths are listed. When no note has the tag, similar tags of the vault are suggested.`,
  schema: () => z.object({
    tag: z.string().trim().min(1).describe('The tag, with or without "#" (e.g. "project" or "#project/alpha").'),
    includeNested: z.boolean().optional().describe('Also match nested tags under it (#tag/child). Default true.'),
  }),
  async run({ tag, includeNested = true }, ctx) {
    const wanted = bare(tag);
    if (wanted === '' || /\s/.test(wanted)) return errorText(`"${tag}" is not a tag: a tag is one word (letters, digits, _, -, / for nesting), like "project/alpha".`);
    const view = new VaultView(ctx.host);
    const found: Array<{ path: string; via: string[] }> = [];
    const similar = new Set<string>();
    for (const path of await view.notes()) {
      throwIfAborted(ctx.signal);
      const tags = await tagsOf(ctx.host, path);
      if (tags.includes(wanted)) found.push({ path, via: [] });
      else {
        const nested = includeNested ? tags.filter((t) => t.startsWith(`${wanted}/`)) : [];
        if (nested.length > 0) found.push({ path, via: nested });
        else for (const t of tags) if (t.includes(wanted) || wanted.includes(t)) similar.add(t);
      }
    }
    const label = `#${wanted}`;
    if (found.length === 0) {
      const hints = [...similar].sort().slice(0, 20);
      return (
        `No notes are tagged ${label}${includeNested ? ' (nested tags included)' : ''}.` +
        (hints.length > 0 ? ` Similar tags in the vault: ${hints.map((t) => `#${t}`).join(', ')}.` : ' Try localSearch to find notes by their text.')
      );
    }
    const lines = [`${found.length} note${found.length === 1 ? ' is' : 's are'} tagged ${label}${includeNested ? ' (nested tags included)' : ''}:`];
    for (const { path, via } of found.slice(0, TAG_LIMIT_NOTES)) lines.push(via.length > 0 ? `- ${path} (${via.map((t) => `#${t}`).join(', ')})` : `- ${path}`);
    if (found.length > TAG_LIMIT_NOTES) lines.push(`… ${found.length - TAG_LIMIT_NOTES} more not listed (${found.length} in all): narrow the tag (a nested one) or use localSearch.`);
    return lines.join('\n');
  },
});
