import fc from 'fast-check';
import { inputBudget } from '../../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { BudgetError, condenseNow, fitTurn, type FitDeps } from '../../../src/core/budget/condense';
import { ExtractiveSummarizer } from '../../../src/core/budget/summarizer';
import { makeItem } from '../../../src/core/context/items';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import type { ChatMessage } from '../../../src/core/engine/messages';
import { promptFragments } from '../../../src/core/systemPrompt';

const MODEL = 'gpt-4o';
const FRAGMENTS = promptFragments();
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i % 37}`).join(' ');
const lines = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}`).join('\n');

const step = fc.record({
  user: fc.integer({ min: 1, max: 250 }),
  reply: fc.integer({ min: 1, max: 250 }),
  attach: fc.option(fc.record({ note: fc.integer({ min: 0, max: 4 }), size: fc.integer({ min: 5, max: 700 }), edit: fc.boolean() }), { nil: undefined }),
  tool: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
  condense: fc.boolean(),
  summaries: fc.boolean(),
});

/** Every request of a random chat, with the compactions and refusals along the way. */
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

async function run(budgetTokens: number, steps: Step[]) {
  const settings = { ...DEFAULT_BUDGET_SETTINGS, reservedOutputTokens: 1_000 };
  const budget = inputBudget(MODEL, settings, { [MODEL]: budgetTokens + 1_000 });
  const engine = new PromptContextEngine();
  const notes = new Map<number, string>();
  const sent: Array<{ messages: ChatMessage[]; reply: string; named: string | null; condensed: boolean; tokens: number }> = [];
  let refusedSince = false;
  for (const [i, s] of steps.entries()) {
    const deps: FitDeps = { budget, settings, summarizer: s.summaries ? new ExtractiveSummarizer(MODEL) : null, signal: new AbortController().signal };
    const items = [];
    if (s.attach) {
      const id = `Notes/n${s.attach.note}.md`;
      const content = notes.get(s.attach.note) && !s.attach.edit ? notes.get(s.attach.note)! : words(s.attach.size, `n${s.attach.note}v${i}`);
      notes.set(s.attach.note, content);
      items.push(makeItem({ id, kind: 'note', title: id, source: id, content }));
    }
    const input: TurnInput = {
      userText: `${i}: ${words(s.user, 'u')}`,
      items,
      fragments: FRAGMENTS,
      model: MODEL,
      ...(s.tool ? { tools: [{ name: 'search', input: `q${i}`, output: lines(s.tool) }] } : {}),
    };
    try {
      const manual = s.condense ? await condenseNow(engine, { ...input, userText: '', items: [], tools: [] }, deps) : null;
      const { assembly, compaction, libraryCondensed } = await fitTurn(engine, input, deps);
      const reply = `${i}: ${words(s.reply, 'r')}`;
      sent.push({
        messages: assembly.messages,
        reply,
        named: assembly.prefixChange?.reason ?? null,
        condensed: manual !== null || compaction !== null || libraryCondensed === true || (sent.length > 0 && refusedSince),
        tokens: assembly.promptTokens,
      });
      refusedSince = false;
      engine.commit(assembly, reply);
    } catch (error) {
      // Too large even fully condensed: refused (nothing sent), the chat goes on with the next message.
      if (!(error instanceof BudgetError)) throw error;
      expect(error.code).toBe('too-large');
      // A manual condense may have happened before the refusal: the next request names it.
      refusedSince = true;
    }
  }
  return { sent, budget };
}

describe('budgeted history, over random chats', () => {
  test('every request fits the budget, and between named breaks each request extends the previous one byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_500, max: 6_000 }), fc.array(step, { minLength: 5, maxLength: 45 }), async (budgetTokens, steps) => {
        const { sent, budget } = await run(budgetTokens, steps);
        for (const [i, request] of sent.entries()) {
          expect(request.tokens).toBeLessThanOrEqual(budget.tokens);
          // The only deliberate events here are compactions: every break is one, named as such.
          // A library condensing (issue 27) comes with a compaction, or alone once history is condensed as far as it goes.
          const reason = request.named === 'library-condensed' ? 'condensed' : request.named;
          if (request.named !== null) expect({ turn: i, reason, condensed: request.condensed }).toEqual({ turn: i, reason: 'condensed', condensed: true });
          if (i === 0 || request.named) continue;
          const previous = sent[i - 1];
          const expected = [...previous.messages, { role: 'assistant', content: previous.reply }];
          expect(request.messages.slice(0, expected.length)).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });
});
