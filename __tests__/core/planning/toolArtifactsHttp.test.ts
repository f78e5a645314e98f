import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderNote } from '../../../src/core/agent/tools/readNote';
import type { CompletedTurn } from '../../../src/core/engine/completedTurn';
import { outputHash } from '../../../src/core/engine/toolForms';
import type { ToolOutput } from '../../../src/core/engine/types';
import { modelSummarizer } from '../../../src/core/planning/summarize';
import { SummaryCache } from '../../../src/core/planning/summaryCache';
import { DEFAULT_TOOL_FORMS, planToolForms } from '../../../src/core/planning/toolArtifacts';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import type { ProviderServer } from '../../../testing/providerServer';
import { httpProviders, settingsFor } from '../chat/controllerHarness';
import { VAULT } from '../../helpers/paths';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const TASK = 'Tasks/Writing a task.md';
const LOG = 'Projects/Greenhouse/Climate log.md';
const read = (p: string): ToolOutput => ({ name: 'readNote', input: JSON.stringify({ path: p }), output: renderNote(p, readFileSync(path.join(VAULT, p), 'utf8')) });

function turn(n: number, tools: ToolOutput[]): CompletedTurn {
  return { turn: n, userText: `Turn ${n}: how do I date my tasks?`, reply: `Answer ${n}.`, model: 'gpt-3.5-turbo', dynamic: [], tools, referenced: [], problems: [] };
}

/** The model path: a large earlier output summarized by the summary model over real HTTP, once (the summary cache). */
describe('historical tool outputs summarized by the summary model', () => {
  test('a large readNote output becomes a headed summary; a smaller one its digest; the second compaction reads the cache', async () => {
    const settings = settingsFor(server.url);
    const chat = { provider: settings.providers[0].id, model: 'gpt-3.5-turbo' };
    const counter = tokenCounterFor(chat.model);
    const cache = new SummaryCache();
    // The seed's 10K-character row, lowered so the project's largest note (9.9K) counts as large.
    const options = { ...DEFAULT_TOOL_FORMS, summaryMinChars: 8_000, summarizer: modelSummarizer(settings, chat, { providers: httpProviders }), cache };
    const kept = [turn(4, [read(TASK), read(LOG)]), turn(5, [])];
    const forms = await planToolForms(kept, undefined, counter, options, new AbortController().signal);
    expect(forms.map((f) => [f.turn, f.index, f.kind])).toEqual([
      [4, 0, 'summary'],
      [4, 1, 'digest'],
    ]);
    const summary = forms[0].text;
    expect(summary.split('\n')[0]).toMatch(/^\[Summary of the readNote output of turn 4 \(\d+ tokens in full\), written when the conversation was condensed\. Call readNote again for the whole text\.\]$/);
    expect(summary).toContain('- ');
    expect(forms[0].hash).toBe(outputHash(kept[0].tools[0].output));
    expect(counter.count(summary) * 2).toBeLessThanOrEqual(counter.count(kept[0].tools[0].output));
    const summaryCalls = () => server.requests.filter((r) => JSON.stringify(r.body).includes('You summarize one document')).length;
    expect(summaryCalls()).toBe(1);
    // A later compaction keeps the forms it is given; a fresh decision on the same output reads the cache.
    expect(await planToolForms(kept, forms, counter, options, new AbortController().signal)).toEqual(forms);
    expect(await planToolForms(kept, undefined, counter, options, new AbortController().signal)).toEqual(forms);
    expect(summaryCalls()).toBe(1);
    expect(cache.hits).toBe(1);
  });
});
