import { parsePromptNote, type CustomPrompt, type PromptProblem } from './promptNote';

export interface PromptNoteFile {
  readonly path: string;
  readonly text: string;
}

/** The usable prompts (sorted by name) and the notes that could not be read as prompts. */
export interface PromptLibrary {
  readonly prompts: readonly CustomPrompt[];
  readonly problems: readonly PromptProblem[];
  /** Things left out of a usable prompt (a description that is not text). */
  readonly warnings: readonly string[];
}

export const EMPTY_LIBRARY: PromptLibrary = { prompts: [], problems: [], warnings: [] };

/** "Strata/Prompts/" → "Strata/Prompts": no leading, trailing or doubled slashes ('' is the vault's root). */
export function normalizePromptsFolder(folder: string): string {
  return folder
    .replace(/\\/g, '/')
    .split('/')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** A markdown note in the folder or one of its subfolders. */
export function isPromptNotePath(folder: string, path: string): boolean {
  const f = normalizePromptsFolder(folder);
  if (!/\.md$/i.test(path)) return false;
  return f === '' || path.startsWith(`${f}/`);
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Read every prompt note. A broken note is reported and left out; the others are unaffected. Two
 * notes with the same name (in different subfolders, or differing only in case) cannot both be
 * `/name`: the one nearest the folder's top (then first by path) is kept, the other is reported.
 */
export function loadPrompts(files: readonly PromptNoteFile[]): PromptLibrary {
  const prompts: CustomPrompt[] = [];
  const problems: PromptProblem[] = [];
  const warnings: string[] = [];
  const taken = new Map<string, string>();
  const depth = (path: string): number => path.split('/').length;
  // A note nearer the folder's top wins a shared name over one in a subfolder.
  for (const file of [...files].sort((a, b) => depth(a.path) - depth(b.path) || byString(a.path, b.path))) {
    const result = parsePromptNote(file.path, file.text);
    if (!result.ok) {
      problems.push(result.problem);
      continue;
    }
    const key = result.prompt.name.toLowerCase();
    const first = taken.get(key);
    if (first !== undefined) {
      problems.push({ name: result.prompt.name, path: file.path, problem: `another prompt note has the same name (${first})` });
      continue;
    }
    taken.set(key, file.path);
    prompts.push(result.prompt);
    warnings.push(...result.warnings);
  }
  prompts.sort((a, b) => byString(a.name.toLowerCase(), b.name.toLowerCase()) || byString(a.name, b.name));
  problems.sort((a, b) => byString(a.path, b.path));
  return { prompts, problems, warnings };
}

/**
 * Stable command ids, one per prompt: `run-prompt-<name in lowercase words joined by dashes>`
 * ("Fix grammar" → run-prompt-fix-grammar). Names that make the same id get -2, -3… in name order.
 */
export function promptCommandIds(prompts: readonly CustomPrompt[]): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const prompt of prompts) {
    const slug =
      prompt.name
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-+|-+$/g, '') || 'prompt';
    let id = `run-prompt-${slug}`;
    for (let n = 2; used.has(id); n++) id = `run-prompt-${slug}-${n}`;
    used.add(id);
    ids.set(prompt.name, id);
  }
  return ids;
}
