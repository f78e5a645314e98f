import type { PromptFragment } from '../engine/types';
import type { ChatMode } from '../settings';

export interface ModeInfo {
  readonly id: ChatMode;
  readonly label: string;
  readonly description: string;
}

export const MODES: readonly ModeInfo[] = [
  { id: 'chat', label: 'Chat', description: 'Talk about anything; attached notes are context.' },
  { id: 'notes-only', label: 'Notes only', description: 'Answer only from the attached notes, and say when they do not contain the answer.' },
  // Its guidance travels in each search's localSearch block (src/core/qa), not in a mode fragment.
  { id: 'vault-qa', label: 'Vault QA', description: 'Search the whole vault with each message and answer from what is found, citing the notes as [1], [2].' },
];

/**
 * The mode's instruction, if any. Dynamic: it travels with the turn's user message, so switching
 * modes never breaks the cached prefix.
 */
export function modeFragments(mode: ChatMode): PromptFragment[] {
  if (mode === 'notes-only') {
    return [
      {
        id: 'mode',
        lifecycle: 'dynamic',
        text: 'Mode: notes only. Answer only from the context items provided in this conversation. If they do not contain the answer, say so plainly instead of using general knowledge.',
      },
    ];
  }
  return [];
}
