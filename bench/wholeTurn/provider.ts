import type { ChatProvider, ChatRequest, ChatResult, Capabilities, ProviderConfig } from '../../src/core/ports/chatModel';
import { loadSettings, type StrataSettings } from '../../src/core/settings/settings';

/** Large enough that 1,000 turns over ~700 notes never reach the budget: this bench times turns, not condensing. */
const WINDOW = 4_000_000;

/**
 * A stand-in for the network: answers at once with ~400 characters. The bench times up to the
 * provider call, so the call itself only records when it happened (and fails when told to, for Retry).
 */
export class InstantProvider implements ChatProvider {
  readonly config: ProviderConfig = { id: 'local', kind: 'openai', model: 'gpt-4o' };
  readonly capabilities: Capabilities = {
    sessionResumption: false,
    caching: 'automatic-prefix',
    streaming: true,
    toolCalling: false,
    images: false,
    contextWindow: WINDOW,
    maxOutput: 16_384,
  };
  /** performance.now() of the last send. */
  calledAt = 0;
  /** process.hrtime of the last send (the CPU profile's clock, in ns). */
  calledAtNs = 0n;
  /** The process's CPU time (µs, all threads) at the last send: a loaded machine stretches it less than wall time. */
  calledCpuUs = 0;
  calls = 0;
  /** The next sends that fail (a Retry is timed on them). */
  failNext = 0;
  private replies = 0;

  send(request: ChatRequest): Promise<ChatResult> {
    this.calledAt = performance.now();
    this.calledAtNs = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    this.calledCpuUs = cpu.user + cpu.system;
    this.calls++;
    if (this.failNext > 0) {
      this.failNext--;
      return Promise.reject(Object.assign(new Error('bench: a failed request'), { userMessage: 'bench: a failed request' }));
    }
    const n = ++this.replies;
    const text = `Reply ${n}. ${`Here is what the note says about item ${n % 97}, with the steps that follow from it and one thing to check. `.repeat(4)}`;
    request.onToken?.(text);
    const inputTokens = request.messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4), 0);
    return Promise.resolve({ text, usage: { inputTokens, outputTokens: Math.ceil(text.length / 4), cachedReadTokens: Math.max(0, inputTokens - 600), cacheWriteTokens: 0 } });
  }
}

/** One provider, one model, no generated titles, no condensing (the budget never binds). */
export function benchSettings(): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [{ id: 'local', kind: 'openai', name: 'Local', baseUrl: 'http://127.0.0.1:9/v1', models: ['gpt-4o'], secretId: 'bench' }],
    defaultProviderId: 'local',
    defaultModel: 'gpt-4o',
    generateTitles: false,
    autoCondense: false,
    maxContextTokens: WINDOW,
    contextWindows: { 'gpt-4o': WINDOW },
  });
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  return settings;
}
