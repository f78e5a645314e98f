import fc from 'fast-check';
import path from 'node:path';
import { inputBudget } from '../../../src/core/budget/budget';
import { fitTurn, type FitDeps } from '../../../src/core/budget/condense';
import { ExtractiveSummarizer } from '../../../src/core/budget/summarizer';
import { makeItem } from '../../../src/core/context/items';
import { reloadThroughNote } from '../../../src/core/conversation/reload';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import type { ChatMessage } from '../../../src/core/engine/messages';
import type { CompactionEvent } from '../../../src/core/conversation/records/compaction';
import { toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { replayScenario } from '../../../src/core/scenario/replay';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { promptFragments } from '../../../src/core/systemPrompt';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import { FsVault } from '../../../src/node/fsVault';
import { loadScenarioFile } from '../../../src/node/scenarioFiles';
import { ROOT } from '../../helpers/paths';

/**
 * The library under the budget (issue 27) over random chats that attach, re-attach, edit and remove
 * notes across many library condensings: no request over the budget, no refusal of a message that
 * fits alone, and between named breaks each request extends the previous one byte for byte.
 */
const MODEL = 'gpt-4o';
const FRAGMENTS = promptFragments();
const para = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i % 41}`).join(' ');
const noteText = (k: number, v: number, size: number) => `# Note ${k}\n\n## Part A\n\n${para(size, `a${k}v${v}x`)}\n\n## Part B\n\n${para(size, `b${k}v${v}x`)}\n`;

const step = fc.record({
  user: fc.integer({ min: 1, max: 120 }),
  reply: fc.integer({ min: 1, max: 120 }),
  /** Attach a note (new, or one attached before), maybe edited. */
  attach: fc.option(fc.record({ note: fc.integer({ min: 0, max: 40 }), size: fc.integer({ min: 10, max: 90 }), edit: fc.boolean() }), { nil: undefined }),
  remove: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
  full: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
});
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

async function run(budgetTokens: number, steps: readonly Step[]) {
  const settings = { ...DEFAULT_BUDGET_SETTINGS, reservedOutputTokens: 1_000 };
  const budget = inputBudget(MODEL, settings, { [MODEL]: budgetTokens + 1_000 });
  const engine = new PromptContextEngine();
  const versions = new Map<number, { v: number; size: number }>();
  const counter = tokenCounterFor(MODEL);
  const sent: Array<{ messages: ChatMessage[]; reply: string; named: string | null; tokens: number }> = [];
  let condensings = 0;
  for (const [i, s] of steps.entries()) {
    const deps: FitDeps = { budget, settings, summarizer: new ExtractiveSummarizer(MODEL), signal: new AbortController().signal };
    if (s.remove !== undefined) engine.removeFromLibrary(`Notes/n${s.remove}.md`);
    // Asked in full on a turn that attaches nothing (what a turn sends whole must fit beside the message).
    if (s.full !== undefined && !s.attach) engine.sendInFull(`Notes/n${s.full}.md`);
    const items = [];
    if (s.attach) {
      const before = versions.get(s.attach.note);
      const now = !before || s.attach.edit ? { v: (before?.v ?? 0) + 1, size: s.attach.size } : before;
      versions.set(s.attach.note, now);
      const id = `Notes/n${s.attach.note}.md`;
      items.push(makeItem({ id, kind: 'note', title: id, source: id, content: noteText(s.attach.note, now.v, now.size) }));
    }
    const input: TurnInput = { userText: `${i}: ${para(s.user, 'u')}`, items, fragments: FRAGMENTS, model: MODEL };
    // The message and what it attaches fit in 60 % of the budget here: nothing may be refused.
    const own = engine.assemble({ ...input, items: [] }).envelope.layers;
    expect(own.L1.tokens + own.L5.tokens + items.reduce((n, it) => n + counter.count(it.content), 0)).toBeLessThan(budget.tokens * 0.6);
    const fitted = await fitTurn(engine, input, deps);
    const reply = `${i}: ${para(s.reply, 'r')}`;
    sent.push({ messages: fitted.assembly.messages, reply, named: fitted.assembly.prefixChange?.reason ?? null, tokens: fitted.assembly.promptTokens });
    if (fitted.compaction?.library || fitted.libraryCondensed) condensings++;
    engine.commit(fitted.assembly, reply);
  }
  return { sent, budget, condensings };
}

describe('the library under the budget, over random chats (issue 27)', () => {
  test('attach, re-attach, edit, remove and send in full across library condensings: inside the budget, never refused for what accumulated, the prefix extended between named breaks', async () => {
    let total = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 3_000, max: 6_000 }), fc.array(step, { minLength: 20, maxLength: 60 }), async (budgetTokens, steps) => {
        const { sent, budget, condensings } = await run(budgetTokens, steps);
        total += condensings;
        for (const [i, request] of sent.entries()) {
          expect(request.tokens).toBeLessThanOrEqual(budget.tokens);
          if (i === 0 || request.named !== null) continue;
          const previous = sent[i - 1];
          const expected = [...previous.messages, { role: 'assistant', content: previous.reply }];
          expect(request.messages.slice(0, expected.length)).toEqual(expected);
        }
      }),
      { numRuns: 25, seed: 27 },
    );
    // The property ran through library condensings, not around them.
    expect(total).toBeGreaterThanOrEqual(10);
  }, 600_000);
});

describe('reopen after library condensings (issue 27)', () => {
  test('library-chat saved as a chat note and reopened before every turn sends what the unbroken chat sends', async () => {
    const { scenario, vaultDir } = loadScenarioFile(path.join(ROOT, 'bench', 'scenarios', 'library-chat.json'));
    const short = { ...scenario, turns: [...scenario.turns.slice(0, 40), scenario.turns[scenario.turns.length - 1]] };
    const settings = DEFAULT_BUDGET_SETTINGS;
    const budget = { budget: inputBudget(short.model, settings), settings, summarizer: new ExtractiveSummarizer(short.model) };
    const plain = await replayScenario(short, new FsVault(vaultDir), { budget });
    expect(plain.some((t) => t.assembly.prefixChange?.reason === 'library-condensed')).toBe(true);
    const events = (turn: number): CompactionEvent[] => plain.slice(0, turn - 1).flatMap((t) => t.compactions ?? []);
    const fields = { id: 'chat-library', provider: 'openai', model: short.model };
    const reloaded = await replayScenario(short, new FsVault(vaultDir), {
      budget,
      beforeTurn: async (engine, turn, overlay) => {
        const r = await reloadThroughNote(engine, overlay, fields, { compactions: events(turn) });
        expect(r.warnings).toEqual([]);
        if (engine.currentLibraryCondensing()) {
          expect(r.text).toContain('"condensedLibrary"');
          expect(r.engine.currentLibraryCondensing()).toEqual(engine.currentLibraryCondensing());
        }
        return r.engine;
      },
    });
    expect(reloaded.map(toInspectRecord)).toEqual(plain.map(toInspectRecord));
  }, 300_000);
});
