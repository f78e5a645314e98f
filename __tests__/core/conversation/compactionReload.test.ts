import type { CompactionEvent } from '../../../src/core/conversation/records/compaction';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { unrecordedText } from '../../../src/core/conversation/compactionRecords';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { conversationFromEngine, reloadThroughNote, type Reloaded } from '../../../src/core/conversation/reload';
import { toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { replayScenario, replayWithEngine, type ReplayedTurn } from '../../../src/core/scenario/replay';
import { budgetScenario, smallBudget, vault } from './budgetScenario';
import { tickingClock } from './helpers';

const fields = { id: 'chat-budget', provider: 'openai', model: 'gpt-4o' };
const eventsBefore = (turns: readonly ReplayedTurn[], turn: number): CompactionEvent[] => turns.slice(0, turn - 1).flatMap((t) => t.compactions ?? []);

/**
 * A chat condensed several times, saved as a chat note and reopened before every turn (codec,
 * store, rehydration), sends exactly what the unbroken session sends: every message byte for byte,
 * every prefix verdict (`condensed` where the unbroken one says so, extends everywhere else).
 */
describe('compactions survive a save and reload before every turn', () => {
  for (const [name, summarize] of [
    ['summaries', true],
    ['omitted (summaries off)', false],
  ] as const) {
    test(`${name}: the reloaded chat's requests equal the unbroken one's`, async () => {
      const scenario = budgetScenario();
      const budget = smallBudget(summarize);
      const plain = await replayScenario(scenario, vault(), { budget });
      const events = plain.flatMap((t) => t.compactions ?? []);
      // The scenario does what it is for: several compactions, one manual, masking kept history.
      expect(events.length).toBeGreaterThanOrEqual(5);
      expect(events.every((e) => e.kind === (summarize ? 'summary' : 'omitted'))).toBe(true);
      expect(events.some((e) => e.trigger === 'manual')).toBe(true);
      expect(events.some((e) => e.outputsMasked > 0)).toBe(true);
      expect(plain.filter((t) => t.assembly.prefixChange?.reason === 'condensed').length).toBeGreaterThanOrEqual(5);
      expect(plain.some((t) => t.assembly.messages.some((m) => m.content.includes('lines truncated ...]')))).toBe(true);

      const reloads: Reloaded[] = [];
      const reloaded = await replayScenario(scenario, vault(), {
        budget,
        beforeTurn: async (engine, turn, overlay) => {
          // As the inspector does: the events of the turns so far complete the note's records.
          const r = await reloadThroughNote(engine, overlay, fields, { compactions: eventsBefore(plain, turn) });
          expect(r.warnings).toEqual([]);
          expect(r.issues).toEqual([]);
          reloads.push(r);
          return r.engine;
        },
      });
      expect(reloaded.map(toInspectRecord)).toEqual(plain.map(toInspectRecord));
      expect(reloaded.map((t) => t.compactions ?? [])).toEqual(plain.map((t) => t.compactions ?? []));
      // The notes carried the compactions: one callout per compaction so far, the latest one's text as the engine renders it.
      const last = reloads[reloads.length - 1].text;
      expect(last.match(/^> \[!strata-summary\]- Condensed: turns 1–\d+ (summarized|omitted)$/gm)).toHaveLength(eventsBefore(plain, plain.length).length);
    });
  }

  test('without the events, the latest compaction alone is recorded (neutral figures), and the requests are the same', async () => {
    const scenario = budgetScenario(20);
    const budget = smallBudget();
    const plain = await replayScenario(scenario, vault(), { budget });
    const reloaded = await replayScenario(scenario, vault(), {
      budget,
      beforeTurn: async (engine, _turn, overlay) => (await reloadThroughNote(engine, overlay, fields)).engine,
    });
    expect(reloaded.map(toInspectRecord)).toEqual(plain.map(toInspectRecord));
  });

  test('the saved chat (the inspector\'s --save-note) records every compaction; reopened, it renders the latest', async () => {
    const scenario = budgetScenario();
    const { turns, engine } = await replayWithEngine(scenario, vault(), { budget: smallBudget() });
    const events = turns.flatMap((t) => t.compactions ?? []);
    const conversation = conversationFromEngine(engine.snapshot(), fields, tickingClock(), turns.map((t) => t.assembly), events);
    const records = conversation.compactions ?? [];
    expect(records.map((r) => [r.trigger, r.previous, r.through, r.tokensBefore, r.tokensAfter])).toEqual(events.map((e) => [e.trigger, e.previous, e.through, e.tokensBefore, e.tokensAfter]));
    const current = engine.currentCompaction();
    expect(records[records.length - 1]).toEqual(expect.objectContaining({ text: current?.text, maskedThrough: current?.maskedThrough, masking: current?.masking }));
    // The engine keeps only the latest summary: earlier ones say so, and never pass for a summary.
    expect(records.slice(0, -1).map((r) => r.text)).toEqual(events.slice(0, -1).map((e) => unrecordedText(e.through)));

    const note = encodeChatNote(conversation);
    const decoded = decodeChatNote(note, { id: 'x', now: 0 });
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(conversation);
    const restored = await rehydrate(decoded.conversation, vault());
    expect(restored.issues).toEqual([]);
    expect(restored.engine.currentCompaction()).toEqual(current);
  });
});
