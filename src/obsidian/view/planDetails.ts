import { setIcon } from 'obsidian';
import { sumCalls } from '../../core/planning/book';
import type { ArtifactUsage, PlanCall, PlanRecord, Strategy } from '../../core/conversation/records/plan';
import { formatUsd } from './format';
import { planCostText, sentText, strategyBadge } from './planLabels';

/** Strategies in the order the summary counts them, and their words there. */
const COUNTED: readonly (readonly [Strategy, string, string])[] = [
  ['include_full', 'full', 'full'],
  ['summarize', 'summary', 'summaries'],
  ['rag_extract', 'extract', 'extracts'],
  ['exclude', 'excluded', 'excluded'],
];

/**
 * A reply's "Context plan" (artifact planning, seed 004): folded to one line saying what was sent
 * how; opened, why it planned, who planned, the room, each decision with its reason, the summary
 * cache and what planning cost apart from the reply. A failed planner's warning stays visible
 * outside the fold: the plan the reply was given is not the one the user asked for.
 */
export function renderPlanDetails(parent: HTMLElement, plan: PlanRecord): void {
  if (plan.warning) {
    const warn = parent.createDiv({ cls: 'strata-plan-warning', attr: { role: 'note' } });
    setIcon(warn.createSpan({ cls: 'strata-plan-warning-icon' }), 'alert-triangle');
    warn.createSpan({ text: plan.warning });
  }
  const details = parent.createEl('details', { cls: 'strata-plan' });
  const summary = details.createEl('summary', { cls: 'strata-plan-summary' });
  summary.createSpan({ cls: 'strata-plan-summary-title', text: 'Context plan' });
  for (const part of summaryParts(plan)) {
    summary.appendText(' · ');
    summary.createSpan({ cls: 'strata-plan-summary-part', text: part });
  }

  const body = details.createDiv({ cls: 'strata-plan-body' });
  body.createDiv({ cls: 'strata-plan-reason', text: plan.planner === null ? `No new plan: ${plan.detail}.` : `Planned because ${plan.detail}.` });
  body.createDiv({ cls: 'strata-plan-by', text: plannerText(plan) });
  if (plan.planner !== null) body.createDiv({ cls: 'strata-plan-room', text: `Room for attachments: ${plan.roomTokens.toLocaleString('en-US')} tokens` });
  if (plan.replanned && plan.replanned.length > 0) {
    body.createDiv({ cls: 'strata-plan-replanned', text: `Decided again (a changed note or your override): ${plan.replanned.join(', ')}` });
  }

  const list = body.createEl('ul', { cls: 'strata-plan-decisions' });
  for (const d of [...plan.decisions].sort((a, b) => a.priority - b.priority)) decision(list, d);

  const { hits, misses } = plan.cache;
  if (hits + misses > 0) {
    body.createDiv({ cls: 'strata-plan-cache', text: `Summaries: ${hits} from the cache, ${misses} written for this turn` });
  }
  const cost = costLines(plan.calls);
  if (cost.length > 0) {
    const box = body.createDiv({ cls: 'strata-plan-cost' });
    for (const line of cost) box.createDiv({ text: line });
  }
}

function decision(list: HTMLElement, d: ArtifactUsage): void {
  const item = list.createEl('li', { cls: 'strata-plan-decision', attr: { 'data-id': d.id, 'data-strategy': d.strategy } });
  const line = item.createDiv({ cls: 'strata-plan-decision-line' });
  line.createSpan({ cls: 'strata-plan-decision-title', text: d.title, attr: { title: d.id } });
  strategyBadge(line, d.strategy);
  if (d.kept) line.createSpan({ cls: 'strata-plan-kept', text: 'kept', attr: { title: 'Decided on an earlier turn and sent the same way again' } });
  line.createSpan({ cls: 'strata-plan-decision-tokens', text: d.strategy === 'include_full' ? `${d.tokens.toLocaleString('en-US')} tokens` : sentText(d.strategy, d.tokens, d.fullTokens) });
  const why = [d.rationale, d.query ? `looked for: “${d.query}”` : '', d.focus ? `focus: ${d.focus}` : '', d.cacheHit ? 'summary from the cache' : '']
    .filter(Boolean)
    .join(' · ');
  if (why) item.createDiv({ cls: 'strata-plan-decision-why', text: why });
}

/** "1 extract, 2 full · by gpt-4o-mini · planning $0.0003": the folded line. */
function summaryParts(plan: PlanRecord): string[] {
  const counts = COUNTED.flatMap(([strategy, one, many]) => {
    const n = plan.decisions.filter((d) => d.strategy === strategy).length;
    return n === 0 ? [] : [`${n} ${n === 1 ? one : many}`];
  });
  const parts = counts.length > 0 ? [counts.join(', ')] : [];
  const by = shortPlanner(plan);
  if (by) parts.push(by);
  if (plan.calls.length > 0) parts.push(`planning ${formatUsd(sumCalls(plan.calls).cost)}`);
  return parts;
}

function plannerCall(plan: PlanRecord): PlanCall | undefined {
  return plan.calls.find((c) => c.kind === 'planner');
}

function shortPlanner(plan: PlanRecord): string | null {
  switch (plan.planner) {
    case 'llm':
      return `by ${plannerCall(plan)?.model ?? 'the planner model'}`;
    case 'heuristic':
      return 'deterministic';
    case 'fallback':
      return 'fallback plan';
    case 'user':
      return 'your choices';
    case null:
      return byUser(plan) ? 'your choice' : 'kept';
  }
}

/** Nothing planned this turn and every decision the user's override. */
function byUser(plan: PlanRecord): boolean {
  return plan.decisions.length > 0 && plan.decisions.every((d) => d.by === 'user');
}

function plannerText(plan: PlanRecord): string {
  const call = plannerCall(plan);
  switch (plan.planner) {
    case 'llm':
      return call ? `Planned by the planner model, ${call.provider}/${call.model}.` : 'Planned by the planner model.';
    case 'heuristic':
      return 'Planned deterministically: by search rank for the question, no model call.';
    case 'fallback':
      return 'The planner model failed, so the deterministic plan was used (by search rank, no model call).';
    case 'user':
      return 'As you chose in the notes panel.';
    case null:
      return byUser(plan) ? 'As you chose in the notes panel.' : 'Every item was sent as decided before.';
  }
}

/** The planner's call and the summaries' calls, each with tokens and $, and their total when both ran. */
function costLines(calls: readonly PlanCall[]): string[] {
  const planner = calls.filter((c) => c.kind === 'planner');
  const summaries = calls.filter((c) => c.kind === 'summary');
  const lines: string[] = [];
  if (planner.length > 0) lines.push(`Planner: ${planCostText(sumCalls(planner))}`);
  if (summaries.length > 0) lines.push(`Summaries: ${planCostText(sumCalls(summaries))}`);
  if (planner.length > 0 && summaries.length > 0) lines.push(`Planning in all: ${planCostText(sumCalls(calls))}`);
  if (lines.length > 0) lines.push('Not counted in the reply’s figures above.');
  return lines;
}
