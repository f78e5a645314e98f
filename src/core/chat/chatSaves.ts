import type { ChatArchivePort } from '../ports/chatArchive';
import type { LiveChat } from '../conversation/liveChat';
import { compactionToApply } from '../conversation/compactionRecords';
import { rebaseOnSaved } from '../conversation/merge';
import { userFacingError } from './errors';
import { SaveQueue, type SaveEvent } from './saveQueue';
import { withoutSources, withWarnings, type ChatWarning } from './warnings';

/** What saving reads and changes of the controller's state. */
export interface SavesHost {
  /** The chat shown: a save's result (merged with the user's edits in the note) becomes its state. */
  shown(): LiveChat;
  warnings(): ChatWarning[];
  setWarnings(warnings: ChatWarning[]): void;
  /** The chat shown changed (the view shows it again). */
  changed(): void;
}

/**
 * Saving chats through the archive, one write at a time (SaveQueue). A save's result is the note's
 * state merged with the user's edits: for the chat shown it becomes the conversation (an edited
 * latest summary becomes what the engine renders); a failure or the note's warnings are said.
 */
export class ChatSaves {
  /** True once the chat shown has been saved (it then appears in the history). */
  saved = false;
  private readonly queue: SaveQueue;

  constructor(
    archive: ChatArchivePort,
    private readonly host: SavesHost,
  ) {
    this.queue = new SaveQueue((c) => archive.save(c), (event) => this.done(event));
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
    const chat = this.host.shown();
    const shown = event.sent.id === chat.id;
    const warnings = this.host.warnings();
    if (event.type === 'failed') {
      const text = shown
        ? `The chat could not be saved: ${userFacingError(event.error)}`
        : `The chat "${event.sent.title}" could not be saved: ${userFacingError(event.error)}`;
      this.host.setWarnings(withWarnings(withoutSources(warnings, 'save'), [{ source: 'save', text }]));
      this.host.changed();
      return;
    }
    if (!shown) return;
    const before = chat.conversation;
    chat.update((c) => rebaseOnSaved(c, event.sent, event.result.conversation));
    // The user edited the latest summary in the note while the chat is open: their text is what is sent next.
    const edited = compactionToApply(chat.conversation.compactions, chat.engine.currentCompaction());
    if (edited) chat.applyCompaction(edited);
    const hadError = warnings.some((w) => w.source === 'save');
    const kept = withoutSources(warnings, 'save');
    const next = withWarnings(kept, event.result.warnings.map((w) => ({ source: 'note' as const, text: `Chat note: ${w}` })));
    this.host.setWarnings(next);
    const noted = next.length > kept.length;
    if (!this.saved || hadError || noted || chat.conversation !== before) {
      this.saved = true;
      this.host.changed();
    }
  }
}
