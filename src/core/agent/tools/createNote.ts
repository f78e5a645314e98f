import { z } from 'zod';
import { proposalOf } from '../../edits/lineDiff';
import { submitProposal, writablePath } from '../submitEdit';
import { defineTool, errorText } from '../tool';
import { proposalId, sessionOf } from './writeTarget';

/** The most characters a write tool takes in one call (a note's worth; larger ones are split by the model). */
export const WRITE_LIMIT_CHARS = 200_000;

export const createNote = defineTool({
  name: 'createNote',
  description:
    'Create a new note with the given markdown content. Never overwrites: fails when a note or folder already has that path. ' +
    'The user reviews the new note before it is written (unless their write policy applies it without asking); the result says whether it was created.',
  schema: () => z.object({
    path: z.string().trim().min(1).describe('Vault-relative path of the new note, e.g. "Projects/Plan.md" (".md" is added when missing).'),
    content: z.string().max(WRITE_LIMIT_CHARS).describe('The whole note, markdown (frontmatter included, if any).'),
  }),
  async run(args, ctx) {
    const session = sessionOf(ctx);
    if ('error' in session) return session.error;
    const checked = writablePath(session, args.path);
    if ('error' in checked) return errorText(checked.error);
    if (await session.writer.exists(checked.path)) return errorText(`${checked.path} already exists: createNote never overwrites. Change it with editNote or appendToNote, or pick another path.`);
    const proposal = proposalOf({ id: proposalId(ctx), kind: 'create', path: checked.path, baseText: '', proposedText: args.content, toolCallId: proposalId(ctx) });
    return submitProposal(session, proposal, ctx.signal);
  },
});
