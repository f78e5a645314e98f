/**
 * "Edit with Strata…" (issue 28): the apply model rewrites a selection by the user's instruction.
 * It sees a little text around the selection, so the rewrite fits where it goes, and answers with
 * the selection's new text only.
 */
import type { ChatMessage } from '../engine/messages';
import { rewriteOf } from './applyModel';

/** The system prompt's first line: the local provider server recognises a selection edit by it. */
export const SELECTION_MARKER = 'You edit a selected passage of a note.';

/** Characters of the note shown before and after the selection. */
export const SURROUNDING_CHARS = 1_500;

export interface SelectionInput {
  readonly path: string;
  readonly selection: string;
  readonly instruction: string;
  /** The note's text before and after the selection (trimmed to SURROUNDING_CHARS here). */
  readonly before: string;
  readonly after: string;
}

export function selectionMessages(input: SelectionInput): ChatMessage[] {
  const system = [
    SELECTION_MARKER,
    `The passage is from the note "${input.path}". Rewrite it as the instruction says.`,
    'Answer with the new text of the passage only: no explanation, no code fence around it, nothing from around the passage.',
    'Keep what the instruction does not ask to change exactly as it is (markdown, links, line breaks).',
  ].join('\n');
  const before = input.before.slice(-SURROUNDING_CHARS);
  const after = input.after.slice(0, SURROUNDING_CHARS);
  const user = `Instruction: ${input.instruction.trim()}\n\nText before the passage:\n<before>\n${before}\n</before>\n\nPassage:\n<passage>\n${input.selection}\n</passage>\n\nText after the passage:\n<after>\n${after}\n</after>`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** The passage's new text from the answer (a code fence around it dropped; a final newline only where the selection had one). */
export function selectionResult(selection: string, answer: string): string {
  return rewriteOf(selection, answer);
}
