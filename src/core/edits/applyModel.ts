/**
 * "Apply to note" (issue 28): the apply model turns a chat reply into the note as it should be.
 * A small note is rewritten whole (cheap, and with OpenAI's predicted outputs the unchanged text
 * streams back fast); a large one is changed by search/replace blocks, each of which must match
 * the note exactly once, so a model that misremembers a line fails loudly instead of writing it.
 */
import type { ChatMessage } from '../engine/messages';

/** The system prompt's first line: the local provider server recognises an apply request by it. */
export const APPLY_MARKER = 'You apply a chat reply to a note.';

/** Notes up to this many characters are rewritten whole; longer ones get search/replace blocks. */
export const WHOLE_NOTE_MAX_CHARS = 12_000;

export type ApplyMode = 'rewrite' | 'blocks';

export function applyModeFor(note: string): ApplyMode {
  return note.length <= WHOLE_NOTE_MAX_CHARS ? 'rewrite' : 'blocks';
}

const SEARCH = '<<<<<<< SEARCH';
const DIVIDER = '=======';
const REPLACE = '>>>>>>> REPLACE';

const REWRITE_RULES = [
  'Write the whole note as it should be once the reply is applied to it.',
  'Every part of the note the reply does not change stays exactly as it is: the same words, spacing, frontmatter, links and line breaks.',
  'Answer with the note\'s text only: no explanation before or after it, no code fence around it.',
].join('\n');

const BLOCK_RULES = [
  'The note is long: answer only with the changes, as search/replace blocks, one after another:',
  SEARCH,
  'lines copied exactly from the note, enough of them to match one place only',
  DIVIDER,
  'the lines that replace them',
  REPLACE,
  'To add text, search for the line next to where it goes and repeat that line in the replacement with the new text. To delete, leave the replacement empty.',
  'Write nothing outside the blocks.',
].join('\n');

/** The apply model's request: the note (with its path) and the reply to apply to it. */
export function applyMessages(path: string, note: string, reply: string, mode: ApplyMode): ChatMessage[] {
  const system = `${APPLY_MARKER}\nThe user chose to apply the reply below to the note "${path}".\n${mode === 'rewrite' ? REWRITE_RULES : BLOCK_RULES}`;
  const user = `Mode: ${mode}\nNote "${path}":\n<note>\n${note}\n</note>\n\nReply to apply:\n<reply>\n${reply}\n</reply>`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export interface SearchReplace {
  readonly search: string;
  readonly replace: string;
}

/** The search/replace blocks of a reply, in order; text outside them is ignored. */
export function parseBlocks(text: string): SearchReplace[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: SearchReplace[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].trim() !== SEARCH) {
      i++;
      continue;
    }
    const search: string[] = [];
    const replace: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== DIVIDER) search.push(lines[j++]);
    j++;
    while (j < lines.length && lines[j].trim() !== REPLACE) replace.push(lines[j++]);
    if (j >= lines.length) break; // An unfinished block is left out, never half applied.
    blocks.push({ search: search.join('\n'), replace: replace.join('\n') });
    i = j + 1;
  }
  return blocks;
}

export type ApplyAttempt = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** The note with every block applied in order; each search must match exactly once (the error says which did not). */
export function applyBlocks(note: string, blocks: readonly SearchReplace[]): ApplyAttempt {
  if (blocks.length === 0) return { ok: false, error: 'The apply model answered with no search/replace block.' };
  let text = note;
  for (const [n, block] of blocks.entries()) {
    const which = `Block ${n + 1} of ${blocks.length}`;
    if (block.search === '') return { ok: false, error: `${which} searches for nothing.` };
    const at = text.indexOf(block.search);
    if (at < 0) return { ok: false, error: `${which}: its text is not in the note.` };
    if (text.indexOf(block.search, at + 1) >= 0) return { ok: false, error: `${which}: its text is in the note more than once.` };
    text = text.slice(0, at) + block.replace + text.slice(at + block.search.length);
  }
  return { ok: true, text };
}

/** A whole-note answer without the code fence some models put around it anyway; the note's final newline kept as it was. */
export function rewriteOf(note: string, answer: string): string {
  let text = answer.replace(/\r\n?/g, '\n');
  const fenced = /^\s*(```+|~~~+)[^\n]*\n([\s\S]*?)\n\1\s*$/.exec(text);
  if (fenced) text = fenced[2];
  text = text.replace(/\n+$/, '');
  return note.endsWith('\n') ? `${text}\n` : text;
}

/** The note as proposed by the apply model's answer. */
export function proposedTextOf(note: string, answer: string, mode: ApplyMode): ApplyAttempt {
  if (mode === 'rewrite') {
    const text = rewriteOf(note, answer);
    return text.trim() === '' && note.trim() !== '' ? { ok: false, error: 'The apply model answered with an empty note.' } : { ok: true, text };
  }
  return applyBlocks(note, parseBlocks(answer));
}

/**
 * Whether OpenAI's predicted outputs (`prediction`) may be sent: Chat Completions only (not the
 * Responses API, not other endpoints), on the models OpenAI lists for it (GPT-4o and GPT-4.1
 * families); other models refuse the request.
 */
export function predictionSupported(kind: string, model: string): boolean {
  if (kind !== 'openai') return false;
  return /^(gpt-4o|gpt-4o-mini|gpt-4\.1|gpt-4\.1-mini|gpt-4\.1-nano)(-\d{4}-\d{2}-\d{2})?$/.test(model);
}
