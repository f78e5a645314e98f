import { DEFAULT_TIMERS } from '../timers';
import type { Conversation } from '../conversation/model';
import type { SaveResult } from '../ports/chatArchive';

export type SaveEvent =
  | { readonly type: 'saved'; readonly sent: Conversation; readonly result: SaveResult }
  | { readonly type: 'failed'; readonly sent: Conversation; readonly error: unknown };

/**
 * Chat saves, one at a time, so a slow write never lands after a newer one. While a chat's save is
 * waiting, a newer request for the same chat replaces it (only the latest state is written). Saves of
 * a chat the user has left finish in the background; the listener decides what reaches the view.
 * A request may be held back for a while (`delayMs`): an immediate request of the same chat within
 * that time writes once, the newer state (a turn's words, then its reply: one write, not two).
 */
export class SaveQueue {
  private chain: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<string, Conversation>();
  /** Requests held back, by chat id: queued when their time is up, an immediate request comes, or on flush. */
  private readonly held = new Map<string, { readonly timer: unknown; readonly done: Promise<void>; readonly resolve: () => void }>();
  private writing: string | null = null;

  constructor(
    private readonly save: (conversation: Conversation) => Promise<SaveResult>,
    private readonly listener: (event: SaveEvent) => void,
  ) {}

  /** Resolves once this state (or a newer one of the same chat) is written or has failed. */
  request(conversation: Conversation, delayMs = 0): Promise<void> {
    const id = conversation.id;
    const queued = this.waiting.has(id);
    this.waiting.set(id, conversation);
    const held = this.held.get(id);
    if (held) {
      if (delayMs <= 0) this.release(id);
      return held.done;
    }
    if (queued) return this.chain;
    return delayMs > 0 ? this.hold(id, delayMs) : this.enqueue(id);
  }

  /** True while a save of this chat is held, waiting or being written. */
  has(id: string): boolean {
    return this.waiting.has(id) || this.writing === id;
  }

  /** Forget a waiting save (the chat is being deleted); one already being written finishes. */
  drop(id: string): void {
    this.waiting.delete(id);
    const held = this.held.get(id);
    if (!held) return;
    DEFAULT_TIMERS.clearTimeout(held.timer);
    this.held.delete(id);
    held.resolve();
  }

  /** Writes the saves held back now; resolves once every save requested so far has finished. */
  flush(): Promise<void> {
    for (const id of [...this.held.keys()]) this.release(id);
    return this.chain;
  }

  private hold(id: string, delayMs: number): Promise<void> {
    let resolve = () => {};
    const done = new Promise<void>((r) => (resolve = r));
    const timer = DEFAULT_TIMERS.setTimeout(() => this.release(id), delayMs);
    // In Node (tools, tests) a held save does not keep the process alive: the turn's own save follows it.
    (timer as { unref?: () => void } | null)?.unref?.();
    this.held.set(id, { timer, done, resolve });
    return done;
  }

  /** A held request's time is up (or it cannot wait any more): it joins the queue. */
  private release(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    DEFAULT_TIMERS.clearTimeout(held.timer);
    this.held.delete(id);
    void this.enqueue(id).then(held.resolve);
  }

  private enqueue(id: string): Promise<void> {
    this.chain = this.chain.then(() => this.write(id));
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
