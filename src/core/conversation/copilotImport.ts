import { basename, type ContextChip } from '../context/items';
import { ChipResolver } from '../context/resolver';
import type { VaultReader } from '../ports/vault';
import type { EngineOptions } from '../engine/engine';
import type { PromptFragment } from '../engine/types';
import { promptFragments } from '../systemPrompt';
import { splitFrontmatter, parseYaml } from '../markdown/frontmatter';
import type { Clock } from '../ports/clock';
import { newConversation, titleFromText, type Conversation } from './model';
import { failTurn, setTitle } from './transitions';
import { LiveChat } from './liveChat';
import { epochFromFields } from './time';

/**
 * Import a chat saved by the Copilot plugin: `**user**: …` / `**ai**: …` messages, each optionally
 * followed by `[Context: Notes: a.md, b.md | URLs: … | Tags: … | Folders: …]` and
 * `[Timestamp: YYYY/MM/DD HH:mm:ss]` lines; frontmatter `epoch` (ms of the first message),
 * `modelKey` (`model|provider`) and `topic`. Old chats list notes by basename only.
 *
 * The turns are replayed through a fresh engine with the notes they listed, so the imported chat
 * has a Context Library and continues like a Strata chat. Notes resolve by path, then by unique
 * basename; others are left out with a warning that lists the candidates. Copilot kept no URL page
 * text, so URLs are listed in the warnings only.
 */

export interface CopilotMessage {
  readonly sender: 'user' | 'ai';
  readonly text: string;
  readonly timestamp: string | null;
  readonly notes: string[];
  readonly urls: string[];
  readonly tags: string[];
  readonly folders: string[];
}

export interface CopilotChat {
  readonly epoch: number | null;
  readonly modelKey: string | null;
  readonly topic: string | null;
  readonly messages: CopilotMessage[];
}

export function parseCopilotChat(text: string): CopilotChat {
  const { yaml, body } = splitFrontmatter(text.replace(/\r\n/g, '\n'));
  const data = yaml === null ? {} : (parseYaml(yaml).value ?? {});
  const epochRaw = data.epoch;
  const epoch = typeof epochRaw === 'number' ? epochRaw : typeof epochRaw === 'string' && /^\d+$/.test(epochRaw.trim()) ? Number(epochRaw) : null;
  const messages: CopilotMessage[] = [];
  const pattern = /^\*\*(user|ai)\*\*: ?/gm;
  const starts: Array<{ index: number; end: number; sender: 'user' | 'ai' }> = [];
  for (const m of body.matchAll(pattern)) starts.push({ index: m.index ?? 0, end: (m.index ?? 0) + m[0].length, sender: m[1] as 'user' | 'ai' });
  starts.forEach((s, i) => {
    const chunk = body.slice(s.end, i + 1 < starts.length ? starts[i + 1].index : body.length).trimEnd();
    const lines = chunk.split('\n');
    let timestamp: string | null = null;
    const context = { notes: [] as string[], urls: [] as string[], tags: [] as string[], folders: [] as string[] };
    let end = lines.length;
    const ts = /^\[Timestamp: (.*)\]\s*$/.exec(lines[end - 1] ?? '');
    if (ts) {
      timestamp = ts[1];
      end--;
    }
    const ctx = /^\[Context: (.*)\]\s*$/.exec(lines[end - 1] ?? '');
    if (ctx && end > 0) {
      for (const part of ctx[1].split(' | ')) {
        const [label, ...rest] = part.split(': ');
        const values = rest.join(': ').split(', ').map((v) => v.trim()).filter(Boolean);
        if (label.trim() === 'Notes') context.notes.push(...values);
        else if (label.trim() === 'URLs') context.urls.push(...values);
        else if (label.trim() === 'Tags') context.tags.push(...values);
        else if (label.trim() === 'Folders') context.folders.push(...values);
      }
      end--;
    }
    messages.push({ sender: s.sender, text: lines.slice(0, end).join('\n').trim(), timestamp, ...context });
  });
  return {
    epoch,
    modelKey: typeof data.modelKey === 'string' ? data.modelKey : null,
    topic: typeof data.topic === 'string' && data.topic.trim() ? data.topic.trim() : null,
    messages,
  };
}

export interface ImportedChat {
  readonly conversation: Conversation;
  readonly warnings: string[];
}

export interface ImportOptions extends EngineOptions {
  readonly fragments?: readonly PromptFragment[];
  /** Model used when the chat names none. */
  readonly defaultModel?: string;
}

export async function importCopilotChat(text: string, vault: VaultReader, clock: Clock, options: ImportOptions = {}): Promise<ImportedChat> {
  const chat = parseCopilotChat(text);
  const warnings: string[] = [];
  if (chat.messages.length === 0) warnings.push('no **user**: or **ai**: messages were found');
  const [modelName, provider] = (chat.modelKey ?? '').split('|');
  const model = modelName || options.defaultModel || 'gpt-4o';
  const offset = zoneOffset(chat);
  const fixedClock = { now: () => chat.epoch ?? clock.now() };
  const base = newConversation({ provider: provider || 'copilot-import', model, id: `copilot-${chat.epoch ?? clock.now()}` }, fixedClock);
  let at = chat.epoch ?? clock.now();
  const live = LiveChat.fresh(chat.topic ? setTitle(base, chat.topic, 'generated', at) : base, options);
  const resolver = new ChipResolver(vault);
  const markdown = await vault.listMarkdown();
  const fragments = options.fragments ?? promptFragments();

  for (let i = 0; i < chat.messages.length; i++) {
    const message = chat.messages[i];
    const reply = message.sender === 'user' && chat.messages[i + 1]?.sender === 'ai' ? chat.messages[++i] : null;
    const user = message.sender === 'user' ? message : null;
    at = stamp(user ?? message, offset) ?? at;
    const chips: ContextChip[] = [];
    for (const note of user?.notes ?? []) {
      const path = resolveNote(note, markdown, warnings);
      if (path) chips.push({ kind: 'note', path });
    }
    for (const folder of user?.folders ?? []) chips.push({ kind: 'folder', path: folder });
    for (const tag of user?.tags ?? []) chips.push({ kind: 'tag', tag });
    for (const url of user?.urls ?? []) warnings.push(`${url}: Copilot did not save the page text; the URL is not in the Context Library`);
    const index = live.addMessage({ text: user?.text ?? '', chips, at });
    if (!user) warnings.push(`a reply without a user message was imported with an empty user message`);
    const replyMessage = user ? reply : message;
    if (!replyMessage) {
      live.update((c) => failTurn(c, index, { status: 'failed', error: 'not answered in the imported chat', at }));
      continue;
    }
    const { items, problems } = await resolver.resolve(chips);
    const assembly = live.engine.assemble({ userText: user?.text ?? '', items, problems, fragments, model });
    at = stamp(replyMessage, offset) ?? at;
    live.commit(index, { assembly, reply: replyMessage.text, replyAt: at });
  }
  let conversation = live.conversation;
  if (!chat.topic && conversation.turns.length > 0) conversation = setTitle(conversation, titleFromText(conversation.turns[0].text), 'first-message', at);
  return { conversation, warnings };
}

/** Path first; then a unique basename (old chats); otherwise skipped with the candidates listed. */
export function resolveNote(ref: string, markdown: readonly string[], warnings: string[]): string | null {
  const withExt = /\.md$/i.test(ref) ? ref : `${ref}.md`;
  if (markdown.includes(ref)) return ref;
  if (markdown.includes(withExt)) return withExt;
  const name = basename(withExt);
  const candidates = markdown.filter((p) => basename(p) === name);
  if (candidates.length === 1) return candidates[0];
  if (candidates.length > 1) warnings.push(`${ref}: ${candidates.length} notes have that name (${candidates.join(', ')}); left out`);
  else warnings.push(`${ref}: not found in the vault; left out`);
  return null;
}

/** Copilot timestamps are local wall-clock time; the first one and `epoch` give the zone offset. */
function zoneOffset(chat: CopilotChat): number {
  const first = chat.messages.find((m) => m.timestamp !== null);
  const local = first ? wallClock(first.timestamp ?? '') : null;
  if (chat.epoch === null || local === null) return 0;
  const offset = local - chat.epoch;
  return Math.abs(offset) <= 14 * 3_600_000 ? Math.round(offset / 60_000) * 60_000 : 0;
}

function stamp(message: CopilotMessage, offset: number): number | null {
  const local = message.timestamp ? wallClock(message.timestamp) : null;
  return local === null ? null : local - offset;
}

function wallClock(text: string): number | null {
  const m = /^(\d{4})[/-](\d{2})[/-](\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  return epochFromFields(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
}
