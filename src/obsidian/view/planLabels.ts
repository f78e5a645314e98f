import type { Usage } from '../../core/usage';
import type { PlanOverride, Strategy } from '../../core/conversation/records/plan';
import { formatTokens, formatUsd } from './format';

/**
 * Artifact planning in the user's words: the strategy badges and the figures the library panel and
 * the turn details share, so both say the same thing the same way.
 */

export const STRATEGY_LABELS: Readonly<Record<Strategy, string>> = {
  include_full: 'Full',
  summarize: 'Summary',
  rag_extract: 'Extract',
  exclude: 'Excluded',
};

/** What each badge means, for its tooltip and accessible description. */
export const STRATEGY_HINTS: Readonly<Record<Strategy, string>> = {
  include_full: 'Sent in full',
  summarize: 'Sent as a summary written for this chat',
  rag_extract: 'Only the sections that match the question are sent',
  exclude: 'Not sent',
};

export const OVERRIDE_LABELS: Readonly<Record<PlanOverride, string>> = {
  full: 'Pinned: full',
  exclude: 'Excluded by you',
};

/** "1.2k of 38k tokens" when only part is sent; "38k" when sent whole (the panel's figure so far); "0 of 38k" when excluded. */
export function sentText(strategy: Strategy, tokens: number, fullTokens: number): string {
  if (strategy === 'include_full') return formatTokens(tokens);
  return `${formatTokens(tokens)} of ${formatTokens(fullTokens)} tokens`;
}

/** "3 calls, 4.1k tokens, $0.0012": what planning cost (the planner and the summaries), apart from the chat's main calls. */
export function planCostText(sum: { readonly usage: Usage; readonly cost: number | null; readonly calls: number }): string {
  const tokens = sum.usage.inputTokens + sum.usage.outputTokens;
  return `${sum.calls} call${sum.calls === 1 ? '' : 's'}, ${formatTokens(tokens)} tokens, ${formatUsd(sum.cost)}`;
}

/** A small badge: a strategy (`is-rag_extract`…) or an override (`is-override`). */
export function renderBadge(parent: HTMLElement, text: string, cls: string, hint: string): HTMLElement {
  return parent.createSpan({ cls: `strata-plan-badge ${cls}`, text, attr: { title: hint } });
}

export function strategyBadge(parent: HTMLElement, strategy: Strategy): HTMLElement {
  return renderBadge(parent, STRATEGY_LABELS[strategy], `is-${strategy}`, STRATEGY_HINTS[strategy]);
}

export function overrideBadge(parent: HTMLElement, override: PlanOverride): HTMLElement {
  const hint = override === 'full' ? 'You chose to send it in full' : 'You chose to leave it out';
  return renderBadge(parent, OVERRIDE_LABELS[override], 'is-override', hint);
}
