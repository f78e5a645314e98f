import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputBudget } from '../../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { PromptContextEngine } from '../../../src/core/engine/engine';
import { planTurn } from '../../../src/core/planning/planTurn';
import { SummaryCache } from '../../../src/core/planning/summaryCache';
import { ChipResolver } from '../../../src/core/context/resolver';
import { FsVault } from '../../../src/node/fsVault';
import { minimalPdf, textPages } from '../../../testing/pdf/minimalPdf';
import { handbook, handbookFact } from '../../helpers/handbook';

/** Issue 31: a PDF larger than the budget is planned like a large note, its extracts cut at pages. */

const MODEL = 'gpt-3.5-turbo';
const budget = inputBudget(MODEL, DEFAULT_BUDGET_SETTINGS);

/** The handbook as a PDF: a sentence a line, 70 lines a page. */
function handbookPdf(): Uint8Array {
  return minimalPdf({ pages: textPages(handbook(130).replace(/^#+ /gm, '')) });
}

test('a PDF four times the budget goes out as the pages that answer the question, inside the budget', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-pdfplan-'));
  writeFileSync(join(dir, 'Handbook.pdf'), handbookPdf());
  const { items, problems } = await new ChipResolver(new FsVault(dir)).resolve([{ kind: 'pdf', path: 'Handbook.pdf' }]);
  expect(problems).toEqual([]);
  const engine = new PromptContextEngine();
  const input = { userText: 'What is the beekeeping access code for the hives?', items, fragments: [{ id: 'system', lifecycle: 'static' as const, text: 'You are helpful.' }], model: MODEL };
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
  const assembly = engine.assemble(planned.input);
  expect(assembly.promptTokens).toBeLessThanOrEqual(budget.tokens);
  const text = assembly.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  expect(text).toContain(handbookFact(5));
  expect(text).toContain('<note_context id="Handbook.pdf" title="Handbook.pdf" form="extract">');
  // The extract's sections are pages (Handbook.pdf#page=N): the one holding the fact is among them.
  const before = items[0].content.slice(0, items[0].content.indexOf(handbookFact(5)));
  const page = [...before.matchAll(/^## Page (\d+)$/gm)].pop()?.[1];
  expect(page).toBeDefined();
  expect(text).toMatch(new RegExp(`^--- Page ${page} \\(lines \\d+-\\d+\\) ---$`, 'm'));
  expect(planned.record?.decisions[0]).toMatchObject({ id: 'Handbook.pdf', type: 'pdf', strategy: 'rag_extract' });
});
