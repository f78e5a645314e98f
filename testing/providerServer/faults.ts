/** Injected failures, queued and consumed in order by the requests they match. */
export type Fault =
  | { kind: 'status'; status: 429 | 500 | 502 | 503 | 529; retryAfterSeconds?: number; times?: number }
  | { kind: 'hang'; ms?: number; times?: number }
  | { kind: 'cut-stream'; afterChunks: number; times?: number }
  /** A stream that goes silent after that many chunks, the connection left open (a stalled provider). */
  | { kind: 'stall-stream'; afterChunks: number; times?: number };

interface QueuedFault {
  readonly fault: Fault;
  remaining: number;
}

/**
 * FIFO of faults. Only generation requests consume faults; a 'cut-stream' or 'stall-stream' fault
 * matches only a streaming request (a non-streaming one passes it by and leaves it queued).
 */
export class FaultQueue {
  private readonly queue: QueuedFault[] = [];

  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error(`fault.times must be a positive integer, got ${String(fault.times)}`);
    if ((fault.kind === 'cut-stream' || fault.kind === 'stall-stream') && (!Number.isInteger(fault.afterChunks) || fault.afterChunks < 0)) {
      throw new Error(`${fault.kind} afterChunks must be a non-negative integer, got ${String(fault.afterChunks)}`);
    }
    this.queue.push({ fault, remaining: times });
  }

  /** The fault the next request (streaming or not) suffers, consuming one use of it. */
  take(streaming: boolean): Fault | undefined {
    const index = this.queue.findIndex((q) => (q.fault.kind !== 'cut-stream' && q.fault.kind !== 'stall-stream') || streaming);
    if (index < 0) return undefined;
    const queued = this.queue[index];
    queued.remaining--;
    if (queued.remaining <= 0) this.queue.splice(index, 1);
    return queued.fault;
  }

  clear(): void {
    this.queue.length = 0;
  }
}
