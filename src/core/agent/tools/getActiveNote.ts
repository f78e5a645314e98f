import { z } from 'zod';
import { defineTool, errorText } from '../tool';
import { VaultView } from '../vaultView';
import { READ_LIMIT_CHARS, renderNote } from './readNote';

export const NO_ACTIVE_NOTE = 'No note is open in the editor.';

export const getActiveNote = defineTool({
  name: 'getActiveNote',
  description:
    'Read the note the user has open in the editor: its path, then its text with a header line "path (lines a-b of N)". ' +
    'Use it when the user says "this note", "the current note" or "here" without naming it. ' +
    `At most ${READ_LIMIT_CHARS} characters come back; read the rest with readNote. Says so when no note is open.`,
  schema: () => z.object({}),
  async run(_args, ctx) {
    if (!ctx.host.activeNote) return errorText('this app cannot tell which note is open; ask the user to name the note.');
    const path = await ctx.host.activeNote();
    if (path === null) return NO_ACTIVE_NOTE;
    const view = new VaultView(ctx.host);
    const visibility = view.visibility(path);
    if (visibility !== 'visible') return errorText(`the open note cannot be read: ${view.refusal(path, visibility)}`);
    const text = await ctx.host.vault.read(path);
    if (text === null) return errorText(`the open note ${path} could not be read.`);
    return `The note open in the editor is ${path}.\n${renderNote(path, text)}`;
  },
});
