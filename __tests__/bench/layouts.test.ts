import path from 'node:path';
import { renderItem } from '../../src/core/engine/render';
import { replayScenario, type ReplayedTurn } from '../../src/core/scenario/replay';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { encodePrompt, roleMarker } from '../../testing/providerServer/prompt';
import { loadScenarioFile } from '../../src/node/scenarioFiles';
import { RequestEncoder } from '../../bench/cache/encode';
import { appendOnlyRequests, lowerBound, naiveRequests } from '../../bench/cache/layouts';
import { simulateCaches, totals } from '../../bench/cache/simulate';

const demo = path.resolve(__dirname, '..', '..', 'examples', 'scenarios', 'demo.json');

describe('benchmark layouts over the demo scenario (real engine, real files, real tokenizer)', () => {
  let turns: ReplayedTurn[];
  beforeAll(async () => {
    const { scenario, vaultDir } = loadScenarioFile(demo);
    turns = await replayScenario(scenario, new FsVault(vaultDir));
  });

  test('append-only: every request extends the previous one by its reply and one user message', () => {
    const requests = appendOnlyRequests(turns);
    expect(requests).toHaveLength(turns.length);
    for (let i = 1; i < requests.length; i++) {
      expect(requests[i].slice(0, requests[i - 1].length)).toEqual(requests[i - 1]);
      expect(requests[i].slice(requests[i - 1].length).map((m) => m.role)).toEqual(['assistant', 'user']);
      expect(requests[i][requests[i - 1].length].content).toBe(turns[i - 1].reply);
    }
    // Each item version is sent exactly once across the whole conversation.
    const all = requests[requests.length - 1].map((m) => m.content).join('\n');
    for (const turn of turns) {
      for (const s of turn.assembly.envelope.layers.L3.segments) {
        if (s.type === 'item') expect(all.split(renderItem(s.item)).length - 1).toBe(1);
      }
    }
  });

  test('naive: the last user message carries every item attached so far, in full', () => {
    const requests = naiveRequests(turns);
    const seen = new Map<string, string>();
    requests.forEach((request, i) => {
      for (const s of turns[i].assembly.envelope.layers.L3.segments) if (s.type === 'item') seen.set(s.item.id, renderItem(s.item));
      const last = request[request.length - 1];
      expect(last.role).toBe('user');
      for (const rendered of seen.values()) expect(last.content).toContain(rendered);
      // History is raw: user texts and replies only.
      expect(request.slice(1, -1).map((m) => m.content)).toEqual(turns.slice(0, i).flatMap((t) => [t.assembly.envelope.layers.L5.segments[0].text, t.reply]));
    });
  });

  test('no layout leaves fewer tokens uncached than the information lower bound', () => {
    const counter = tokenCounterFor('gpt-4o');
    const bound = lowerBound(turns, counter);
    expect(bound.tokens).toBeGreaterThan(0);
    const encoder = new RequestEncoder('gpt-4o', counter);
    for (const requests of [turns.map((t) => t.assembly.messages), naiveRequests(turns), appendOnlyRequests(turns)]) {
      const t = totals(simulateCaches(requests, 'gpt-4o', encoder));
      expect(t.openaiUncached).toBeGreaterThanOrEqual(bound.tokens);
      expect(t.anthropicUncached).toBeGreaterThanOrEqual(bound.tokens);
      expect(t.openaiCached + t.openaiUncached).toBe(t.promptTokens);
    }
  });

  test('the memoising encoder produces exactly the provider server\'s token sequence and prefix keys', () => {
    const encoder = new RequestEncoder('gpt-4o', tokenCounterFor('gpt-4o'));
    const messages = turns[3].assembly.messages;
    const mine = encoder.encode(messages, new Set([0, messages.length - 1]));
    const server = encodePrompt(
      'gpt-4o',
      messages.map((m, i) => ({ text: roleMarker(m.role) + m.content, breakpoint: i === 0 || i === messages.length - 1 })),
    );
    expect(Array.from(mine.tokens)).toEqual(server.tokens);
    expect(mine.boundaries.map(({ key, prefixTokens, breakpoint }) => ({ key, prefixTokens, breakpoint }))).toEqual(
      server.boundaries.map(({ key, prefixTokens, breakpoint }) => ({ key, prefixTokens, breakpoint })),
    );
  });

  test('OpenAI rule over an append-only conversation: each turn reads the previous prompt, in 128-token steps', () => {
    const encoder = new RequestEncoder('gpt-4o', tokenCounterFor('gpt-4o'));
    const use = simulateCaches(appendOnlyRequests(turns), 'gpt-4o', encoder);
    expect(use[0].openaiCached).toBe(0);
    for (let i = 1; i < use.length; i++) {
      const previous = use[i - 1].promptTokens;
      const expected = previous >= 1024 ? Math.floor(previous / 128) * 128 : 0;
      expect(use[i].openaiCached).toBe(expected);
    }
  });
});
