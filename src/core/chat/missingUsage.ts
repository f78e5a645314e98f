import type { ChatTurn } from '../conversation/model';

/**
 * An answered turn with no usage recorded: imported (another app answered it, e.g. a Copilot chat;
 * such turns name no provider) or saved without it. Said in words, never as "0 in · 0 out".
 */
export function missingUsage(turn: ChatTurn): { readonly short: string; readonly long: string } | null {
  if (turn.usage) return null;
  return turn.provider === undefined
    ? { short: 'imported', long: 'Imported: answered in another app, so no usage or cost was recorded for this reply.' }
    : { short: 'usage not recorded', long: 'No usage or cost was recorded for this reply.' };
}
