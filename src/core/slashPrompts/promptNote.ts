import { parseYaml, splitFrontmatter } from '../markdown/frontmatter';

/** The placeholders a prompt's text may hold (see expand.ts). */
export interface PromptUses {
  /** `{selection}` or Copilot's `{}`: the text selected in the editor. */
  readonly selection: boolean;
  /** `{activeNote}`: the note open in the editor, named and attached. */
  readonly activeNote: boolean;
  /** `{input}`: the words typed after `/name` in the composer. */
  readonly input: boolean;
}

/** A custom prompt: one note in the prompts folder. */
export interface CustomPrompt {
  /** The note's name (without `.md`): `/name` in the composer, "Run prompt: name" as a command. */
  readonly name: string;
  readonly path: string;
  /** From the frontmatter's `description` (empty when it has none). */
  readonly description: string;
  /** The note's text after its frontmatter, trimmed. */
  readonly template: string;
  readonly uses: PromptUses;
}

/** A prompt note that cannot be used, and why (in words for the user). */
export interface PromptProblem {
  readonly name: string;
  readonly path: string;
  readonly problem: string;
}

export type PromptNoteResult = { readonly ok: true; readonly prompt: CustomPrompt; readonly warnings: readonly string[] } | { readonly ok: false; readonly problem: PromptProblem };

/** Placeholder names, matched case-insensitively; `{}` is Copilot's name for the selection. */
export const PLACEHOLDER = /\{(selection|activenote|input|)\}/gi;

/** The longest prompt note read: a prompt is a message's worth of text, not a book. */
export const MAX_PROMPT_NOTE_CHARS = 200_000;

export function promptName(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1);
  return file.replace(/\.md$/i, '');
}

export function placeholdersIn(template: string): PromptUses {
  const found = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) found.add(m[1].toLowerCase());
  return { selection: found.has('selection') || found.has(''), activeNote: found.has('activenote'), input: found.has('input') };
}

/**
 * Read one prompt note. Its name is the prompt's name; the frontmatter is optional (`description`
 * is shown in the `/` picker); the body is the prompt's text. A note that cannot be a prompt (its
 * frontmatter is broken, it has no text) says why instead.
 */
export function parsePromptNote(path: string, text: string): PromptNoteResult {
  const name = promptName(path);
  const fail = (problem: string): PromptNoteResult => ({ ok: false, problem: { name, path, problem } });
  if (!name.trim()) return fail('the note has no name');
  if (text.length > MAX_PROMPT_NOTE_CHARS) return fail(`the note is ${text.length.toLocaleString('en-US')} characters long, over the ${MAX_PROMPT_NOTE_CHARS.toLocaleString('en-US')} a prompt may have`);
  const split = splitFrontmatter(text);
  if (split.yaml === null && /^\ufeff?---[ \t]*\r?\n/.test(text)) return fail('its frontmatter has no closing ---');
  const warnings: string[] = [];
  let description = '';
  if (split.yaml !== null) {
    const parsed = parseYaml(split.yaml);
    // The YAML parser's first line ends with a colon that introduces its excerpt, which is not shown.
    if (parsed.value === null) return fail((parsed.error ?? 'its frontmatter cannot be read').replace(/:\)$/, ')'));
    const raw = parsed.value.description;
    if (typeof raw === 'string') description = raw.trim().replace(/\s+/g, ' ');
    else if (raw !== undefined && raw !== null) warnings.push(`${name}: description is not text, so it is not shown`);
  }
  const template = split.body.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  if (!template.trim()) return fail('the note has no prompt text (write it below the frontmatter)');
  return { ok: true, prompt: { name, path, description, template, uses: placeholdersIn(template) }, warnings };
}
