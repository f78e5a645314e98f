import type { ServerResponse } from 'node:http';

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    res.write(chunk, () => resolve());
  });
}

/**
 * A server-sent-events response. Each `send` is one chunk (one SSE event). With `cutAfter`, the
 * socket is destroyed right after that many chunks reached it (a stream cut midway); later sends
 * do nothing and report false. With `stallAfter`, the stream goes silent after that many chunks:
 * the next send waits, sending nothing, until the client hangs up (or close() destroys the socket).
 */
export class SseStream {
  private sent = 0;
  private gone = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly cutAfter: number | undefined,
    headers: Record<string, string>,
    private readonly stallAfter?: number,
  ) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    res.on('close', () => {
      this.gone = true;
    });
  }

  get alive(): boolean {
    return !this.gone && !this.res.destroyed;
  }

  /** Sends headers now; with a cut after 0 chunks, the socket dies right after them. */
  async open(): Promise<boolean> {
    this.res.flushHeaders();
    if (this.cutAfter === 0) {
      await write(this.res, ': cut\n\n');
      this.cut();
    }
    return this.alive;
  }

  /** One event: `event: <name>` (Anthropic, Responses) when named, then `data: <json>`. */
  async send(data: unknown, event?: string): Promise<boolean> {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    return this.raw(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  }

  async raw(chunk: string): Promise<boolean> {
    if (!this.alive) return false;
    if (this.stallAfter !== undefined && this.sent >= this.stallAfter) {
      await new Promise<void>((resolve) => this.res.once('close', () => resolve()));
      return false;
    }
    await write(this.res, chunk);
    this.sent++;
    if (this.cutAfter !== undefined && this.sent >= this.cutAfter) {
      this.cut();
      return false;
    }
    return this.alive;
  }

  end(): void {
    if (this.alive) this.res.end();
  }

  private cut(): void {
    this.gone = true;
    this.res.socket?.destroy();
  }
}
