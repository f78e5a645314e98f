import type { ChatTurn, CompactionRecord } from '../../core/conversation/model';
import { missingUsage } from '../../core/chat/missingUsage';
import { ZERO_USAGE } from '../../core/usage';
import { searchDetail } from './citations';
import { cachedShareOf, formatPercent, formatTokens, formatUsd } from './format';

/**
 * The usage line under a reply: the short figures shown (tokens in and out, cached share, cost, a
 * summary written just before it) and the full detail on hover.
 */
export function turnSummary(turn: ChatTurn, compactions: readonly CompactionRecord[]): string[] {
  const missing = missingUsage(turn);
  if (missing) return [missing.short];
  const usage = turn.usage ?? ZERO_USAGE;
  const parts = [`${formatTokens(usage.inputTokens)} in`, `${formatTokens(usage.outputTokens)} out`, `${formatPercent(cachedShareOf(usage))} cached`];
  if (typeof turn.cost === 'number') parts.push(formatUsd(turn.cost));
  if (turn.envelope?.compile?.mode === 'delta') parts.push('session resumed');
  const summary = summaryCost(compactions);
  if (summary) parts.push(`+ summary ${formatTokens(summary.input)} in`, formatUsd(summary.cost));
  return parts;
}

export function turnDetail(turn: ChatTurn, compactions: readonly CompactionRecord[]): string {
  const missing = missingUsage(turn);
  if (missing) return `Model: ${turn.model ?? 'unknown'}\n${missing.long}`;
  const usage = turn.usage ?? ZERO_USAGE;
  const compile = turn.envelope?.compile;
  const summary = summaryCost(compactions);
  return [
    `Model: ${turn.model ?? 'unknown'}${turn.provider ? ` (${turn.provider})` : ''}`,
    `Prompt: ${usage.inputTokens} tokens, ${usage.cachedReadTokens} read from cache, ${usage.cacheWriteTokens} written to cache`,
    `Reply: ${usage.outputTokens} tokens`,
    ...(compile ? [`Request: ${compile.mode} (${compile.reason})`] : []),
    ...(turn.search ? searchDetail(turn.search) : []),
    ...(summary ? [`Summary before this turn: ${summary.input} tokens in, ${summary.output} out, ${formatUsd(summary.cost)}`] : []),
  ].join('\n');
}

/** What the summaries written just before a turn used (null when none was written by a model). */
function summaryCost(compactions: readonly CompactionRecord[]): { input: number; output: number; cost: number | null } | null {
  const written = compactions.filter((c) => c.summary !== null);
  if (written.length === 0) return null;
  let input = 0;
  let output = 0;
  let cost: number | null = 0;
  for (const c of written) {
    input += c.summary?.usage.inputTokens ?? 0;
    output += c.summary?.usage.outputTokens ?? 0;
    cost = cost === null || c.cost === null ? null : cost + c.cost;
  }
  return { input, output, cost };
}
