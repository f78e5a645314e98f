import type { ChatArchivePort } from '../ports/chatArchive';
import type { LiveChat } from '../conversation/liveChat';
import { compactionToApply } from '../conversation/compactionRecords';
import { rebaseOnSaved } from '../conversation/merge';
import { userFacingError } from './errors';
import type { HubView } from './hubView';
import { SaveQueue, type SaveEvent } from './saveQueue';
import { withoutSources, withWarnings } from './warnings';

/** What saving reads and tells of the chats open in memory and the views showing them. */
export interface SavesHost {
  /** The chat open in memory with this id (shown or running): a save's result becomes its state. */
  live(id: string): LiveChat | undefined;
  /** The views showing chat `id`; null: every view. */
  views(id: string | null): readonly HubView[];
}

/**
 * Saving chats through the archive, one write at a time (SaveQueue), for every view. A save's result
 * is the note's state merged with the user's edits: for a chat open in memory it becomes the
 * conversation (an edited latest summary becomes what the engine renders); a failure or the note's
 * warnings are said in the views showing it.
 */
export class ChatSaves {
  /** Chats saved at least once (they then appear in the history). */
  private readonly savedIds = new Set<string>();
  private readonly queue: SaveQueue;

  constructor(
    archive: ChatArchivePort,
    private readonly host: SavesHost,
  ) {
    this.queue = new SaveQueue((c) => archive.save(c), (event) => this.done(event));
  }

  /** True once chat `id` has been saved (or was opened from its note). */
  isSaved(id: string): boolean {
    return this.savedIds.has(id);
  }

  /** Chat `id` was opened from its note. */
  markSaved(id: string): void {
    this.savedIds.add(id);
  }

  /** Queue a save of `chat`, shown or not (nothing to save before its first message). `delayMs`: see SaveQueue. */
  save(chat: LiveChat, delayMs = 0): Promise<void> {
    const conversation = chat.conversation;
    if (conversation.turns.length === 0) return this.queue.flush();
    return this.queue.request(conversation, delayMs);
  }

  /** Resolves once every save requested so far has finished. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Waits for this chat's saves, if any (reopening it reads the note they write). */
  async flushChat(id: string): Promise<void> {
    if (this.queue.has(id)) await this.queue.flush();
  }

  /** The chat is being deleted: a save still waiting must not write its note back. */
  async forget(id: string): Promise<void> {
    this.queue.drop(id);
    await this.queue.flush();
  }

  private done(event: SaveEvent): void {
    const id = event.sent.id;
    const views = this.host.views(id);
    if (event.type === 'failed') {
      // Said where the chat is shown; a chat no view shows is named in every view.
      const reason = userFacingError(event.error);
      const targets = views.length > 0 ? views : this.host.views(null);
      for (const view of targets) {
        const text = views.length > 0 ? `The chat could not be saved: ${reason}` : `The chat "${event.sent.title}" could not be saved: ${reason}`;
        view.setWarnings(withWarnings(withoutSources(view.warnings(), 'save'), [{ source: 'save', text }]));
        view.emit();
      }
      return;
    }
    const first = !this.savedIds.has(id);
    this.savedIds.add(id);
    const chat = this.host.live(id);
    if (!chat) return;
    const before = chat.conversation;
    chat.update((c) => rebaseOnSaved(c, event.sent, event.result.conversation));
    // The user edited the latest summary in the note while the chat is open: their text is what is sent next.
    const edited = compactionToApply(chat.conversation.compactions, chat.engine.currentCompaction());
    if (edited) chat.applyCompaction(edited);
    for (const view of views) {
      const warnings = view.warnings();
      const hadError = warnings.some((w) => w.source === 'save');
      const kept = withoutSources(warnings, 'save');
      const next = withWarnings(kept, event.result.warnings.map((w) => ({ source: 'note' as const, text: `Chat note: ${w}` })));
      view.setWarnings(next);
      if (first || hadError || next.length > kept.length || chat.conversation !== before) view.emit();
    }
  }
}
