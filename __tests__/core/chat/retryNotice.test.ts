/**
 * Bug 7: retries and retry-after waits are visible. Real LangChain clients over real HTTP to the
 * local provider server with 429 + retry-after and 5xx faults: the chat's state carries each retry
 * (attempt, of, wait, why) while it waits, and Stop (the status line's Cancel) during a wait ends
 * the send at once, the message kept as not answered.
 */
import type { ProviderServer } from '../../../testing/providerServer';
import type { ProviderFactory } from '../../../src/core/ports/providerFactory';
import type { RetryNotice } from '../../../src/core/ports/chatModel';
import { retryStatusText, secondsUntil } from '../../../src/core/chat/retryStatus';
import { createProvider } from '../../../src/providers/createProvider';
import { KEY, makeController, PLAN, settingsFor } from './controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

/** Real clients; `sleep` records the waits instead of waiting (undefined: the real timer). */
function providers(waits?: number[]): ProviderFactory {
  return (p, model) =>
    createProvider(
      { id: p.id, kind: p.kind, model, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) },
      {
        getSecret: (id) => (id === 'local-key' ? KEY : null),
        fetch,
        retry: { baseDelayMs: 400, maxDelayMs: 8_000 },
        ...(waits
          ? {
              sleep: (ms: number, signal?: AbortSignal) => {
                waits.push(ms);
                return signal?.aborted ? Promise.reject(signal.reason as Error) : Promise.resolve();
              },
            }
          : {}),
      },
    );
}

describe.each(['openai', 'anthropic', 'openai-responses'] as const)('%s', (kind) => {
  test('a 429 with retry-after, then a 5xx: each retry is in the state while it waits, then the reply completes', async () => {
    const waits: number[] = [];
    const { controller } = makeController(settingsFor(server.url, kind), { providers: providers(waits) });
    const seen: RetryNotice[] = [];
    const streamingWhileRetrying: (string | null)[] = [];
    controller.subscribe(() => {
      const retry = controller.state.retry;
      if (retry && retry !== seen[seen.length - 1]) {
        seen.push(retry);
        streamingWhileRetrying.push(controller.state.streamingText);
      }
    });
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 20 });
    server.injectFault({ kind: 'status', status: kind === 'anthropic' ? 529 : 503 });
    await controller.send('Summarise the plan', [{ kind: 'note', path: PLAN }]);
    expect(seen).toEqual([
      { attempt: 2, of: 3, delayMs: 20_000, reason: 'rate-limited', serverAsked: true },
      // No retry-after: Strata's own backoff (base 400 ms, doubled for the third attempt).
      { attempt: 3, of: 3, delayMs: 800, reason: 'server', serverAsked: false },
    ]);
    expect(waits).toEqual([20_000, 800]);
    // Shown in the message being answered: the reply is in flight (nothing streamed yet).
    expect(streamingWhileRetrying).toEqual(['', '']);
    expect(seen.map((n) => retryStatusText(n, secondsUntil(n.delayMs, 0)))).toEqual([
      'Rate limited: retrying (2/3) in 20 s',
      'Server error: retrying (3/3) in 1 s',
    ]);
    const state = controller.state;
    expect(state.retry).toBeNull();
    expect(state.answered).toHaveLength(1);
    expect(server.requests.filter((r) => r.api !== 'anthropic' || !r.path.includes('count_tokens'))).toHaveLength(3);
  });
});

test('Cancel (Stop) during a retry-after wait ends the send at once: no further attempt, the message kept as not answered', async () => {
  // The real timer: a 30 s wait that only Stop can cut short (the test would time out otherwise).
  const { controller } = makeController(settingsFor(server.url, 'openai'), { providers: providers() });
  const notices: RetryNotice[] = [];
  controller.subscribe(() => {
    const retry = controller.state.retry;
    if (retry && !notices.includes(retry)) {
      notices.push(retry);
      controller.stop();
    }
  });
  server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 30 });
  await controller.send('Summarise the plan');
  expect(notices).toEqual([{ attempt: 2, of: 3, delayMs: 30_000, reason: 'rate-limited', serverAsked: true }]);
  expect(server.requests).toHaveLength(1);
  let state = controller.state;
  expect(state.busy).toBe(false);
  expect(state.retry).toBeNull();
  expect(state.pending).toMatchObject({ text: 'Summarise the plan', status: 'stopped' });
  expect(state.pending?.error).toBe('Stopped. Your message is kept: retry to send it again.');
  // Moving on: it stays in the chat as not answered, and the next message goes through.
  await controller.send('Something else');
  state = controller.state;
  expect(state.unanswered.map((u) => [u.turn.text, u.turn.status])).toEqual([['Summarise the plan', 'stopped']]);
  expect(state.answered.map((t) => t.text)).toEqual(['Something else']);
}, 20_000);
