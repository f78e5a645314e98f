import { PLACEHOLDER, type CustomPrompt } from './promptNote';

/** What a prompt's placeholders are filled with when it runs. */
export interface PromptContext {
  /** The text selected in the editor (null or blank: nothing selected). */
  readonly selection: string | null;
  /** The note open in the editor and the link that names it, e.g. `[[Plan]]` (null: none). */
  readonly activeNote: { readonly path: string; readonly link: string } | null;
  /** The words typed after `/name` (empty: none). */
  readonly input: string;
}

export type PromptExpansion =
  | {
      readonly ok: true;
      /** The message to put in the composer, for the user to review and send. */
      readonly text: string;
      /** Notes to attach to it (the active note, for `{activeNote}`). */
      readonly attach: readonly string[];
      /** Where the caret goes: the first `{input}` left empty (null: at the end). */
      readonly caret: number | null;
    }
  | { readonly ok: false; readonly error: string };

/** The longest message a prompt may expand to (a note attached in full may hold as much). */
export const MAX_EXPANDED_CHARS = 1_000_000;

/** The expanded text's length, counted without building it. */
function expandedSize(prompt: CustomPrompt, selection: string, link: string, input: string): number {
  let size = prompt.template.length;
  for (const m of prompt.template.matchAll(PLACEHOLDER)) {
    const name = m[1].toLowerCase();
    size += (name === 'input' ? input.length : name === 'activenote' ? link.length : selection.length) - m[0].length;
    if (size > MAX_EXPANDED_CHARS) return size;
  }
  return input && !prompt.uses.input ? size + 2 + input.length : size;
}

/**
 * Fill a prompt's placeholders (once: placeholders in what they are filled with stay as they are,
 * so neither a selection nor a prompt can make an expansion recurse):
 * - `{selection}` (or `{}`, as in Copilot's prompts) becomes the selected text itself;
 * - `{activeNote}` becomes a link to the note (`[[Plan]]`) and the note is attached as context, so its
 *   text goes to the model once, in the Context Library, instead of being pasted into the message;
 * - `{input}` becomes the words typed after `/name`; left empty, the caret waits there. Typed
 *   words with no `{input}` to go to are added after the prompt's text.
 * Other braces are left as they are. A prompt that needs a selection or a note that is not there
 * says so instead of sending half a prompt.
 */
export function expandPrompt(prompt: CustomPrompt, context: PromptContext): PromptExpansion {
  const selection = context.selection?.trim() ? context.selection : null;
  const missing: string[] = [];
  if (prompt.uses.selection && selection === null) missing.push('{selection}: select text in a note');
  if (prompt.uses.activeNote && context.activeNote === null) missing.push('{activeNote}: open a note');
  if (missing.length > 0) return { ok: false, error: `The prompt "${prompt.name}" uses ${missing.join(', and ')}, then run it again.` };

  const input = context.input.trim();
  // A hostile note (thousands of placeholders) and a long selection would multiply into gigabytes:
  // the size is known before anything is built, and a prompt over the limit says so.
  const size = expandedSize(prompt, selection ?? '', context.activeNote?.link ?? '', input);
  if (size > MAX_EXPANDED_CHARS) {
    return { ok: false, error: `The prompt "${prompt.name}" would make a message of ${size.toLocaleString('en-US')} characters (at most ${MAX_EXPANDED_CHARS.toLocaleString('en-US')}): select less text, or use fewer placeholders.` };
  }
  let caret: number | null = null;
  let out = '';
  let last = 0;
  for (const m of prompt.template.matchAll(PLACEHOLDER)) {
    out += prompt.template.slice(last, m.index);
    const name = m[1].toLowerCase();
    if (name === 'input') {
      if (!input && caret === null) caret = out.length;
      out += input;
    } else if (name === 'activenote') {
      out += context.activeNote?.link ?? '';
    } else {
      out += selection ?? '';
    }
    last = m.index + m[0].length;
  }
  out += prompt.template.slice(last);
  if (input && !prompt.uses.input) out = `${out}\n\n${input}`;
  const attach = prompt.uses.activeNote && context.activeNote ? [context.activeNote.path] : [];
  return { ok: true, text: out, attach, caret };
}
