/**
 * A canvas larger than the budget is planned like a large note (issue 31): its text rendering goes
 * out as the extracts that answer the question, marked as an extract, inside the budget. Real
 * resolver over a canvas file, real engine, planner and tokenizer.
 */
import { inputBudget } from '../../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { ChipResolver } from '../../../src/core/context/resolver';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import { planTurn } from '../../../src/core/planning/planTurn';
import { SummaryCache } from '../../../src/core/planning/summaryCache';
import type { VaultReader } from '../../../src/core/ports/vault';
import { handbook, handbookFact } from '../../helpers/handbook';

const MODEL = 'gpt-3.5-turbo';
const budget = inputBudget(MODEL, DEFAULT_BUDGET_SETTINGS);

/** The handbook as a canvas: one text card per section, stacked top to bottom. */
function handbookCanvas(): string {
  const sections = handbook(130).split(/\n(?=## )/);
  const nodes = sections.map((text, i) => ({ id: `s${String(i).padStart(2, '0')}`, type: 'text', text, x: 0, y: i * 500, width: 400, height: 400 }));
  return JSON.stringify({ nodes, edges: [] });
}

test('a canvas four times the budget goes out as the sections that answer the question', async () => {
  const files = new Map([['Handbook.canvas', handbookCanvas()]]);
  const vault: VaultReader = { read: (p) => Promise.resolve(files.get(p) ?? null), listMarkdown: () => Promise.resolve([]) };
  const { items, problems } = await new ChipResolver(vault).resolve([{ kind: 'canvas', path: 'Handbook.canvas' }]);
  expect(problems).toEqual([]);
  const input: TurnInput = { userText: 'What is the beekeeping access code for the hives?', items, fragments: [{ id: 'system', lifecycle: 'static', text: 'You are helpful.' }], model: MODEL };
  const engine = new PromptContextEngine();
  expect(engine.assemble(input).promptTokens).toBeGreaterThan(budget.tokens * 4);
  const planned = await planTurn(engine, input, undefined, {
    mode: 'heuristic',
    planner: null,
    summarizer: null,
    cache: new SummaryCache(),
    budget,
    autoCondense: true,
    expensiveModel: false,
    signal: new AbortController().signal,
  });
  const assembly = new PromptContextEngine().assemble(planned.input);
  expect(assembly.promptTokens).toBeLessThanOrEqual(budget.tokens);
  const text = assembly.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  expect(text).toContain(handbookFact(5));
  expect(text).toContain('<note_context id="Handbook.canvas" title="Handbook" form="extract">');
  expect(planned.record?.decisions[0]).toMatchObject({ id: 'Handbook.canvas', type: 'canvas', strategy: 'rag_extract' });
});
