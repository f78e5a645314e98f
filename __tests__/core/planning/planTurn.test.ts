import { inputBudget } from '../../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { makeItem, noteId, type ContextItem } from '../../../src/core/context/items';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import { planTurn, type PlanningDeps } from '../../../src/core/planning/planTurn';
import { SummaryCache } from '../../../src/core/planning/summaryCache';
import { withDecisions } from '../../../src/core/planning/book';
import { type PlanBook } from '../../../src/core/conversation/records/plan';
import type { Planner } from '../../../src/core/planning/types';
import { handbook, handbookFact, HANDBOOK_TOPICS } from '../../helpers/handbook';

const MODEL = 'gpt-3.5-turbo';
const budget = inputBudget(MODEL, DEFAULT_BUDGET_SETTINGS);

function note(path: string, content: string): ContextItem {
  return makeItem({ id: noteId(path), kind: 'note', title: path.replace(/\.md$/, ''), source: path, content });
}

function input(userText: string, items: ContextItem[]): TurnInput {
  return { userText, items, fragments: [{ id: 'system', lifecycle: 'static', text: 'You are helpful.' }], model: MODEL };
}

function deps(over: Partial<PlanningDeps> = {}): PlanningDeps {
  return {
    mode: 'heuristic',
    planner: null,
    summarizer: null,
    cache: new SummaryCache(),
    budget,
    autoCondense: true,
    expensiveModel: false,
    signal: new AbortController().signal,
    ...over,
  };
}

const big = note('Handbook.md', handbook(130));

describe('planTurn', () => {
  test('a handbook four times the budget goes out as the sections that answer the question, inside the budget', async () => {
    const engine = new PromptContextEngine();
    const planned = await planTurn(engine, input('What is the beekeeping access code for the hives?', [big]), undefined, deps());
    const assembly = engine.assemble(planned.input);
    expect(engine.assemble(input('x', [big])).promptTokens).toBeGreaterThan(budget.tokens * 4);
    expect(assembly.promptTokens).toBeLessThanOrEqual(budget.tokens);
    const text = assembly.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    expect(text).toContain(handbookFact(5));
    expect(text).toContain('form="extract"');
    expect(planned.record?.reason).toBe('near-budget');
    expect(planned.record?.planner).toBe('heuristic');
    expect(planned.record?.decisions[0]).toMatchObject({ id: 'Handbook.md', strategy: 'rag_extract', kept: false });
    expect(planned.decisions[0]).toMatchObject({ id: 'Handbook.md', strategy: 'rag_extract', sourceHash: big.hash });
  });

  test('a kept decision sends the same bytes again: the second request extends the first', async () => {
    const engine = new PromptContextEngine();
    const first = await planTurn(engine, input('What is the beekeeping access code?', [big]), undefined, deps());
    const a1 = engine.assemble(first.input);
    engine.commit(a1, 'It is BE-4485.');
    const book: PlanBook = withDecisions(undefined, first.decisions);
    const second = await planTurn(engine, input('And the kayaking one?', [big]), book, deps());
    const a2 = engine.assemble(second.input);
    expect(a2.prefixChange).toBeNull();
    expect(a2.envelope.referenced).toEqual(['Handbook.md']);
    expect(second.record?.decisions[0]).toMatchObject({ id: 'Handbook.md', kept: true });
  });

  test('without stickiness the item is decided again for the new question and re-sent', async () => {
    const engine = new PromptContextEngine();
    const first = await planTurn(engine, input('What is the beekeeping access code?', [big]), undefined, deps({ sticky: false }));
    engine.commit(engine.assemble(first.input), 'BE.');
    const second = await planTurn(engine, input('What about kayaking currents and portage?', [big]), undefined, deps({ sticky: false }));
    const a2 = engine.assemble(second.input);
    expect(a2.envelope.full).toEqual(['Handbook.md@2']);
  });

  test('a short note that shares no word with the question still goes whole when the extracts leave room', async () => {
    const engine = new PromptContextEngine();
    const short = note('Short.md', '# Short\n\nA short note about the house.\n');
    const planned = await planTurn(engine, input('What is the beekeeping access code?', [big, short]), undefined, deps());
    const byId = new Map(planned.record?.decisions.map((d) => [d.id, d]));
    expect(byId.get('Handbook.md')?.strategy).toBe('rag_extract');
    expect(byId.get('Short.md')).toMatchObject({ strategy: 'include_full', rationale: expect.stringMatching(/fits whole in the room left/) });
    const assembly = engine.assemble(planned.input);
    expect(assembly.promptTokens).toBeLessThanOrEqual(budget.tokens);
    expect(assembly.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n')).toContain('A short note about the house.');
  });

  test('small attachments are not planned', async () => {
    const engine = new PromptContextEngine();
    const planned = await planTurn(engine, input('hi', [note('Small.md', 'a short note')]), undefined, deps());
    expect(planned.record).toBeNull();
    expect(planned.input.items[0].content).toBe('a short note');
  });

  test('a failing planner falls back to the deterministic plan with a warning', async () => {
    const failing: Planner = { kind: 'llm', plan: () => Promise.reject(new Error('invalid JSON')) };
    const engine = new PromptContextEngine();
    const planned = await planTurn(engine, input('greenhouse humidity', [big]), undefined, deps({ mode: 'auto', planner: failing }));
    expect(planned.record?.planner).toBe('fallback');
    expect(planned.record?.warning).toMatch(/invalid JSON/);
    expect(engine.assemble(planned.input).promptTokens).toBeLessThanOrEqual(budget.tokens);
  });

  test('twelve notes, one per topic: the planner model decides, and what it excluded is not sent', async () => {
    const notes = HANDBOOK_TOPICS.map((words, i) => note(`Topics/${words[0]}.md`, `# ${words[0]}\n\n${handbook(6).split('## ')[i + 1]}`));
    const planner: Planner = {
      kind: 'llm',
      plan: (pi) =>
        Promise.resolve({
          plan: {
            decisions: pi.artifacts.map((a, i) => ({ id: a.id, strategy: i === 0 ? 'include_full' : 'exclude', priority: i + 1, rationale: i === 0 ? 'answers it' : 'unrelated' })),
            reasoning: 'one note answers',
          },
          call: { kind: 'planner', provider: 'openai', model: 'gpt-4o-mini', usage: { inputTokens: 900, outputTokens: 120, cachedReadTokens: 0, cacheWriteTokens: 0 }, cost: 0.0002 },
        }),
    };
    const engine = new PromptContextEngine();
    const planned = await planTurn(engine, input('greenhouse', notes), undefined, deps({ mode: 'auto', planner, expensiveModel: true }));
    expect(planned.record?.reason).toBe('expensive-model');
    expect(planned.input.items.map((i) => i.id)).toEqual(['Topics/greenhouse.md']);
    expect(planned.record?.calls).toHaveLength(1);
    expect(planned.record?.decisions.filter((d) => d.strategy === 'exclude')).toHaveLength(11);
  });
});

describe('supplements', () => {
  test('a later question about another section gets that section as its own block; the kept extract stays as sent', async () => {
    const engine = new PromptContextEngine();
    const first = await planTurn(engine, input('What is the beekeeping access code?', [big]), undefined, deps());
    engine.commit(engine.assemble(first.input), 'BE-4485.');
    const book = withDecisions(undefined, first.decisions);
    const question = 'What should I check before the portage when kayaking?';
    const second = await planTurn(engine, input(question, []), book, { ...deps(), budget });
    // No attachment this turn: the library note is re-read (freshness) and kept as it was.
    const current = new Map([['Handbook.md', big]]);
    const again = await planTurn(engine, { ...input(question, []), current }, book, deps());
    expect(second.input.tools ?? []).toEqual([]);
    const a = engine.assemble(again.input);
    expect(a.prefixChange).toBeNull();
    expect(again.input.tools?.[0]).toMatchObject({ name: 'planExtract' });
    expect(again.input.tools?.[0].output).toMatch(/--- Household handbook > Kayaking \(lines \d+-\d+\) ---/);
    expect(again.input.tools?.[0].output).toContain('check the currents before the portage');
    expect(a.promptTokens).toBeLessThanOrEqual(budget.tokens);
    expect(again.record?.decisions.map((d) => d.id)).toEqual(['Handbook.md#planExtract']);
  });

  test('a note the plan left out: a later question about it gets its sections, without a prefix break', async () => {
    const engine = new PromptContextEngine();
    const topics = HANDBOOK_TOPICS.map((words, i) => note(`Topics/${words[0]}.md`, `# ${words[0]}\n\n${handbook(40).split('## ')[i + 1]}`));
    const first = await planTurn(engine, input('What is the greenhouse access code?', topics), undefined, deps());
    const out = first.decisions.filter((d) => d.strategy === 'exclude').map((d) => d.id);
    expect(out).toContain('Topics/kayaking.md');
    const a1 = engine.assemble(first.input);
    engine.commit(a1, 'GH-4400.');
    const book = withDecisions(undefined, first.decisions);
    const plannedOut = new Map(topics.filter((t) => out.includes(t.id)).map((t) => [t.id, t]));
    const second = await planTurn(engine, input('What is the kayaking access code?', []), book, deps({ plannedOut }));
    const a2 = engine.assemble(second.input);
    expect(a2.prefixChange).toBeNull();
    expect(a2.messages.map((m) => m.content).join('\n')).toContain(handbookFact(7));
    expect(second.record?.decisions[0]).toMatchObject({ id: 'Topics/kayaking.md#planExtract', rationale: expect.stringMatching(/^the plan left it out; /) });
    expect(a2.promptTokens).toBeLessThanOrEqual(budget.tokens);
    engine.commit(a2, 'KA-4519.');

    // The same question again: the sections history already carries are not sent a second time.
    const third = await planTurn(engine, input('What is the kayaking access code?', []), book, deps({ plannedOut }));
    const sent = (third.input.tools ?? []).map((t) => t.output).join('\n');
    expect(sent).not.toContain(handbookFact(7));
  });
});
