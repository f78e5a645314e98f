import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SummaryCache, type SummaryStore } from '../../../src/core/planning/summaryCache';
import { fileSummaryStore } from '../../../src/node/fileSummaryStore';
import type { ProviderServer } from '../../../testing/providerServer';
import { FsVault } from '../../../src/node/fsVault';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { makeController, settingsFor } from '../chat/controllerHarness';
import { handbook } from '../../helpers/handbook';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

const summary = (text: string) => ({ text, model: 'local/gpt-4o-mini' });

function tempFile(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'strata-summaries-')), 'artifact-summaries.json');
}

describe('SummaryCache', () => {
  test('keyed by artifact id, content hash and focus (trimmed); hits and misses counted', async () => {
    const cache = new SummaryCache();
    const key = SummaryCache.key('Handbook.md', 'abc', 'bees');
    expect(SummaryCache.key('Handbook.md', 'abc', '  bees ')).toBe(key);
    expect(new Set([key, SummaryCache.key('Handbook.md', 'abd', 'bees'), SummaryCache.key('Handbook.md', 'abc', 'kayaks'), SummaryCache.key('Other.md', 'abc', 'bees')]).size).toBe(4);
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, summary('Bees: BE-4485.'));
    expect(await cache.get(key)).toEqual(summary('Bees: BE-4485.'));
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
  });

  test('kept in a file: a new cache (a reopened Obsidian, another chat) finds what an earlier one wrote', async () => {
    const file = tempFile();
    const first = new SummaryCache(fileSummaryStore(file));
    await first.set('k1', summary('one'));
    const second = new SummaryCache(fileSummaryStore(file));
    expect(await second.get('k1')).toEqual(summary('one'));
    expect(second.hits).toBe(1);
  });

  test('a broken file is an empty cache, repaired by the next write; a failing store costs only the later summary', async () => {
    const file = tempFile();
    writeFileSync(file, '{not json');
    const cache = new SummaryCache(fileSummaryStore(file));
    expect(await cache.get('k1')).toBeUndefined();
    await cache.set('k1', summary('one'));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ k1: summary('one') });
    const failing: SummaryStore = { load: () => Promise.reject(new Error('disk gone')), save: () => Promise.reject(new Error('disk gone')) };
    const resilient = new SummaryCache(failing);
    await expect(resilient.set('k2', summary('two'))).resolves.toBeUndefined();
    expect(await resilient.get('k2')).toEqual(summary('two'));
  });

  test('the newest entries are kept: the oldest go first, and using an entry does not make it older', async () => {
    const cache = new SummaryCache(null, 2);
    await cache.set('a', summary('a'));
    await cache.set('b', summary('b'));
    await cache.set('a', summary('a2'));
    await cache.set('c', summary('c'));
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toEqual(summary('a2'));
    expect(cache.size).toBe(2);
  });
});

describe('summaries in a chat, over HTTP', () => {
  let server: ProviderServer;
  useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

  function settings(): StrataSettings {
    const base = settingsFor(server.url);
    return { ...base, defaultModel: 'gpt-3.5-turbo', providers: base.providers.map((p) => ({ ...p, models: ['gpt-3.5-turbo'] })) };
  }

  const summaryRequests = () => server.requests.filter((r) => JSON.stringify(r.body).includes('You summarize one document from an Obsidian vault'));

  test('the planner asks for a summary: written once, then a second chat on the same note reads it from the cache', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-sum-vault-'));
    writeFileSync(path.join(dir, 'Handbook.md'), handbook(130));
    const vault = new FsVault(dir);
    const file = tempFile();
    const question = 'Give me an overview of the household handbook.';
    const first = makeController(settings(), { vault, summaryCache: new SummaryCache(fileSummaryStore(file)) });
    await first.controller.send(question, [{ kind: 'note', path: 'Handbook.md' }]);
    const turn = first.controller.state.answered[0];
    expect(turn.error).toBeUndefined();
    expect(turn.plan?.decisions[0]).toMatchObject({ id: 'Handbook.md', strategy: 'summarize', cacheHit: false });
    expect(turn.plan?.cache).toEqual({ hits: 0, misses: 1 });
    expect(turn.plan?.calls.map((c) => c.kind)).toEqual(['planner', 'summary']);
    expect(summaryRequests()).toHaveLength(1);
    expect(first.controller.state.plan.calls).toBe(2);

    // Another chat (a new controller, the cache read back from its file): no summary call.
    const second = makeController(settings(), { vault, ids: ['chat-x'], summaryCache: new SummaryCache(fileSummaryStore(file)) });
    await second.controller.send(question, [{ kind: 'note', path: 'Handbook.md' }]);
    const again = second.controller.state.answered[0];
    expect(again.plan?.decisions[0]).toMatchObject({ strategy: 'summarize', cacheHit: true });
    expect(again.plan?.cache).toEqual({ hits: 1, misses: 0 });
    expect(again.plan?.calls.map((c) => c.kind)).toEqual(['planner']);
    expect(summaryRequests()).toHaveLength(1);
    // The summary sent is the model's, headed as a summary, and the request fits the budget.
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain('[Summary of \\"Handbook\\"');
    expect(again.envelope?.promptTokens).toBeLessThanOrEqual(12_289);
  });
});
