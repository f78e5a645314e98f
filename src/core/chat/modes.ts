import type { PromptFragment } from '../engine/types';
import type { ChatMode } from '../settings/settings';

export interface ModeInfo {
  readonly id: ChatMode;
  readonly label: string;
  readonly description: string;
}

export const MODES: readonly ModeInfo[] = [
  { id: 'chat', label: 'Chat', description: 'Talk about anything; attached notes are context.' },
  { id: 'notes-only', label: 'Notes only', description: 'Answer only from the attached notes, and say when they do not contain the answer.' },
  // Its guidance travels in each search's localSearch block (src/core/vaultQa), not in a mode fragment.
  { id: 'vault-qa', label: 'Vault QA', description: 'Search the whole vault with each message and answer from what is found, citing the notes as [1], [2].' },
  {
    id: 'agent',
    label: 'Agent',
    description: 'The model uses read-only vault tools (search, read a note, list a folder, tags, backlinks, the active note, fetch a URL) step by step, then answers with citations.',
  },
];

/** The modes that need the model to call tools: unavailable on providers without tool calling. */
export const TOOL_MODES: readonly ChatMode[] = ['agent'];

/** Why a mode cannot run on a provider, or null when it can. */
export function modeUnavailable(mode: ChatMode, capabilities: { readonly toolCalling: boolean }, kind?: string): string | null {
  if (!TOOL_MODES.includes(mode) || capabilities.toolCalling) return null;
  if (kind === 'codex') return 'The Codex CLI runs read-only here and Strata sees only its text: the Agent mode needs a provider with tool calling (OpenAI, Anthropic, Responses, or a compatible endpoint that supports tools).';
  return kind === 'claude-code'
    ? 'Claude Code runs its own tools: the Agent mode needs a provider with tool calling (OpenAI, Anthropic, Responses, or a compatible endpoint that supports tools).'
    : 'This model does not support tool calling, so the Agent mode cannot run on it: pick another model or mode.';
}

/** The Agent mode's instruction: the tools are the model's own to use, and what it cites must come from them. */
export const AGENT_INSTRUCTION =
  "Mode: agent. You can call read-only tools to look into the user's Obsidian vault (search it, read notes or sections, list folders, find notes by tag, see backlinks and the open note) and to fetch web pages. Use them when the answer depends on the user's notes; read the most relevant notes before answering rather than guessing. When you use search results, cite them as [1], [2] with the numbers the search gave. Answer in the user's language.";

/**
 * The mode's instruction, if any. Dynamic: it travels with the turn's user message, so switching
 * modes never breaks the cached prefix.
 */
export function modeFragments(mode: ChatMode): PromptFragment[] {
  if (mode === 'agent') return [{ id: 'mode', lifecycle: 'dynamic', text: AGENT_INSTRUCTION }];
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
