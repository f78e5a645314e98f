import type { ChatProvider, ChatRequest, ChatResult, Capabilities, ProviderConfig } from '../../src/core/ports/chatModel';
import { deterministicReply, replyChunks } from '../../testing/providerServer/reply';

/** What the next send does instead of answering. */
export type MemoryFault = { kind: 'fail'; message: string } | { kind: 'hang' };

/**
 * An in-memory chat model (the chat-model port), for controller tests that are about the chat, not
 * about HTTP: it answers like the local provider server (`Seen context: <ids>. Question: <q>.`),
 * streams word by word (one macrotask per word, so a test can stop it mid-stream), honours abort,
 * and records every request. Stateless, like Chat Completions.
 */
export class MemoryChatModel implements ChatProvider {
  readonly requests: ChatRequest[] = [];
  readonly capabilities: Capabilities;
  private readonly faults: MemoryFault[] = [];

  constructor(
    readonly config: ProviderConfig,
    window = 128_000,
    /** A reply of the test's own for some requests (undefined: the server's deterministic reply). */
    private readonly replyFor?: (request: ChatRequest) => string | undefined,
  ) {
    this.capabilities = { sessionResumption: false, caching: 'automatic-prefix', streaming: true, toolCalling: false, images: false, contextWindow: window, maxOutput: 16_384 };
  }

  /** The next `times` sends fail (or hang until aborted). */
  inject(fault: MemoryFault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(fault);
  }

  /** The last request's messages. */
  get lastMessages(): ChatRequest['messages'] {
    const last = this.requests[this.requests.length - 1];
    if (!last) throw new Error('no request yet');
    return last.messages;
  }

  async send(request: ChatRequest): Promise<ChatResult> {
    this.requests.push(request);
    const fault = this.faults.shift();
    if (fault?.kind === 'fail') throw Object.assign(new Error(fault.message), { userMessage: fault.message });
    if (fault?.kind === 'hang') {
      await new Promise<never>((_resolve, reject) => {
        const stop = () => reject(new DOMException('The request was aborted.', 'AbortError'));
        if (request.signal?.aborted) stop();
        request.signal?.addEventListener('abort', stop);
      });
    }
    const texts = request.messages.map((m) => m.content);
    const lastUser = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const reply = this.replyFor?.(request) ?? deterministicReply(texts, lastUser);
    let text = '';
    for (const piece of replyChunks(reply)) {
      await new Promise((resolve) => setImmediate(resolve));
      if (request.signal?.aborted) throw new DOMException('The request was aborted.', 'AbortError');
      text += piece;
      request.onToken?.(piece);
    }
    const inputTokens = Math.ceil(texts.join('').length / 4);
    return { text, usage: { inputTokens, outputTokens: Math.ceil(text.length / 4), cachedReadTokens: 0, cacheWriteTokens: 0 } };
  }
}
