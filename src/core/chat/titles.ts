import type { Conversation, ChatTurn, TitleCall } from '../conversation/model';
import type { ChatMessage } from '../engine/messages';
import type { StrataSettings } from '../settings/settings';
import { excerpt, firstLine, sideCall, type SideCallDeps } from '../sideCall';

/** How long a title may take; after that the first-message title simply stays. */
export const TITLE_TIMEOUT_MS = 30_000;
/** A title's longest length, in characters (the first-message title's too). */
export const TITLE_MAX_CHARS = 60;
/** What of the first exchange the title model reads: enough for the topic, cheap on a long reply. */
const EXCERPT_CHARS = 1_500;

/** The title prompt. Fixed text: the same first exchange always makes the same request. */
export const TITLE_INSTRUCTIONS = [
  'You name conversations between a user and an assistant about notes in an Obsidian vault.',
  'Reply with a title for the conversation: at most 6 words, in the language of the user\'s message.',
  'Name the topic, not the request ("Greenhouse ventilation plan", not "Question about ventilation").',
  'Reply with the title only: no quotes, no trailing period, no markdown, no preamble.',
].join('\n');


/** The chat gets a generated title now: the setting is on, this is its first answer, and the user never named it. */
export function wantsTitle(settings: StrataSettings, conversation: Conversation): boolean {
  if (!settings.generateTitles || conversation.titleSource !== 'first-message') return false;
  return conversation.turns.filter((t) => t.status === 'complete').length === 1;
}

/** The request for a title: the first message and the start of its answer. */
export function titleMessages(turn: Pick<ChatTurn, 'text' | 'reply'>): ChatMessage[] {
  const user = [`User's message:\n${excerpt(turn.text, EXCERPT_CHARS)}`, `Assistant's answer:\n${excerpt(turn.reply ?? '', EXCERPT_CHARS)}`, 'Title:'].join('\n\n');
  return [
    { role: 'system', content: TITLE_INSTRUCTIONS },
    { role: 'user', content: user },
  ];
}

/**
 * A model's reply as a title: its first line, without a "Title:" lead, quotes, markdown marks or a
 * trailing period, at most TITLE_MAX_CHARS (cut at a word). Null when nothing usable is left.
 */
export function cleanTitle(raw: string): string | null {
  const line = firstLine(raw);
  if (!line) return null;
  let title = line
    .replace(/^(?:#+\s*|[-*]\s+)/, '')
    .replace(/^(?:chat\s+)?title\s*:\s*/i, '')
    .replace(/[*_`"“”„«»]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Edge quotes and trailing periods in any order ("'Budget review'...").
  for (let before = ''; before !== title; ) {
    before = title;
    title = title.replace(/^['‘’]+|['‘’]+$/g, '').replace(/[.。…]+$/, '').trim();
  }
  if (title.length > TITLE_MAX_CHARS) {
    const cut = title.slice(0, TITLE_MAX_CHARS + 1);
    const space = cut.lastIndexOf(' ');
    title = (space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : title.slice(0, TITLE_MAX_CHARS)).replace(/[\s,;:.–—-]+$/, '');
  }
  return title.length > 0 ? title : null;
}

export interface TitleDeps extends SideCallDeps {
  readonly timeoutMs?: number;
}

/**
 * A title for the chat's first exchange, on the summary model (the chat's own when none is set).
 * Throws on any failure (no provider, an error, the timeout, an empty reply): the caller keeps the
 * first-message title and says nothing (a title is a nicety).
 */
export async function generateTitle(
  settings: StrataSettings,
  conversation: Pick<Conversation, 'provider' | 'model'>,
  turn: Pick<ChatTurn, 'text' | 'reply'>,
  deps: TitleDeps,
): Promise<{ title: string; record: TitleCall }> {
  const { text, call } = await sideCall(settings, conversation, titleMessages(turn), deps.timeoutMs ?? TITLE_TIMEOUT_MS, deps);
  const title = cleanTitle(text);
  if (!title) throw new Error('the title model returned no title');
  return { title, record: call };
}
