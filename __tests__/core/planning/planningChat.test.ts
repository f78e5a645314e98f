import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsVault } from '../../../src/node/fsVault';
import type { ProviderServer } from '../../../testing/providerServer';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { makeController, settingsFor } from '../chat/controllerHarness';
import { handbook, handbookFact } from '../../helpers/handbook';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const HANDBOOK = 'Reference/Handbook.md';

function vaultWithHandbook(): FsVault {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-plan-'));
  mkdirSync(path.join(dir, 'Reference'));
  writeFileSync(path.join(dir, HANDBOOK), handbook(130));
  writeFileSync(path.join(dir, 'Reference/Short.md'), '# Short\n\nA short note about the house.\n');
  return new FsVault(dir);
}

/** A 16k-window chat model (gpt-3.5-turbo: a 12,289-token input budget) on the local server. */
function settings(over: Partial<StrataSettings> = {}): StrataSettings {
  const base = settingsFor(server.url);
  return { ...base, defaultModel: 'gpt-3.5-turbo', providers: base.providers.map((p) => ({ ...p, models: ['gpt-3.5-turbo'] })), ...over };
}

/** The user messages of chat requests (the planner's and summaries' requests are told apart by their system text). */
function chatRequests(): Array<{ text: string }> {
  return server.requests
    .filter((r) => r.api === 'openai-chat')
    .map((r) => ({ text: JSON.stringify(r.body) }))
    .filter((r) => !r.text.includes('the context planner of Strata') && r.text.includes('Household handbook'));
}

describe('artifact planning in a chat', () => {
  test('a handbook four times the budget: planned by the planner model, the answering section sent, kept on the next turn, and after reopening', async () => {
    const vault = vaultWithHandbook();
    const h = makeController(settings(), { vault });
    await h.controller.send('What is the beekeeping access code?', [{ kind: 'note', path: HANDBOOK }]);
    let state = h.controller.state;
    const first = state.answered[0];
    expect(first.error).toBeUndefined();
    expect(first.plan?.reason).toBe('near-budget');
    expect(first.plan?.planner).toBe('llm');
    expect(first.plan?.calls.map((c) => c.kind)).toContain('planner');
    expect(first.envelope?.promptTokens).toBeLessThanOrEqual(12_289);
    expect(chatRequests()[0].text).toContain(handbookFact(5));
    expect(state.plan.entries).toEqual([expect.objectContaining({ id: HANDBOOK, strategy: expect.stringMatching(/rag_extract|summarize/) })]);

    await h.controller.send('And the kayaking one?', [{ kind: 'note', path: HANDBOOK }]);
    state = h.controller.state;
    const second = state.answered[1];
    expect(second.envelope?.prefixChange).toBeNull();
    expect(second.referenced).toEqual([HANDBOOK]);
    expect(second.plan?.planner).toBeNull();
    expect(second.plan?.decisions[0]).toMatchObject({ id: HANDBOOK, kept: true });

    // Reopened: the kept extract is read from the chat note, the next request still extends the last one.
    await h.controller.flush();
    const again = makeController(settings(), { vault, files: h.files, ids: ['chat-b'] });
    await again.controller.open('chat-a');
    expect(again.controller.state.plan.entries).toHaveLength(1);
    await again.controller.send('Thanks. One more: the telescope code?', [{ kind: 'note', path: HANDBOOK }]);
    const third = again.controller.state.answered[2];
    expect(third.error).toBeUndefined();
    expect(third.envelope?.prefixChange).toBeNull();
  });

  test('the user pins the item in full or excludes it: a named re-plan', async () => {
    const vault = vaultWithHandbook();
    const h = makeController(settings({ contextPlanning: 'heuristic' }), { vault });
    await h.controller.send('greenhouse humidity?', [{ kind: 'note', path: 'Reference/Short.md' }, { kind: 'note', path: HANDBOOK }]);
    const first = h.controller.state.answered[0];
    expect(first?.error).toBeUndefined();
    expect(first.plan?.planner).toBe('heuristic');
    const text = h.controller.setPlanOverride(HANDBOOK, 'exclude');
    expect(text).toMatch(/excluded/);
    expect(h.controller.state.library.map((l) => l.id)).toEqual(['Reference/Short.md']);
    await h.controller.send('and the bicycles?', []);
    const second = h.controller.state.answered[1];
    expect(second.envelope?.prefixChange?.reason).toBe('replanned');
  });
});
