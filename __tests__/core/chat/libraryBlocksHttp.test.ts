/**
 * Anthropic reads the carried Context Library from its cache after a compaction that appends to it
 * (issue 27): real LangChain client, the local provider server applying Anthropic's documented rule.
 * The system message goes as blocks (L1, one per turn's carried items, the close tag) with a
 * breakpoint after the last carried items, so the next compaction's request finds the previous
 * request's entry one block back (the lookback) and reads everything up to it.
 */
import { SUMMARY_INSTRUCTIONS } from '../../../src/core/budget/summarizer';
import { SUMMARY_MARKER } from '../../../src/core/planning/summarize';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import type { StrataSettings } from '../../../src/core/settings/settings';
import type { ProviderServer } from '../../../testing/providerServer';
import { makeController, settingsFor } from './controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

const NOTES = [
  'Tasks/Writing a task.md',
  'Tasks/Priorities.md',
  'Queries/Backlinks.md',
  'Queries/Limiting.md',
  'Queries/Comments.md',
  'Projects/Greenhouse/Plan.md',
  'Projects/Greenhouse/Seedlings.md',
  'Projects/Greenhouse/Ventilation.md',
  'Reading/The Market Gardener.md',
  'Piano Lessons/Lesson 4.md',
];
const long = (i: number) => `Question ${i}: ${Array.from({ length: 160 }, (_, k) => `term${(k * 11 + i) % 97}`).join(' ')}?`;

function systemText(body: unknown): string {
  const system = (body as { system?: unknown }).system;
  return Array.isArray(system) ? system.map((b: { text?: string }) => b.text ?? '').join('') : typeof system === 'string' ? system : '';
}

interface SystemBlock {
  readonly text: string;
  readonly cache_control?: unknown;
}

function settings(): StrataSettings {
  const s = settingsFor(server.url, 'anthropic');
  return { ...s, contextWindows: { [s.defaultModel]: 16_000 } };
}

describe('the carried library over HTTP (Anthropic)', () => {
  test('the request after a compaction that appends items reads the previous library from the cache', async () => {
    const { controller } = makeController(settings());
    for (let i = 0; i < 40; i++) {
      const note = NOTES[i % NOTES.length];
      await controller.send(long(i), i < NOTES.length ? [{ kind: 'note', path: note }] : []);
      if ((controller.state.conversation.compactions ?? []).length >= 3) break;
    }
    const answered = controller.state.answered;
    // The chat's own requests (the summaries of the conversation and of condensed library notes go
    // with their own instructions), one per answered turn.
    const chat = server.requests.filter((r) => r.api === 'anthropic' && systemText(r.body) !== SUMMARY_INSTRUCTIONS && !systemText(r.body).startsWith(SUMMARY_MARKER));
    expect(chat).toHaveLength(answered.length);
    for (const r of chat) expect((JSON.stringify(r.body).match(/"cache_control"/g) ?? []).length).toBeLessThanOrEqual(4);
    const systems = chat.map((r) => (r.body as { system: SystemBlock[] }).system);
    // Without a carried library the system is one block, as before.
    expect(systems[0]).toHaveLength(1);
    // A compaction that carried more items: more system blocks than the request before it, which had some.
    const grew = systems.findIndex((s, i) => i > 0 && systems[i - 1].length > 1 && s.length > systems[i - 1].length);
    expect(grew).toBeGreaterThan(0);
    expect(answered[grew].envelope!.prefixChange?.reason).toBe('condensed');
    const before = systems[grew - 1];
    const after = systems[grew];
    // The last anchor (a condensed-library block before the library may have its own).
    const anchor = (blocks: SystemBlock[]) => blocks.map((b) => b.cache_control !== undefined).lastIndexOf(true);
    // The anchor is the end of the carried items (the close tag follows it), in both requests.
    expect(anchor(before)).toBe(before.length - 2);
    expect(anchor(after)).toBe(after.length - 2);
    // The blocks up to the previous anchor go again byte for byte: the new items are appended after them.
    expect(after.slice(0, anchor(before) + 1).map((b) => b.text)).toEqual(before.slice(0, anchor(before) + 1).map((b) => b.text));
    const upToAnchor = before.slice(0, anchor(before) + 1).map((b) => b.text).join('');
    expect(systemText(chat[grew].body).startsWith(upToAnchor)).toBe(true);
    // The server read at least that prefix (L1 and the earlier library) from the cache.
    const read = answered[grew].usage!.cachedReadTokens;
    const counter = tokenCounterFor(settings().defaultModel);
    const prefixTokens = before.slice(0, anchor(before) + 1).reduce((n, b, i) => n + counter.encode((i === 0 ? '<|system|>\n' : '') + b.text).length, 0);
    expect(prefixTokens).toBeGreaterThan(1024);
    expect(read).toBeGreaterThanOrEqual(prefixTokens);
  });
});
