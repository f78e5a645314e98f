import type { PlanningBench, PlanningTurnRow, PlanningVariant } from '../planning/section';
import { int, pct, table } from './format';

/** USD; '—' for no paid call (null with no tokens), 'n/a' for calls of an unknown price. */
function usd(n: number | null, tokens: number): string {
  if (n !== null) return `$${n.toFixed(4)}`;
  return tokens === 0 ? '—' : 'n/a';
}

function decided(r: PlanningTurnRow): string {
  const parts = [
    [r.decided.include_full, 'full'],
    [r.decided.summarize, 'summary'],
    [r.decided.rag_extract, 'extract'],
    [r.decided.exclude, 'excluded'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, w]) => `${n} ${w}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

function turnsTable(v: PlanningVariant): string {
  return table(
    ['turn', 'answer reached', 'prompt', 'why planned', 'new decisions', 'sections for the question', 'planner tokens', 'summaries (tokens)', 'planning cost', 'summary cache', 'prefix'],
    v.turns.map((r) => [
      String(r.turn),
      r.expected === 0 ? '—' : `${r.reached} / ${r.expected}`,
      int(r.promptTokens),
      r.planner === null ? (r.reason === null ? '—' : `kept (${r.reason})`) : `${r.reason} (${r.planner})`,
      decided(r),
      r.supplements > 0 ? `${r.supplements} (${int(r.supplementTokens)} tokens)` : '—',
      r.plannerTokens > 0 ? int(r.plannerTokens) : '—',
      r.summaryCalls > 0 ? `${r.summaryCalls} (${int(r.summaryTokens)})` : '—',
      usd(r.planningCost, r.plannerTokens + r.summaryTokens),
      r.cacheHits + r.cacheMisses > 0 ? `${r.cacheHits} hit, ${r.cacheMisses} miss` : '—',
      r.prefixChange ?? 'extends',
    ]),
    ['r', 'r', 'r', 'l', 'l', 'l'],
  );
}

/** The planning section: per variant a summary line, per turn the table for the sticky planner-model run. */
export function planningSection(p: PlanningBench): string {
  const out: string[] = ['## Artifact planning: more than the window, one answer per section', ''];
  out.push(
    `Scenario \`${p.scenario}\` (bench/planning, over ../shared/corpus/tasks-docs): ${p.model}, a ${int(p.budget.tokens)}-token budget (window ${int(p.budget.window)} − ${int(p.budget.reserve)} reserved). ` +
      `Turn 1 attaches Queries/Filters.md and the Getting Started folder: ${int(p.attachedTokens)} tokens, ${p.attachedBudgets.toFixed(1)} budgets; turn 7 adds the grouping and sorting references (an overview question). ` +
      'Every other question is answered by one section, named in the scenario (`expect`): "reached" means a line of that section is in the request. ' +
      '**planner model**: real LangChain clients over HTTP to the local provider server (gpt-4o-mini plans from the previews by the words of the question; its summaries are extractive); **deterministic**: search rank and a contiguous greedy fit, no model call. ' +
      '**sticky**: a decision stays until the note changes; later questions get their sections as that turn\'s own block. **decided again each turn**: every item, and every note left out, is planned again for each question. ' +
      'Cached shares are the local server\'s OpenAI and Anthropic cache rules over the whole chat.',
    '',
  );
  out.push(
    table(
      ['variant', 'answers reached', 'largest request', 'over budget', 'compactions', 'prompt tokens', 'cached (OpenAI / Anthropic)', 'uncached (OpenAI)', 'planning tokens', 'planning cost'],
      p.variants.map((v) => [
        v.name,
        `${v.reached} / ${v.expected}`,
        int(v.maxRequest),
        String(v.overBudget),
        String(v.compactions),
        int(v.promptTokens),
        `${pct(v.cachedShare.openai)} / ${pct(v.cachedShare.anthropic)}`,
        int(v.promptTokens * (1 - v.cachedShare.openai)),
        int(v.planningTokens),
        usd(v.planningCost, v.planningTokens),
      ]),
      ['l'],
    ),
    '',
  );
  if (p.secondChat) {
    out.push(
      `A second chat on the same notes with the same summary cache (planner model, sticky): ${p.secondChat.hits} cache hit(s), ${p.secondChat.misses} miss(es), ${p.secondChat.summaryCalls} summary call(s). ` +
        `Embedding tokens: ${p.embeddingTokens} (extracts are ranked by the lexical vault search).`,
      '',
    );
  }
  const shown = p.variants.find((v) => v.planner === 'llm' && v.sticky) ?? p.variants[0];
  if (shown) out.push(`Per turn, ${shown.name}:`, '', turnsTable(shown), '');
  return out.join('\n');
}
