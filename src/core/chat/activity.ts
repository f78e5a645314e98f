import type { RetryNotice } from '../ports/chatModel';
import type { LiveCall } from '../agent/progress';

/** 'stream': only the streamed text changed (the view updates the message being answered, nothing else). */
export type ActivityChange = 'state' | 'stream';
export type ActivityListener = (change: ActivityChange) => void;

/**
 * Something running on one chat (a turn, or condensing on request): it owns its abort and the
 * transient status the view shows while it runs, and tells its subscribers when that changes.
 * Several may run at once, one per chat; the controller shows the one of the chat shown.
 */
export abstract class ChatActivity {
  private readonly abort = new AbortController();
  private readonly listeners = new Set<ActivityListener>();
  /** Text streamed so far; null when nothing streams (condensing on request). */
  streamingText: string | null = null;
  /** A compaction is running (the turn waits for its summary). */
  condensing = false;
  /** The request failed and waits to be retried (cleared by its first text or its end). */
  retry: RetryNotice | null = null;

  constructor(readonly chatId: string) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Agent turns: the tool calls made so far (empty otherwise). */
  get agentCalls(): readonly LiveCall[] {
    return [];
  }

  /** Stop it: it settles (kept, with what had arrived) in its own chat. */
  stop(): void {
    this.abort.abort();
  }

  subscribe(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected emit(change: ActivityChange = 'state'): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

/** Condensing on request (the context panel's button): nothing streams; stop leaves the chat as it was. */
export class CondenseActivity extends ChatActivity {
  override condensing = true;
}
