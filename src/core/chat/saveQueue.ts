import type { Conversation } from '../conversation/model';
import type { SaveResult } from '../ports/chatArchive';

export type SaveEvent =
  | { readonly type: 'saved'; readonly sent: Conversation; readonly result: SaveResult }
  | { readonly type: 'failed'; readonly sent: Conversation; readonly error: unknown };

/**
 * Chat saves, one at a time, so a slow write never lands after a newer one. While a chat's save is
 * waiting, a newer request for the same chat replaces it (only the latest state is written). Saves of
 * a chat the user has left finish in the background; the listener decides what reaches the view.
 */
export class SaveQueue {
  private chain: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<string, Conversation>();
  private writing: string | null = null;

  constructor(
    private readonly save: (conversation: Conversation) => Promise<SaveResult>,
    private readonly listener: (event: SaveEvent) => void,
  ) {}

  /** Resolves once this state (or a newer one of the same chat) is written or has failed. */
  request(conversation: Conversation): Promise<void> {
    const queued = this.waiting.has(conversation.id);
    this.waiting.set(conversation.id, conversation);
    if (!queued) this.chain = this.chain.then(() => this.write(conversation.id));
    return this.chain;
  }

  /** True while a save of this chat is waiting or being written. */
  has(id: string): boolean {
    return this.waiting.has(id) || this.writing === id;
  }

  /** Forget a waiting save (the chat is being deleted); one already being written finishes. */
  drop(id: string): void {
    this.waiting.delete(id);
  }

  /** Resolves once every save requested so far has finished. */
  flush(): Promise<void> {
    return this.chain;
  }

  private async write(id: string): Promise<void> {
    const sent = this.waiting.get(id);
    this.waiting.delete(id);
    if (!sent) return;
    this.writing = id;
    try {
      const result = await this.save(sent);
      this.writing = null;
      this.listener({ type: 'saved', sent, result });
    } catch (error) {
      this.writing = null;
      this.listener({ type: 'failed', sent, error });
    }
  }
}
