import { SUMMARY_INSTRUCTIONS } from '../../../src/core/budget/summarizer';
import type { ProviderFactory } from '../../../src/core/ports/providerFactory';
import type { ChatRequest } from '../../../src/core/ports/chatModel';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { MemoryChatModel } from '../../helpers/memoryChatModel';
import { makeController, PLAN, settingsFor } from './controllerHarness';

/** A 3,000-token budget: gpt-4o with a 6,000-token window, 3,000 kept for the reply (the reserve is held to half). */
function smallWindow(extra: Partial<StrataSettings> = {}): StrataSettings {
  const base = settingsFor('http://127.0.0.1:9');
  return {
    ...base,
    providers: [...base.providers, { id: 'summ', kind: 'openai', name: 'Summaries', models: ['gpt-4o-mini'], secretId: 'local-key' }],
    contextWindows: { 'gpt-4o': 6_000 },
    ...extra,
  };
}

/** A summary as a model would write it: short, naming how much it covers. */
const summarize = (request: ChatRequest) =>
  isSummaryRequest(request.messages) ? `## Asked\n- ${(request.messages[1].content.match(/### Turn/g) ?? []).length} questions about words.\n## Notes\n[[Plan]]` : undefined;

/** The chat's model and a separate summary model (for summaries on `summ/gpt-4o-mini`). */
function models() {
  const main = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' }, 128_000, summarize);
  const summ = new MemoryChatModel({ id: 'summ', kind: 'openai', model: 'gpt-4o-mini' }, 128_000, summarize);
  const providers: ProviderFactory = (p) => (p.id === 'summ' ? summ : main);
  return { main, summ, providers };
}

const long = (i: number) => `Question ${i}: ${Array.from({ length: 120 }, (_, k) => `word${(k * 7 + i) % 90}`).join(' ')}?`;
const isSummaryRequest = (messages: readonly { role: string; content: string }[]) => messages[0]?.content === SUMMARY_INSTRUCTIONS;

describe('a chat over its budget condenses itself and keeps going', () => {
  test('every request fits, the compaction is one named break, the library is carried, the summary cost counts', async () => {
    const { main, providers } = models();
    const { controller } = makeController(smallWindow(), { providers });
    await controller.send('Read the plan.', [{ kind: 'note', path: PLAN }]);
    for (let i = 1; i <= 16; i++) await controller.send(long(i));
    const state = controller.state;
    expect(state.pending).toBeNull();
    expect(state.answered).toHaveLength(17);
    const budget = controller.budgetFor('gpt-4o');
    expect(budget.tokens).toBe(3_000);
    for (const turn of state.answered) expect(turn.envelope!.promptTokens).toBeLessThanOrEqual(budget.tokens);

    const compactions = state.conversation.compactions ?? [];
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions[0]).toMatchObject({ trigger: 'auto', kind: 'summary', previous: 0 });
    expect(compactions[0].summary).toMatchObject({ provider: 'local', model: 'gpt-4o', calls: 1 });
    // The summary was written on the chat's model (no summary model set), from the seed's focus.
    const summaryRequests = main.requests.filter((r) => isSummaryRequest(r.messages));
    expect(summaryRequests).toHaveLength(compactions.length);

    // The turn after each compaction names it; every other turn extends the last request byte for byte.
    const chatRequests = main.requests.filter((r) => !isSummaryRequest(r.messages));
    expect(chatRequests).toHaveLength(17);
    state.answered.forEach((turn, i) => {
      if (i === 0) return;
      if (turn.envelope!.prefixChange) {
        expect(turn.envelope!.prefixChange.reason).toBe('condensed');
        return;
      }
      const before = [...chatRequests[i - 1].messages, { role: 'assistant', content: state.answered[i - 1].reply }];
      expect(chatRequests[i].messages.slice(0, before.length)).toEqual(before);
    });
    const breaks = state.answered.filter((t) => t.envelope!.prefixChange).length;
    expect(breaks).toBe(compactions.length);

    // The plan's note (attached in a condensed turn) is sent again once, in the block after L1.
    const last = chatRequests[chatRequests.length - 1].messages;
    expect(last[0].content).toContain(`<note_context id="${PLAN}"`);
    expect(last.slice(1).some((m) => m.content.includes('<note_context'))).toBe(false);

    // Summaries are part of the chat's usage.
    const turnsIn = state.answered.reduce((sum, t) => sum + (t.usage?.inputTokens ?? 0), 0);
    const summariesIn = compactions.reduce((sum, c) => sum + (c.summary?.usage.inputTokens ?? 0), 0);
    expect(summariesIn).toBeGreaterThan(0);
    expect(state.totalUsage.inputTokens).toBe(turnsIn + summariesIn);

    // The usage line shows the next request against the budget.
    await controller.previewNext();
    const next = controller.state.nextRequest!;
    expect(next).toMatchObject({ budget: { tokens: 3_000, threshold: 2_400 }, model: 'gpt-4o' });
    expect(next.promptTokens).toBeGreaterThan(chatRequests[chatRequests.length - 1].messages.length);
    expect(next.untilCondense).toBe(Math.max(0, 2_400 - next.promptTokens));
  });

  test('summaries on a separate summary model; a failing one falls back to omitting, with a warning, and the message is answered', async () => {
    const { summ, providers } = models();
    summ.inject({ kind: 'fail', message: 'The summary model is down (503).' }, 10);
    const { controller } = makeController(smallWindow({ summaryModel: 'summ/gpt-4o-mini' }), { providers });
    for (let i = 1; i <= 14; i++) await controller.send(long(i));
    const state = controller.state;
    expect(state.pending).toBeNull();
    expect(summ.requests.length).toBeGreaterThanOrEqual(1);
    const [first] = state.conversation.compactions ?? [];
    expect(first).toMatchObject({ kind: 'omitted', summary: null, fallback: expect.stringContaining('The summary model is down (503).') });
    expect(state.warnings.find((w) => w.source === 'condense')?.text).toMatch(/^Condensed without a summary \(the summary failed: .*\): \d+ earlier messages are omitted/);
  });

  test('stop while condensing: the message is kept (stopped), nothing is condensed; retry condenses and answers', async () => {
    const { summ, providers } = models();
    const { controller } = makeController(smallWindow({ summaryModel: 'summ/gpt-4o-mini' }), { providers });
    summ.inject({ kind: 'hang' });
    let sent = 0;
    for (; sent < 30; sent++) {
      const turn = controller.send(long(sent));
      // The summary hangs: once the chat says it is condensing and the summary request is out, stop.
      const stopped = await new Promise<boolean>((resolve) => {
        const stopWhenAsked = () => {
          if (summ.requests.length === 0) return void setImmediate(stopWhenAsked);
          controller.stop();
          resolve(true);
        };
        const off = controller.subscribe(() => {
          if (controller.state.condensing) {
            off();
            stopWhenAsked();
          }
        });
        void turn.then(() => {
          off();
          resolve(false);
        });
      });
      await turn;
      if (stopped) break;
    }
    expect(sent).toBeLessThan(30);
    const state = controller.state;
    expect(state.pending).toMatchObject({ status: 'stopped', text: long(sent) });
    expect(state.conversation.compactions ?? []).toHaveLength(0);
    await controller.retry();
    expect(controller.state.pending).toBeNull();
    expect(controller.state.conversation.compactions).toHaveLength(1);
    expect(controller.state.answered[controller.state.answered.length - 1].text).toBe(long(sent));
  });

  test('the Condense button: keeps the newest messages, says tokens before and after, and the next turn names the break', async () => {
    const { providers } = models();
    const { controller } = makeController(smallWindow({ contextWindows: {}, keepMessages: 2 }), { providers });
    for (let i = 1; i <= 4; i++) await controller.send(long(i));
    await controller.previewNext();
    const before = controller.state.nextRequest!.promptTokens;
    const said = await controller.condense();
    expect(said).toMatch(/^Condensed: turns 1–3 summarized; the next request goes from ([\d,]+) to ([\d,]+) tokens\.$/);
    const [, from, to] = /from ([\d,]+) to ([\d,]+)/.exec(said)!;
    expect(Number(from.replace(/,/g, ''))).toBe(before);
    expect(Number(to.replace(/,/g, ''))).toBeLessThan(before);
    await new Promise((resolve) => setImmediate(resolve));
    expect(controller.state.nextRequest!.promptTokens).toBe(Number(to.replace(/,/g, '')));
    await controller.send('And now?');
    const last = controller.state.answered[4];
    expect(last.envelope!.prefixChange).toMatchObject({ reason: 'condensed', detail: expect.stringContaining('turns 1-3') });
    // Again: the previous summary and turn 4 are summarized together; turn 5 stays.
    expect(await controller.condense()).toMatch(/^Condensed: turns 1–4 summarized;/);
    expect(controller.state.conversation.compactions!.map((c) => [c.trigger, c.previous, c.through])).toEqual([
      ['manual', 0, 3],
      ['manual', 3, 4],
    ]);
    expect(await controller.condense()).toBe('Nothing to condense: the earlier messages are already condensed or too short to be worth a summary, and the newest ones always stay.');
  });
});

describe('a condensed chat in its note', () => {
  test('reopened, it sends exactly what the unbroken chat would have', async () => {
    const { main, providers } = models();
    const first = makeController(smallWindow(), { providers });
    await first.controller.send('Read the plan.', [{ kind: 'note', path: PLAN }]);
    for (let i = 1; i <= 12; i++) await first.controller.send(long(i));
    expect(first.controller.state.conversation.compactions?.length).toBeGreaterThanOrEqual(1);
    await first.controller.flush();
    // The same chat continued in this controller, and reopened in another one over the same notes.
    const reopened = makeController(smallWindow(), { providers, files: first.files });
    await reopened.controller.open(first.controller.chatId);
    await first.controller.send('And the next step?');
    const unbroken = main.lastMessages;
    await reopened.controller.send('And the next step?');
    expect(main.lastMessages).toEqual(unbroken);
    expect(reopened.controller.state.answered.at(-1)!.envelope!.prefixChange).toEqual(first.controller.state.answered.at(-1)!.envelope!.prefixChange);
  });

  test('a summary corrected in the note while the chat is open is what the model gets next, named as a condensed break', async () => {
    const { main, providers } = models();
    const { controller, files } = makeController(smallWindow({ contextWindows: {}, keepMessages: 2 }), { providers });
    for (let i = 1; i <= 4; i++) await controller.send(long(i));
    await controller.condense();
    await controller.flush();
    const [path] = [...files.files.keys()];
    const text = files.files.get(path)!;
    expect(text).toContain('[!strata-summary]');
    files.files.set(path, text.replace('questions about words.', 'questions about words, and the user wants tomatoes.'));
    await controller.rename('Words and tomatoes');
    await controller.send('What does the user want?');
    const sent = main.lastMessages.map((m) => m.content).join('\n');
    expect(sent).toContain('and the user wants tomatoes.');
    expect(controller.state.answered.at(-1)!.envelope!.prefixChange?.reason).toBe('condensed');
  });
});
