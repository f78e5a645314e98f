import { z } from 'zod';
import { proposalOf } from '../../edits/lineDiff';
import { submitProposal } from '../submitEdit';
import { findHeadings, headingPaths, headingsOf, noteLines, sectionRange } from '../noteText';
import { defineTool, errorText } from '../tool';
import { existingNote, proposalId } from './writeTarget';
import { WRITE_LIMIT_CHARS } from './createNote';

/** The note's line break ('\r\n' when it uses them). */
function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * `content` added at the end of the note, or at the end of a heading's section (after its last
 * non-blank line, before the next heading of the same or a higher level). Its own line(s) always.
 */
export function appendText(text: string, content: string, heading?: string): { text: string } | { error: string } {
  const eol = eolOf(text);
  const added = content.replace(/\r?\n/g, eol).replace(/(\r?\n)+$/, '');
  if (heading === undefined) {
    if (text === '') return { text: added + eol };
    const body = text.endsWith('\n') ? text : text + eol;
    return { text: body + added + eol };
  }
  const headings = headingsOf(text);
  const found = findHeadings(headings, heading);
  if (found.length === 0) {
    const paths = headingPaths(headings).map((p) => p.join(' › '));
    return { error: `no heading "${heading}"; ${paths.length === 0 ? 'the note has no headings' : `its headings are: ${paths.slice(0, 60).join('; ')}`}.` };
  }
  if (found.length > 1) return { error: `${found.length} headings are called "${heading}"; name the one meant by its path ("Parent > Child").` };
  const lines = noteLines(text);
  const { end } = sectionRange(lines, headings, found[0]);
  // `end` is the section's last non-blank line (1-based): the new lines go right after it.
  const before = lines.slice(0, end);
  const after = lines.slice(end);
  const trailing = text.endsWith('\n') || text === '' ? eol : '';
  return { text: [...before, added, ...after].join(eol) + trailing };
}

export const appendToNote = defineTool({
  name: 'appendToNote',
  description:
    'Add text to an existing note: at its end, or at the end of one heading\'s section (give `heading`). The text goes on its own lines. The user reviews it before it is written.',
  schema: () => z.object({
    path: z.string().trim().min(1).describe('The note: its vault-relative path, or its name when unique.'),
    content: z.string().min(1).max(WRITE_LIMIT_CHARS).describe('The markdown to add.'),
    heading: z.string().trim().min(1).optional().describe('Add at the end of this heading\'s section (the heading text without "#"; "Parent > Child" for a nested one).'),
  }),
  async run(args, ctx) {
    const target = await existingNote(ctx, args.path);
    if ('error' in target) return target.error;
    const appended = appendText(target.text, args.content, args.heading);
    if ('error' in appended) return errorText(`appendToNote ${target.path}: ${appended.error}`);
    const proposal = proposalOf({ id: proposalId(ctx), kind: 'append', path: target.path, baseText: target.text, proposedText: appended.text, toolCallId: proposalId(ctx) });
    return submitProposal(target.session, proposal, ctx.signal);
  },
});
