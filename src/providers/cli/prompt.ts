import { escapeContent, escapeTags } from '../../core/engine/escape';
import type { ChatMessage } from '../../core/engine/messages';
import { foldSteps } from '../../core/engine/agentHistory';
import { renderSystemContext } from '../../core/engine/render';
import { closeTag, openTag, type WrapperTag } from '../../core/engine/wrappers';

/** What one CLI run gets: the system prompt for a new session, and the prompt text (sent on stdin). */
export interface CliPrompt {
  /** Static system prompt, only when the run starts a new session (the session keeps it after that). */
  readonly systemPrompt?: string;
  readonly prompt: string;
}

const SEP = '\n\n';
/** The prompt's own wrappers around earlier turns. */
const HISTORY_TAGS: readonly WrapperTag[] = ['conversation_history', 'user', 'assistant'];

/**
 * An earlier message inside <conversation_history>. A user message is the engine's rendering (its
 * context blocks are structure, their contents already escaped): only this prompt's own wrappers
 * are escaped in it. A reply is the model's text as it wrote it: everything is escaped.
 */
function historyMessage(m: ChatMessage): string {
  const role: WrapperTag = m.role === 'assistant' ? 'assistant' : 'user';
  const content = m.role === 'assistant' ? escapeContent(m.content) : escapeTags(m.content, HISTORY_TAGS);
  return `${openTag(role)}\n${content}\n${closeTag(role)}`;
}

/**
 * Turn a compiled request into one CLI prompt. A CLI run (`claude -p`, `codex exec`) takes a single user turn, so:
 * - a new session gets the leading system message as --system-prompt;
 * - the last message is the user's turn, sent as it is;
 * - anything between (earlier turns the session has not seen: a full request after the session was
 *   invalidated, or a delta that carries several turns) goes first, inside <conversation_history>.
 * On resume a system message is not expected (the compiler leaves it out); if one comes anyway it
 * is sent as [System Context] rather than dropped.
 */
export function cliPrompt(request: readonly ChatMessage[], resuming: boolean): CliPrompt {
  // The CLI takes text: an earlier agent turn's tool results go as blocks of its user message.
  const messages = foldSteps(request);
  if (messages.length === 0) throw new Error('the request has no messages');
  const last = messages[messages.length - 1];
  if (last.role !== 'user') throw new Error(`the last message must be the user's, not ${last.role}`);
  let rest = messages.slice(0, -1);
  let systemPrompt: string | undefined;
  if (!resuming && rest[0]?.role === 'system') {
    systemPrompt = rest[0].content;
    rest = rest.slice(1);
  }
  const parts: string[] = [];
  const system = rest.filter((m) => m.role === 'system').map((m) => renderSystemContext(m.content));
  const history = rest.filter((m) => m.role !== 'system');
  parts.push(...system);
  if (history.length > 0) {
    parts.push([openTag('conversation_history'), ...history.map(historyMessage), closeTag('conversation_history')].join('\n'));
  }
  parts.push(last.content);
  return { ...(systemPrompt !== undefined ? { systemPrompt } : {}), prompt: parts.join(SEP) };
}
