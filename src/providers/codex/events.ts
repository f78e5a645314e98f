import type { Usage } from '../../core/usage';

import { JsonLines, obj, type Json } from '../cli/jsonLines';

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/**
 * Codex's usage record (turn.completed, and token_count in its rollout files) as Strata's Usage:
 * input_tokens counts every prompt token, cached ones included (OpenAI's convention, as Usage's);
 * output_tokens already includes reasoning_output_tokens (the Responses API's output_tokens does).
 */
export function parseCodexUsage(usage: unknown): Usage {
  const u = obj(usage) ?? {};
  return {
    inputTokens: count(u.input_tokens),
    outputTokens: count(u.output_tokens),
    cachedReadTokens: count(u.cached_input_tokens),
    cacheWriteTokens: count(u.cache_write_input_tokens),
  };
}

/** How a run ended, as its events say (checked against codex-cli 0.171.0 `exec --json`). */
export interface CodexOutcome {
  /** turn.completed came: the reply is complete. */
  readonly completed: boolean;
  readonly text: string;
  /**
   * The usage turn.completed reports. It is the thread's running total, not this run's: a resumed
   * thread carries the totals of its earlier turns (see rollout.ts for this run's own).
   */
  readonly totalUsage: Usage | null;
  /** Fatal errors: turn.failed and top-level error events. */
  readonly errors: readonly string[];
  /** Non-fatal notices (error items: unknown model metadata, ignored settings). */
  readonly notices: readonly string[];
}

/**
 * Reads `codex exec --json` output: one JSON event per line, split anywhere across chunks.
 * - thread.started: the thread (session) id, what `codex exec resume` takes next time;
 * - item.started / item.updated / item.completed of type agent_message: the reply, passed to
 *   onToken as it grows (0.171 sends it whole at item.completed; a later CLI may send updates);
 * - turn.completed: usage; turn.failed and error: what went wrong.
 * Lines that are not JSON are kept for the error summary.
 */
export class CodexEventReader {
  private readonly lines = new JsonLines((event) => this.event(event));
  private readonly messages = new Map<string, string>();
  private readonly order: string[] = [];
  /** Text already passed to onToken, per message. */
  private readonly shown = new Map<string, string>();
  private anyShown = false;
  private completed = false;
  private totalUsage: Usage | null = null;
  private readonly errors: string[] = [];
  private readonly notices: string[] = [];
  threadId: string | undefined;
  /** True once the CLI said the turn started (the prompt is then part of the thread). */
  turnStarted = false;
  /** Lines that were not JSON, for the error summary. */
  get stray(): readonly string[] {
    return this.lines.stray;
  }

  constructor(private readonly onToken?: (delta: string) => void) {}

  push(chunk: string): void {
    this.lines.push(chunk);
  }

  end(): void {
    this.lines.end();
  }

  get outcome(): CodexOutcome {
    return {
      completed: this.completed,
      // Several agent messages in one turn (a model that narrates, then answers) read as paragraphs.
      text: this.order.map((id) => this.messages.get(id) ?? '').filter(Boolean).join('\n\n'),
      totalUsage: this.totalUsage,
      errors: this.errors,
      notices: this.notices,
    };
  }

  private event(event: Json): void {
    switch (event.type) {
      case 'thread.started':
        if (typeof event.thread_id === 'string') this.threadId = event.thread_id;
        return;
      case 'turn.started':
        this.turnStarted = true;
        return;
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        this.item(obj(event.item));
        return;
      case 'turn.completed':
        this.completed = true;
        this.totalUsage = parseCodexUsage(event.usage);
        return;
      case 'turn.failed': {
        const message = obj(event.error)?.message;
        this.errors.push(typeof message === 'string' ? message : 'the turn failed');
        return;
      }
      case 'error':
        if (typeof event.message === 'string') this.errors.push(event.message);
        return;
      default:
        return;
    }
  }

  private item(item: Json | undefined): void {
    if (!item) return;
    if (item.type === 'error') {
      if (typeof item.message === 'string') this.notices.push(item.message);
      return;
    }
    if (item.type !== 'agent_message' || typeof item.text !== 'string') return;
    const id = typeof item.id === 'string' ? item.id : `#${this.order.length}`;
    if (!this.messages.has(id)) this.order.push(id);
    const text = item.text;
    this.messages.set(id, text);
    // Stream what is new; a rewrite that does not extend the text (rare) is not re-sent.
    const shown = this.shown.get(id) ?? '';
    if (!text.startsWith(shown) || text.length === shown.length) return;
    const separator = shown === '' && this.anyShown ? '\n\n' : '';
    this.shown.set(id, text);
    this.anyShown = true;
    this.onToken?.(separator + text.slice(shown.length));
  }
}
