import { z } from 'zod';
import { proposalOf } from '../../edits/lineDiff';
import { submitProposal, writablePath } from '../submitEdit';
import { defineTool, errorText } from '../tool';
import { existingNote, proposalId } from './writeTarget';

export const moveNote = defineTool({
  name: 'moveNote',
  description:
    'Rename a note or move it to another folder. Links to it are updated. Fails when a note already has the new path. The user reviews the move before it is done.',
  schema: () => z.object({
    path: z.string().trim().min(1).describe('The note to move: its vault-relative path, or its name when unique.'),
    newPath: z.string().trim().min(1).describe('Its new vault-relative path, e.g. "Archive/2024/Plan.md".'),
  }),
  async run(args, ctx) {
    const target = await existingNote(ctx, args.path);
    if ('error' in target) return target.error;
    const checked = writablePath(target.session, args.newPath);
    if ('error' in checked) return errorText(checked.error);
    if (checked.path === target.path) return errorText(`${target.path} is already at that path.`);
    if (await target.session.writer.exists(checked.path)) return errorText(`${checked.path} already exists: moveNote never replaces a note.`);
    const proposal = proposalOf({ id: proposalId(ctx), kind: 'rename', path: target.path, newPath: checked.path, baseText: target.text, proposedText: target.text, toolCallId: proposalId(ctx) });
    return submitProposal(target.session, proposal, ctx.signal);
  },
});
