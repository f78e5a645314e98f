import type { Usage } from '../../core/usage';
import { parseAnthropicUsage } from '../usage';

import { JsonLines, obj, type Json } from '../cli/jsonLines';

/** The CLI's closing `result` event, reduced to what Strata uses. */
export interface CliResult {
  readonly ok: boolean;
  /** success, error_during_execution, error_max_turns, … */
  readonly subtype: string;
  readonly text: string;
  readonly sessionId?: string;
  readonly usage: Usage;
  readonly model?: string;
  /** HTTP status of the API error that ended the run, when the CLI reports one. */
  readonly apiErrorStatus?: number;
  /** The CLI's own error lines, when it gives them. */
  readonly errors: readonly string[];
}

/**
 * Reads the CLI's stream-json output (one JSON object per line, split anywhere across chunks):
 * text deltas of the main agent go to onToken as they arrive; the `result` event closes the run.
 * A CLI without partial messages still streams: a complete `assistant` message whose text was not
 * streamed is passed on whole. Lines that are not JSON are kept for the error summary.
 */
export class StreamJsonReader {
  private readonly lines = new JsonLines((event) => this.event(event));
  private streamedMessages = new Set<string>();
  private assistantText: string[] = [];
  private model: string | undefined;
  private session: string | undefined;
  result: CliResult | null = null;
  /** Lines that were not JSON, for the error summary. */
  get stray(): readonly string[] {
    return this.lines.stray;
  }

  constructor(private readonly onToken?: (delta: string) => void) {}

  /** The session id announced so far (init event), even if the run does not finish. */
  get sessionId(): string | undefined {
    return this.result?.sessionId ?? this.session;
  }

  push(chunk: string): void {
    this.lines.push(chunk);
  }

  end(): void {
    this.lines.end();
  }

  private event(event: Json): void {
    if (typeof event.session_id === 'string') this.session = event.session_id;
    // Subagent traffic (parent_tool_use_id set) is not the reply.
    if (event.parent_tool_use_id !== undefined && event.parent_tool_use_id !== null) return;
    switch (event.type) {
      case 'system':
        if (event.subtype === 'init' && typeof event.model === 'string') this.model = event.model;
        return;
      case 'stream_event': {
        const inner = obj(event.event);
        const delta = obj(inner?.delta);
        if (inner?.type === 'content_block_delta' && delta?.type === 'text_delta' && typeof delta.text === 'string') {
          if (typeof event.api_message_id === 'string') this.streamedMessages.add(event.api_message_id);
          this.onToken?.(delta.text);
        }
        return;
      }
      case 'assistant': {
        const message = obj(event.message);
        if (typeof message?.model === 'string') this.model = message.model;
        const blocks = Array.isArray(message?.content) ? (message.content as unknown[]) : [];
        const text = blocks
          .map(obj)
          .filter((b): b is Json => b?.type === 'text' && typeof b.text === 'string')
          .map((b) => b.text as string)
          .join('');
        if (!text) return;
        this.assistantText.push(text);
        const id = typeof message?.id === 'string' ? message.id : undefined;
        if (!id || !this.streamedMessages.has(id)) this.onToken?.(text);
        return;
      }
      case 'result':
        this.result = {
          ok: event.is_error !== true && event.subtype === 'success',
          subtype: typeof event.subtype === 'string' ? event.subtype : 'unknown',
          text: typeof event.result === 'string' ? event.result : this.assistantText.join('\n\n'),
          ...(typeof event.session_id === 'string' ? { sessionId: event.session_id } : {}),
          usage: parseAnthropicUsage(event.usage),
          ...(this.model ? { model: this.model } : {}),
          ...(typeof event.api_error_status === 'number' ? { apiErrorStatus: event.api_error_status } : {}),
          errors: Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === 'string') : [],
        };
        return;
      default:
        return;
    }
  }
}
