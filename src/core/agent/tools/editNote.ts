import { z } from 'zod';
import { proposalOf } from '../../edits/lineDiff';
import { submitProposal } from '../submitEdit';
import { defineTool, errorText } from '../tool';
import { existingNote, proposalId } from './writeTarget';
import { WRITE_LIMIT_CHARS } from './createNote';

/** Where `needle` occurs in `text` (at most two: enough to tell missing, unique and ambiguous). */
function occurrences(text: string, needle: string): number[] {
  const first = text.indexOf(needle);
  if (first < 0) return [];
  const second = text.indexOf(needle, first + 1);
  return second < 0 ? [first] : [first, second];
}

/**
 * Search/replace blocks applied in order to the note's text: each search must be found exactly once
 * (in the text as the blocks before it left it). An error names the block and what went wrong.
 */
export function replaceBlocks(text: string, blocks: readonly { search: string; replace: string }[]): { text: string } | { error: string } {
  let out = text;
  for (const [i, block] of blocks.entries()) {
    const n = i + 1;
    if (block.search === '') return { error: `block ${n}: search is empty. To add text, include the line before it in search, or use appendToNote.` };
    // A model often copies Windows line ends as \n: try the note's own line ends too.
    let search = block.search;
    let replace = block.replace;
    if (!out.includes(search) && out.includes('\r\n') && !search.includes('\r\n')) {
      search = search.replace(/\n/g, '\r\n');
      replace = replace.replace(/\r?\n/g, '\r\n');
    }
    const found = occurrences(out, search);
    if (found.length === 0) return { error: `block ${n}: its search text is not in the note (it must match exactly, spaces and line breaks included). Read the note again and copy the text.` };
    if (found.length > 1) return { error: `block ${n}: its search text occurs more than once; add lines around it so it matches one place only.` };
    out = out.slice(0, found[0]) + replace + out.slice(found[0] + search.length);
  }
  return { text: out };
}

export const editNote = defineTool({
  name: 'editNote',
  description:
    'Change an existing note by search/replace blocks, applied in order. Each `search` must be copied exactly from the note (as readNote shows it, without the line numbers) and occur exactly once; ' +
    'it is replaced by `replace` (empty to delete). Keep blocks small: a few lines around each change. The user reviews the changes hunk by hunk; the result says what was applied, rejected or not applied.',
  schema: () => z.object({
    path: z.string().trim().min(1).describe('The note to change: its vault-relative path, or its name when unique.'),
    edits: z
      .array(
        z.object({
          search: z.string().max(WRITE_LIMIT_CHARS).describe('Exact text of the note to replace (unique in the note).'),
          replace: z.string().max(WRITE_LIMIT_CHARS).describe('The text to put in its place.'),
        }),
      )
      .min(1)
      .max(50)
      .describe('The search/replace blocks, in order.'),
  }),
  async run(args, ctx) {
    const target = await existingNote(ctx, args.path);
    if ('error' in target) return target.error;
    const replaced = replaceBlocks(target.text, args.edits);
    if ('error' in replaced) return errorText(`editNote ${target.path}: ${replaced.error}`);
    if (replaced.text === target.text) return errorText(`editNote ${target.path}: the blocks change nothing.`);
    const proposal = proposalOf({ id: proposalId(ctx), kind: 'edit', path: target.path, baseText: target.text, proposedText: replaced.text, toolCallId: proposalId(ctx) });
    return submitProposal(target.session, proposal, ctx.signal);
  },
});
