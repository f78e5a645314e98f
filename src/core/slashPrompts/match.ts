import { fuzzyFilter } from '../fuzzy';
import type { CustomPrompt, PromptProblem } from './promptNote';

/** A prompt offered by the `/` picker, with the words typed after its name (its `{input}`). */
export interface SlashMatch {
  readonly prompt: CustomPrompt;
  readonly input: string;
}

/**
 * The `/` query when the composer's text before the caret is a slash command: a `/` at the start
 * of the message, then one line. Null otherwise (a `/` later in a message is just a slash).
 */
export function slashQuery(beforeCaret: string): string | null {
  const m = /^\s*\/([^\n]*)$/.exec(beforeCaret);
  return m ? m[1] : null;
}

/**
 * Prompts for `/query`, best first. Names are matched fuzzily ("fxgr" finds "Fix grammar"); names
 * the query starts ("Fix gr") come first. A query that is a whole name and more ("Translate
 * Bonjour") also offers that prompt, with the rest as its input.
 */
export function matchSlash(query: string, prompts: readonly CustomPrompt[], limit = 12): SlashMatch[] {
  const q = query.trimStart().toLowerCase();
  let named: SlashMatch | null = null;
  for (const prompt of prompts) {
    const name = prompt.name.toLowerCase();
    if (q.length > name.length && q.startsWith(name) && /\s/.test(q[name.length]) && (!named || name.length > named.prompt.name.length)) {
      named = { prompt, input: query.trimStart().slice(name.length).trim() };
    }
  }
  const fuzzy = q.trim() ? fuzzyFilter(q, prompts.map((p) => ({ item: p, text: p.name })), limit) : prompts.slice(0, limit);
  const starts = fuzzy.filter((p) => p.name.toLowerCase().startsWith(q));
  const others = fuzzy.filter((p) => !p.name.toLowerCase().startsWith(q) && p !== named?.prompt);
  const out: SlashMatch[] = starts.map((prompt) => ({ prompt, input: '' }));
  if (named && !starts.includes(named.prompt)) out.push(named);
  out.push(...others.map((prompt) => ({ prompt, input: '' })));
  return out.slice(0, limit);
}

/** Prompt notes that could not be read, whose names match the query: the picker says why they are missing. */
export function matchProblems(query: string, problems: readonly PromptProblem[]): PromptProblem[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...problems];
  return fuzzyFilter(q, problems.map((p) => ({ item: p, text: p.name })), problems.length);
}
