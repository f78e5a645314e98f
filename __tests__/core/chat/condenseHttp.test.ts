/**
 * Condensing over real HTTP: real LangChain clients to the local provider server, for a stateless
 * provider (Anthropic Messages) and a session-stateful one (OpenAI Responses, whose session a
 * compaction invalidates: the next request goes out in full, from the summary).
 */
import { SUMMARY_INSTRUCTIONS } from '../../../src/core/budget/summarizer';
import type { StrataSettings } from '../../../src/core/settings/settings';
import type { ProviderServer } from '../../../testing/providerServer';
import { makeController, PLAN, settingsFor } from './controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

const long = (i: number) => `Question ${i}: ${Array.from({ length: 110 }, (_, k) => `term${(k * 11 + i) % 97}`).join(' ')}?`;

function small(kind: 'anthropic' | 'openai-responses'): StrataSettings {
  const s = settingsFor(server.url, kind);
  const model = s.defaultModel;
  return { ...s, contextWindows: { [model]: 7_000 } };
}

/** The system text of a recorded request (Anthropic's top-level field, or the first message / instructions). */
function systemOf(body: unknown): string {
  const b = body as { system?: unknown; messages?: { role: string; content: unknown }[]; input?: { role?: string; content?: unknown }[]; instructions?: string };
  const text = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.map((p: { text?: string }) => p.text ?? '').join('') : '');
  if (b.system !== undefined) return text(b.system);
  if (b.instructions) return b.instructions;
  const first = (b.messages ?? b.input ?? [])[0];
  return first && (first.role === 'system' || first.role === 'developer') ? text(first.content) : '';
}

describe('condensing over HTTP', () => {
  test('Anthropic: the summary is a request of its own; the chat goes on inside the budget and counts the summary', async () => {
    const { controller } = makeController(small('anthropic'));
    await controller.send('Read the plan.', [{ kind: 'note', path: PLAN }]);
    for (let i = 1; i <= 10; i++) await controller.send(long(i));
    const state = controller.state;
    expect(state.pending).toBeNull();
    const budget = controller.budgetFor('claude-sonnet-4-5');
    expect(budget).toMatchObject({ estimated: true, tokens: Math.floor((7_000 - 3_500) * 0.85) });
    for (const turn of state.answered) expect(turn.envelope!.promptTokens).toBeLessThanOrEqual(budget.tokens);
    const compactions = state.conversation.compactions ?? [];
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    const summaryCalls = server.requests.filter((r) => r.api !== undefined && systemOf(r.body) === SUMMARY_INSTRUCTIONS);
    expect(summaryCalls).toHaveLength(compactions.reduce((n, c) => n + (c.summary?.calls ?? 0), 0));
    // The usage the server reported for the summary is the chat's too.
    expect(compactions[0].summary!.usage.inputTokens).toBeGreaterThan(0);
    const turnsIn = state.answered.reduce((sum, t) => sum + (t.usage?.inputTokens ?? 0), 0);
    expect(state.totalUsage.inputTokens).toBe(turnsIn + compactions.reduce((sum, c) => sum + (c.summary?.usage.inputTokens ?? 0), 0));
  });

  test('OpenAI Responses: a compaction invalidates the provider session; the next request is full (condensed), then deltas resume', async () => {
    const { controller } = makeController(small('openai-responses'));
    for (let i = 1; i <= 10; i++) await controller.send(long(i));
    const answered = controller.state.answered;
    const condensedAt = answered.findIndex((t) => t.envelope!.prefixChange?.reason === 'condensed');
    expect(condensedAt).toBeGreaterThan(1);
    expect(answered[condensedAt - 1].envelope!.compile).toMatchObject({ mode: 'delta' });
    expect(answered[condensedAt].envelope!.compile).toMatchObject({ mode: 'full', reason: expect.stringMatching(/^condensed: /) });
    const after = answered.slice(condensedAt + 1).find((t) => !t.envelope!.prefixChange);
    expect(after?.envelope!.compile).toMatchObject({ mode: 'delta' });
  });
});
