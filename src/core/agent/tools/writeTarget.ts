import { writablePath } from '../submitEdit';
import type { EditSession } from '../../edits/editSession';
import { errorText, type ToolContext } from '../tool';
import { VaultView } from '../vaultView';
import { resolveForTool } from './readNote';

/**
 * The note a write tool changes: found like readNote finds it (inside the project, never a chat), then
 * checked against the write rules (no hidden or excluded folder), with its text now.
 */
export type WriteTarget = { readonly session: EditSession; readonly path: string; readonly text: string } | { readonly error: string };

export function sessionOf(ctx: ToolContext): EditSession | { error: string } {
  return ctx.edits ?? { error: errorText('writing notes is not allowed in this chat (its write policy is read-only).') };
}

export async function existingNote(ctx: ToolContext, input: string): Promise<WriteTarget> {
  const session = sessionOf(ctx);
  if ('error' in session) return session;
  const resolved = await resolveForTool(new VaultView(ctx.host), input);
  if ('error' in resolved) return resolved;
  const checked = writablePath(session, resolved.path);
  if ('error' in checked) return { error: errorText(checked.error) };
  const text = await session.writer.read(checked.path);
  if (text === null) return { error: errorText(`${checked.path} could not be read (it was deleted or moved?).`) };
  return { session, path: checked.path, text };
}

/** A proposal's id: the tool call's (unique within the chat: runToolCall sets it). */
export function proposalId(ctx: ToolContext): string {
  return ctx.callId ?? 'edit';
}
