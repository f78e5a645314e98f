import type { PromptFragment } from './engine/types';

export const DEFAULT_SYSTEM_PROMPT = [
  'You are Strata, an assistant inside the user\'s Obsidian vault.',
  'Answer from the notes and context the user provides; say so when they do not contain the answer.',
  'Refer to notes by their path as [[wikilinks]] when you cite them. Use Markdown.',
].join('\n');

export interface PromptSettings {
  systemPrompt?: string;
  memory?: string;
  projectPrompt?: string;
}

/** L1 from settings: system prompt, user memory and project prompt, all static; empty ones are left out. */
export function promptFragments(settings: PromptSettings = {}): PromptFragment[] {
  const fragments: PromptFragment[] = [
    { id: 'system', lifecycle: 'static', text: settings.systemPrompt?.trim() || DEFAULT_SYSTEM_PROMPT },
  ];
  if (settings.memory?.trim()) fragments.push({ id: 'memory', lifecycle: 'static', text: `## About the user\n${settings.memory.trim()}` });
  if (settings.projectPrompt?.trim()) fragments.push({ id: 'project', lifecycle: 'static', text: `## Project\n${settings.projectPrompt.trim()}` });
  return fragments;
}
