import type { VaultReader } from '../context/vaultReader';
import type { ChatArchive } from '../conversation/archive';
import type { ChatTurn as NoteTurn, Conversation } from '../conversation/model';
import { rehydrate } from '../conversation/rehydrate';
import { toRef } from '../conversation/repository';
import type { EngineOptions, PromptContextEngine } from '../engine/engine';
import { CHAT_MODES, type ChatMode } from '../settings';
import { ZERO_USAGE } from '../usage';
import type { ChatListEntry, ChatSnapshot, ChatStore, ChatTurn, LoadedChat, PendingMessage, TurnTextEdit, UnansweredMessage } from './types';

/**
 * The chat controller's store over chat notes: a ChatSnapshot becomes a Conversation (the chat-note
 * model: no note text, never secrets) saved through the ChatArchive; loading decodes the note and
 * rebuilds the engine from the vault (rehydrate), so a reopened chat continues where it stopped.
 */
export class ArchiveChatStore implements ChatStore {
  constructor(
    private readonly archive: () => ChatArchive,
    private readonly vault: VaultReader,
    private readonly engineOptions: () => EngineOptions = () => ({}),
  ) {}

  async save(chat: ChatSnapshot): Promise<{ warnings: readonly string[]; edits: TurnTextEdit[] }> {
    const result = await this.archive().save(toConversation(chat));
    // An edit made in the note while the chat was open was merged into the note (see ChatArchive):
    // hand the edited text back so the controller's next save does not write over it.
    const edits: TurnTextEdit[] = [];
    if (result.edited.length > 0) {
      const completed = result.conversation.turns.filter((t) => t.status === 'complete');
      chat.turns.forEach((t, index) => {
        const merged = completed[index];
        if (merged && (merged.text !== t.userText || (merged.reply ?? '') !== t.reply)) {
          edits.push({ index, at: t.at, userText: merged.text, reply: merged.reply ?? '' });
        }
      });
    }
    return { warnings: result.warnings, edits };
  }

  async load(id: string): Promise<LoadedChat & { engine: PromptContextEngine }> {
    const path = await this.pathOf(id);
    const loaded = await this.archive().load(path);
    const rehydrated = await rehydrate(loaded.conversation, this.vault, this.engineOptions());
    const { snapshot, warnings } = fromConversation(loaded.conversation, rehydrated.engine);
    return {
      snapshot,
      engine: rehydrated.engine,
      warnings: [...loaded.warnings, ...rehydrated.issues.map((i) => i.message), ...warnings],
    };
  }

  async list(): Promise<ChatListEntry[]> {
    return (await this.archive().list()).map((s) => ({ id: s.id, title: s.title, updated: s.updated, location: s.path }));
  }

  async search(query: string): Promise<ChatListEntry[]> {
    return (await this.archive().search(query)).map((s) => ({ id: s.id, title: s.title, updated: s.updated, location: s.path }));
  }

  async rename(id: string, title: string): Promise<void> {
    await this.archive().rename(await this.pathOf(id), title);
  }

  async remove(id: string): Promise<void> {
    await this.archive().delete(await this.pathOf(id));
  }

  private async pathOf(id: string): Promise<string> {
    const found = (await this.archive().list()).find((s) => s.id === id);
    if (!found) throw new Error(`No saved chat with id ${id} in ${this.archive().folder}`);
    return found.path;
  }
}

/** A controller snapshot as the chat-note model: completed turns, then the kept message as a failed turn. */
export function toConversation(chat: ChatSnapshot): Conversation {
  const engineTurns = chat.engine.turns;
  const unanswered = chat.unanswered ?? [];
  const failedTurn = (u: UnansweredMessage): NoteTurn => ({
    status: 'failed',
    text: u.userText,
    at: u.at,
    chips: u.chips.map(stripUrlText),
    dynamic: [],
    tools: [],
    referenced: [],
    problems: [],
    error: u.error ?? 'not answered',
  });
  const turns: NoteTurn[] = [];
  chat.turns.forEach((t, i) => {
    for (const u of unanswered) if (u.afterTurn === i) turns.push(failedTurn(u));
    const e = engineTurns[i];
    turns.push({
      status: 'complete',
      text: t.userText,
      // What the model got, when the user has since edited the displayed text in the note.
      ...(e && e.userText !== t.userText ? { sent: e.userText } : {}),
      at: t.at,
      reply: t.reply,
      replyAt: t.replyAt,
      model: t.meta.model,
      chips: t.chips.map(stripUrlText),
      dynamic: e?.dynamic ?? [],
      tools: e?.tools ?? [],
      referenced: e?.referenced ?? [],
      problems: e?.problems ?? [],
      ...(t.meta.envelope ? { envelope: t.meta.envelope } : {}),
      usage: t.meta.usage,
      cost: t.meta.cost,
    });
  });
  for (const u of unanswered) if (u.afterTurn >= chat.turns.length) turns.push(failedTurn(u));
  if (chat.pending) {
    turns.push({
      status: 'failed',
      text: chat.pending.userText,
      at: chat.pending.at,
      chips: chat.pending.chips.map(stripUrlText),
      dynamic: [],
      tools: [],
      referenced: [],
      problems: [],
      error: chat.pending.error ?? 'no reply yet (the request was interrupted or is still running)',
    });
  }
  return {
    id: chat.id,
    title: chat.title,
    titleSource: chat.titleEdited ? 'user' : 'first-message',
    provider: chat.providerId,
    model: chat.model,
    mode: chat.mode,
    created: chat.created,
    updated: chat.updated,
    session: chat.session,
    turns,
    library: chat.engine.library.map(toRef),
    lastRequest: chat.engine.lastRequest ?? null,
    ...(chat.engine.pending && chat.engine.pending.length > 0 ? { pending: chat.engine.pending } : {}),
  };
}

/** A decoded chat note as a controller snapshot, with the rehydrated engine's state. */
export function fromConversation(c: Conversation, engine: PromptContextEngine): { snapshot: ChatSnapshot; warnings: string[] } {
  const warnings: string[] = [];
  const turns: ChatTurn[] = [];
  let pending: PendingMessage | null = null;
  const unanswered: UnansweredMessage[] = [];
  c.turns.forEach((t, index) => {
    if (t.status === 'complete' && t.reply !== undefined) {
      const turn = turns.length + 1;
      turns.push({
        turn,
        userText: t.text,
        chips: t.chips ?? [],
        reply: t.reply,
        at: t.at,
        replyAt: t.replyAt ?? t.at,
        meta: {
          turn,
          providerId: c.provider,
          model: t.model ?? c.model,
          usage: t.usage ?? ZERO_USAGE,
          cost: t.cost ?? null,
          compileMode: 'full',
          compileReason: 'loaded from the chat note',
          prefixChange: t.envelope?.prefixChange ?? null,
          freshness: (t.envelope?.freshness ?? []).map((f) => ({ ...f, detail: f.status })),
          problems: t.problems,
          promptTokens: t.envelope?.promptTokens ?? 0,
          ...(t.envelope ? { envelope: t.envelope } : {}),
        },
      });
    } else if (index === c.turns.length - 1) {
      pending = { userText: t.text, chips: t.chips ?? [], status: 'failed', at: t.at, error: t.error ?? 'This message has no reply yet.' };
    } else {
      unanswered.push({ afterTurn: turns.length, userText: t.text, chips: t.chips ?? [], at: t.at, ...(t.error ? { error: t.error } : {}) });
    }
  });
  const completed = engine.turnCount;
  if (completed !== turns.length) warnings.push(`The chat note has ${turns.length} answered turns but ${completed} could be restored.`);
  return {
    snapshot: {
      id: c.id,
      title: c.title,
      titleEdited: c.titleSource === 'user',
      providerId: c.provider,
      model: c.model,
      mode: CHAT_MODES.includes(c.mode as ChatMode) ? (c.mode as ChatMode) : 'chat',
      created: c.created,
      updated: c.updated,
      turns,
      pending,
      unanswered,
      session: c.session,
      engine: engine.snapshot(),
    },
    warnings,
  };
}

function stripUrlText<T extends { kind: string }>(chip: T): T {
  if (chip.kind !== 'url') return chip;
  const { content: _content, ...rest } = chip as T & { content?: string };
  return rest as T;
}
