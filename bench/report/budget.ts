import path from 'node:path';
import { BUDGET_LAYOUT_LABELS, BUDGET_LAYOUTS, type BudgetScenarioResult } from '../budget/section';
import type { LibraryChatResult } from '../budget/librarySection';
import { uncached } from '../cache/efficiency';
import { int, ms, ratio, table } from './format';

/** What the budget section measured, and how long it took. */
export interface BudgetFigures {
  readonly scenarios: readonly BudgetScenarioResult[];
  /** The library under the budget (issue 27); absent in results written before it. */
  readonly library?: LibraryChatResult;
  readonly ms: number;
}

/** The references for budget-chat (12k budget, OpenAI rule), to set the figures beside. */
const REFERENCES = 'append-only (no budget) 1.21×, per-turn sliding window 5.6×, simple compact-at-80 % 3.9×';

export function budgetSection(b: BudgetFigures): string {
  const out: string[] = ['## Budget and condensing', ''];
  out.push(
    'Each budget scenario is replayed under the default settings\' budget: min(max context 100,000, model window − 4,096 reserved), ' +
      'condensing over 80 % of it. Summaries come from the offline extractive summarizer; **summary cost** is what the same compactions ' +
      'would cost a summary model (input: the summary request, output: the summary text, counted with the scenario model\'s tokenizer). ' +
      'Layouts: **no budget**: the append-only transcript; **per-turn sliding window**: the newest turns that fit the budget, contiguous from the end, ' +
      'recomputed every turn (attached text goes when its turn does); **simple compact-at-80 %**: over the threshold, everything but the newest 4 messages ' +
      'becomes a summary, followed by every note of the condensed turns in the first user message (so each compaction resends them); ' +
      'the same **keeping half the budget** (as Strata\'s planner aims); **Strata**: the engine\'s own requests (fitTurn), earlier tool outputs shortened at each compaction (offline digests, as with context planning on); ' +
      '**earlier tool outputs verbatim**: the same without that (outputs only masked to head and tail). **tool-chat** is the agent-heavy chat of bench/budget/toolChat.ts (a localSearch and a readNote every turn over real notes). ' +
      'Uncached tokens are simulated as in section 1 and divided by the information lower bound; the last column divides by the bound with each tool output ' +
      'counted in every turn that produces it (the issue\'s append-only reference, 1.21×, matches that count: its scenario runs the same search seven times). "Breaks": requests that do not extend the previous one. ' +
      '"Lost": library items whose text is absent from the last request.',
    '',
  );
  for (const r of b.scenarios) {
    const bud = r.budget;
    out.push(
      `### ${r.name} (${path.basename(r.file)}, ${r.turns} turns, ${r.model}): budget ${int(bud.tokens)} = ${int(bud.window)} − ${int(bud.reserve)}, condensing over ${int(bud.threshold)}`,
      '',
      table(
        ['layout', 'max request', 'over budget', 'breaks', 'condenses', 'summary calls', 'summary cost (in / out)', 'lost', 'uncached OpenAI', '÷ bound', 'uncached Anthropic', '÷ bound', '÷ bound, tools per turn (OAI / Anth)'],
        BUDGET_LAYOUTS.map((name) => {
          const l = r.layouts[name];
          return [
            BUDGET_LAYOUT_LABELS[name],
            int(l.maxRequest),
            int(l.overBudget),
            int(l.prefixBreaks),
            l.condenses === null ? '—' : int(l.condenses),
            l.summary === null ? '—' : int(l.summary.calls),
            l.summary === null ? '—' : `${int(l.summary.inputTokens)} / ${int(l.summary.outputTokens)}`,
            int(l.itemsLost),
            int(uncached(l.totals, 'openai')),
            ratio(l.overLowerBound.openai),
            int(uncached(l.totals, 'anthropic')),
            ratio(l.overLowerBound.anthropic),
            `${ratio(l.overPerTurnBound.openai)} / ${ratio(l.overPerTurnBound.anthropic)}`,
          ];
        }),
        ['l'],
      ),
      '',
      `Mean tokens carried right after a compaction: Strata ${r.layouts.strata.carriedAfter === null ? '—' : int(r.layouts.strata.carriedAfter)}, ` +
        `with earlier tool outputs verbatim ${r.layouts['strata-verbatim-tools'].carriedAfter === null ? '—' : int(r.layouts['strata-verbatim-tools'].carriedAfter)}. ` +
        `Lower bound ${int(r.lowerBound.tokens)} tokens (${int(r.perTurnBound.tokens)} with each tool output counted per turn); replayed and measured in ${ms(r.ms)}.`,
      '',
    );
  }
  if (b.library) out.push(...librarySection(b.library));
  out.push(`Issue references for budget-chat (OpenAI rule, tools per turn): ${REFERENCES}. Section run time: ${ms(b.ms)}.`, '');
  return out.join('\n');
}

/** The library under the budget: library-chat replayed as a chat sends it. */
function librarySection(l: LibraryChatResult): string[] {
  return [
    `### The library under the budget (${l.name}, ${l.turns} turns, a new ~2.4 KB note each turn; budget ${int(l.budget)})`,
    '',
    'Replayed as a chat sends it: budget, condensing (history and library), the deterministic planner for the sections of condensed notes. ' +
      'The last turn asks about the third note, not attached again.',
    '',
    table(
      ['refused', 'over budget', 'max request', 'own note not whole', 'facts missed', 'early fact delivered', 'breaks', 'library condensings', 'compactions', 'turns with sections of condensed notes', 'uncached ÷ bound (OpenAI)', '(Anthropic)'],
      [
        [
          int(l.refused),
          int(l.overBudget),
          int(l.maxRequest),
          int(l.ownNoteMissing),
          int(l.factsMissed),
          l.earlyFact ? 'yes' : 'no',
          int(l.breaks),
          int(l.libraryCondensings),
          int(l.compactions),
          int(l.supplementTurns),
          ratio(l.overLowerBound.openai),
          ratio(l.overLowerBound.anthropic),
        ],
      ],
    ),
    '',
    `Measured in ${ms(l.ms)}.`,
    '',
  ];
}
