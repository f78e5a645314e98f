import { inputBudget } from '../../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS, type BudgetSettings } from '../../../src/core/settings/budgetSettings';
import { BudgetError, condenseNow, fitTurn, type FitDeps } from '../../../src/core/budget/condense';
import { planCompaction, summaryReserve } from '../../../src/core/budget/plan';
import { ExtractiveSummarizer, SUMMARY_INSTRUCTIONS, type Summarizer } from '../../../src/core/budget/summarizer';
import { makeItem } from '../../../src/core/context/items';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import { promptFragments } from '../../../src/core/systemPrompt';

const MODEL = 'gpt-4o';
const FRAGMENTS = promptFragments();
const words = (n: number, tag = 'w') => Array.from({ length: n }, (_, i) => `${tag}${i % 50}`).join(' ');
const note = (id: string, size: number) => makeItem({ id, kind: 'note', title: id.replace(/\.md$/, ''), source: id, content: words(size, 'n') });

function input(userText: string, items: ReturnType<typeof note>[] = [], extra: Partial<TurnInput> = {}): TurnInput {
  return { userText, items, fragments: FRAGMENTS, model: MODEL, ...extra };
}

/** A budget of about `tokens` (the model window set so that window − reserve = tokens). */
function budgetOf(tokens: number, settings: Partial<BudgetSettings> = {}) {
  const s = { ...DEFAULT_BUDGET_SETTINGS, reservedOutputTokens: 1_000, ...settings };
  return { settings: s, budget: inputBudget(MODEL, s, { [MODEL]: tokens + 1_000 }) };
}

function deps(tokens: number, extra: Partial<FitDeps> = {}, settings: Partial<BudgetSettings> = {}): FitDeps {
  return { ...budgetOf(tokens, settings), summarizer: new ExtractiveSummarizer(MODEL), signal: new AbortController().signal, ...extra };
}

/** Commit turns whose user message has the given sizes (in words). */
function chat(sizes: readonly number[], engine = new PromptContextEngine()): PromptContextEngine {
  sizes.forEach((size, i) => engine.commit(engine.assemble(input(`${i + 1}: ${words(size)}`)), `reply ${i + 1}`));
  return engine;
}

describe('the input budget', () => {
  test('min(max context tokens, window − reserve); the threshold and the target are shares of it', () => {
    const b = inputBudget('gpt-3.5-turbo', DEFAULT_BUDGET_SETTINGS);
    expect(b).toMatchObject({ window: 16_385, reserve: 4_096, tokens: 12_289, threshold: 9_831, target: 6_144, estimated: false });
    expect(inputBudget('gpt-4o', DEFAULT_BUDGET_SETTINGS).tokens).toBe(100_000);
    expect(inputBudget('gpt-4o', { ...DEFAULT_BUDGET_SETTINGS, maxContextTokens: 500_000 }).tokens).toBe(128_000 - 4_096);
  });

  test('a reserve larger than half the window is held to half; models without a bundled tokenizer keep a 15 % margin', () => {
    expect(inputBudget('gpt-4', { ...DEFAULT_BUDGET_SETTINGS, reservedOutputTokens: 100_000 })).toMatchObject({ reserve: 4_096, tokens: 4_096 });
    const claude = inputBudget('claude-sonnet-4-5', DEFAULT_BUDGET_SETTINGS);
    expect(claude).toMatchObject({ estimated: true, tokens: 85_000 });
  });
});

describe('greedy fit (seed 004, milestone 10)', () => {
  test('a huge middle message: the kept turns are contiguous from the end; the huge one and everything older are condensed', () => {
    // Turns 1-3 small, 4 huge, 5-8 small: the kept run stops at 4, never skipping it to keep 1-3.
    const engine = chat([40, 40, 40, 1_500, 40, 40, 40, 40]);
    const { budget, settings } = budgetOf(2_000, { keepMessages: 0 });
    const outcome = planCompaction(engine, input('next'), { budget, masking: settings, keepMessages: 0, summaryReserve: 300, trigger: 'auto' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.plan.through).toBeGreaterThanOrEqual(4);
    expect(outcome.plan.keptTurns).toBe(8 - outcome.plan.through);
    // Kept as many as fit the target: one more would not.
    expect(outcome.plan.estimatedAfter).toBeLessThanOrEqual(budget.target);
    const one = engine.assemble(input('next'), {
      compaction: { through: outcome.plan.through - 1, kind: 'summary', text: '', maskedThrough: 8, masking: settings },
    }).promptTokens;
    expect(one + 300).toBeGreaterThan(budget.target);
  });

  test('fitTurn condenses once over the threshold: the turns dropped are counted, the rest kept verbatim, the request under the budget', async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const d = deps(2_500);
    const before = engine.assemble(input('What now?')).promptTokens;
    expect(before).toBeGreaterThan(d.budget.threshold);
    const { assembly, compaction } = await fitTurn(engine, input('What now?'), d);
    expect(compaction).toMatchObject({ trigger: 'auto', previous: 0, kind: 'summary', tokensBefore: before });
    expect(compaction!.turnsDropped).toBe(compaction!.through);
    expect(assembly.promptTokens).toBe(compaction!.tokensAfter);
    expect(assembly.promptTokens).toBeLessThanOrEqual(d.budget.target + summaryReserve(d.budget));
    expect(assembly.prefixChange).toMatchObject({ reason: 'condensed' });
    // The kept turns are the newest, verbatim, in order, and the summary opens the first of them.
    const users = assembly.messages.filter((m) => m.role === 'user');
    expect(users[0].content.startsWith('<conversation_summary turns="' + compaction!.through + '" kind="summary">')).toBe(true);
    expect(users[0].content).toContain(`${compaction!.through + 1}: `);
    expect(users[users.length - 1].content.endsWith('What now?')).toBe(true);
    expect(assembly.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(
      Array.from({ length: 30 - compaction!.through }, (_, i) => `reply ${compaction!.through + i + 1}`),
    );
  });

  test('under the threshold nothing is condensed and the request extends the last one', async () => {
    const engine = chat([20, 20]);
    const { assembly, compaction } = await fitTurn(engine, input('hi'), deps(10_000));
    expect(compaction).toBeNull();
    expect(assembly.prefixChange).toBeNull();
  });

  test('the library survives: items of condensed turns are sent again once, in the block after L1, and a later compaction keeps that block', async () => {
    const engine = new PromptContextEngine();
    const d = deps(3_000);
    const a = note('A.md', 300);
    engine.commit(engine.assemble(input('Read A', [a])), 'A read.');
    for (let i = 0; i < 40; i++) {
      const { assembly } = await fitTurn(engine, input(`${i}: ${words(40)}`), d);
      engine.commit(assembly, `reply ${i}`);
    }
    const compactions: string[] = [];
    let block: string | null = null;
    for (let i = 0; i < 60; i++) {
      const { assembly, compaction } = await fitTurn(engine, input(`more ${i}: ${words(40)}`), d);
      expect(assembly.promptTokens).toBeLessThanOrEqual(d.budget.tokens);
      if (compaction) {
        compactions.push(`${compaction.previous}->${compaction.through}`);
        const system = assembly.messages[0].content;
        expect(system.match(/<note_context id="A.md"/g)).toHaveLength(1);
        expect(assembly.messages.slice(1).some((m) => m.content.includes('<note_context id="A.md"'))).toBe(false);
        if (block !== null) expect(system).toBe(block);
        block = system;
      }
      engine.commit(assembly, `reply more ${i}`);
    }
    expect(compactions.length).toBeGreaterThanOrEqual(2);
  });

  test('what a message attaches over the budget (planning off): a clear error naming the largest items; the engine is untouched', async () => {
    // Issue 27: a library over the budget condenses (next test); only this message's own attachments are refused.
    const engine = new PromptContextEngine();
    const d = deps(2_000);
    const big = input('Read these', [note('Big.md', 3_000), note('Small.md', 100)]);
    await expect(fitTurn(engine, big, d)).rejects.toThrow(BudgetError);
    await expect(fitTurn(engine, big, d)).rejects.toThrow(/largest items .* are "Big" \([\d,]+\), "Small"/);
    expect(engine.currentCompaction()).toBeNull();
  });

  test('the library alone over the budget condenses instead of refusing: the old note leaves in its outline, the request fits', async () => {
    const engine = new PromptContextEngine();
    const big = makeItem({ id: 'Big.md', kind: 'note', title: 'Big', source: 'Big.md', content: `# Big\n\n## Part one\n\n${words(1_500, 'a')}\n\n## Part two\n\n${words(1_500, 'b')}` });
    engine.commit(engine.assemble(input('Read these', [big, note('Small.md', 100)])), 'Read.');
    const d = deps(2_000);
    const { assembly, compaction } = await fitTurn(engine, input('Next?'), d);
    expect(assembly.promptTokens).toBeLessThanOrEqual(d.budget.tokens);
    expect(compaction?.library?.condensed).toBeGreaterThanOrEqual(1);
    expect(assembly.prefixChange?.reason).toBe('library-condensed');
    const system = assembly.messages[0].content;
    expect(system).toContain('<condensed_item id="Big.md" title="Big" form="outline">\n- Big\n  - Part one\n  - Part two\n</condensed_item>');
    expect(system).not.toContain('<note_context id="Big.md"');
    // Attached again, it comes back in full as a new version.
    const again = engine.assemble(input('Big again', [big]));
    expect(again.envelope.full).toEqual(['Big.md@2']);
  });

  test('refused only for the message itself: the error says the message alone does not fit', async () => {
    const engine = chat([20, 20]);
    await expect(fitTurn(engine, input(words(3_000)), deps(1_500))).rejects.toThrow(/Your message with the chat's instructions needs [\d,]+ tokens on its own/);
  });

  test('auto-condense off: over the threshold goes as is; over the budget is refused with what to do', async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const d = deps(2_500, {}, { autoCondense: false });
    const size = engine.assemble(input('x')).promptTokens;
    expect(size).toBeGreaterThan(d.budget.tokens);
    await expect(fitTurn(engine, input('x'), d)).rejects.toThrow(/auto-condense is off\. Condense the chat/);
    const roomy = deps(size + 10, {}, { autoCondense: false });
    expect((await fitTurn(engine, input('x'), roomy)).compaction).toBeNull();
  });
});

describe('summaries', () => {
  const failing: Summarizer = { summarize: () => Promise.reject(new Error('HTTP 503 from the summary model')) };
  const hanging: Summarizer = {
    summarize: (_input, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
  };

  test('the extractive summary covers the dropped turns and the notes as wikilinks; a later one folds in the previous', async () => {
    const engine = new PromptContextEngine();
    engine.commit(engine.assemble(input('Compare the plan', [note('Projects/Plan.md', 50)])), 'The plan says grow tomatoes.');
    chat(Array.from({ length: 20 }, () => 60), engine);
    const first = await condenseNow(engine, input(''), deps(100_000, {}, { keepMessages: 2 }));
    expect(first).toMatchObject({ trigger: 'manual', kind: 'summary', through: 20, turnsDropped: 20 });
    const text = engine.currentCompaction()!.text;
    expect(text).toContain('[[Projects/Plan]]');
    expect(text).toContain('Compare the plan');
    chat([10, 10, 10], engine);
    const second = await condenseNow(engine, input(''), deps(100_000, {}, { keepMessages: 2 }));
    expect(second).toMatchObject({ previous: 20, through: 23, turnsDropped: 3 });
    expect(engine.currentCompaction()!.text).toContain('Compare the plan');
  });

  test('a failing summary falls back to omitting the turns with a marker, and says why', async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const { assembly, compaction } = await fitTurn(engine, input('Go on'), deps(2_500, { summarizer: failing }));
    expect(compaction).toMatchObject({ kind: 'omitted', fallback: 'the summary failed: HTTP 503 from the summary model', summary: null });
    expect(assembly.messages.some((m) => m.content.includes(`[${2 * compaction!.through} earlier messages omitted]`))).toBe(true);
    expect(assembly.messages[assembly.messages.length - 1].content.endsWith('Go on')).toBe(true);
  });

  test('summaries off: the marker, no call', async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const { compaction } = await fitTurn(engine, input('Go on'), deps(2_500, { summarizer: null }));
    expect(compaction).toMatchObject({ kind: 'omitted', fallback: 'summaries are off' });
  });

  test('a summary that takes too long falls back (the turn goes on)', async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const { compaction } = await fitTurn(engine, input('Go on'), deps(2_500, { summarizer: hanging, summaryTimeoutMs: 20 }));
    expect(compaction).toMatchObject({ kind: 'omitted', fallback: 'the summary failed: the summary took longer than 0 s' });
  });

  test("the user's stop during the summary stops the turn: nothing is condensed", async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const abort = new AbortController();
    const stoppedMidway: Summarizer = {
      summarize: (i, signal) => {
        setTimeout(() => abort.abort(), 5);
        return hanging.summarize(i, signal);
      },
    };
    await expect(fitTurn(engine, input('Go on'), deps(2_500, { summarizer: stoppedMidway, signal: abort.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    // Stopped as it starts (before the summary call): the same.
    const early = new AbortController();
    await expect(fitTurn(engine, input('Go on'), deps(2_500, { summarizer: hanging, signal: early.signal, onCondensing: () => early.abort() }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(engine.currentCompaction()).toBeNull();
    expect(engine.assemble(input('Go on')).prefixChange).toBeNull();
  });

  test('a summary far longer than asked (a model that ignored the length) is cut to its room, so the chat does not condense again at once', async () => {
    const engine = chat(Array.from({ length: 30 }, () => 60));
    const verbose: Summarizer = {
      summarize: () => Promise.resolve({ text: Array.from({ length: 400 }, (_, i) => `- point ${i}: ${words(12)}`).join('\n'), usage: { inputTokens: 1, outputTokens: 1, cachedReadTokens: 0, cacheWriteTokens: 0 }, calls: 1, model: MODEL, provider: 'p' }),
    };
    const d = deps(2_500, { summarizer: verbose });
    const { assembly } = await fitTurn(engine, input('Go on'), d);
    expect(assembly.promptTokens).toBeLessThanOrEqual(d.budget.threshold);
    const text = engine.currentCompaction()!.text;
    expect(text).toMatch(/^- point 0: [\s\S]*\n\[\.\.\. summary cut to fit its room \.\.\.\]$/);
    expect(tokenCounterFor(MODEL).count(text)).toBeLessThanOrEqual(Math.floor(summaryReserve(d.budget) * 1.25));
    expect(tokenCounterFor(MODEL).count(text)).toBeGreaterThan(summaryReserve(d.budget));
  });

  test('condensing never makes the request grow: a summary longer than the turns it replaces is cut; too little to condense is left alone', async () => {
    const echo: Summarizer = {
      summarize: (i) =>
        Promise.resolve({ text: i.turns.map((t) => `${t.userText}\n${t.reply}`).join('\n').repeat(3), usage: { inputTokens: 9, outputTokens: 9, cachedReadTokens: 0, cacheWriteTokens: 0 }, calls: 1, model: MODEL, provider: 'p' }),
    };
    const engine = chat([120, 120, 120]);
    const event = await condenseNow(engine, input(''), deps(100_000, { summarizer: echo }, { keepMessages: 2 }));
    expect(event).not.toBeNull();
    expect(event!.tokensAfter).toBeLessThanOrEqual(event!.tokensBefore);
    expect(engine.currentCompaction()!.text).toContain('[... summary cut to fit its room ...]');
    const tiny = chat([5, 5, 5]);
    expect(await condenseNow(tiny, input(''), deps(100_000, { summarizer: echo }, { keepMessages: 2 }))).toBeNull();
    expect(tiny.currentCompaction()).toBeNull();
  });

  test('the summary request carries the seed focus', () => {
    expect(SUMMARY_INSTRUCTIONS).toMatch(/What the user asked for[\s\S]*What was done[\s\S]*current state[\s\S]*Pending tasks[\s\S]*\[\[wikilinks\]\]/);
  });
});
