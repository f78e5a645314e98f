import { formatTokens, type InputBudget } from '../budget/budget';
import type { CompactionEvent } from '../conversation/records/compaction';
import { LAYER_IDS as LAYERS, type LayerId } from '../engine/types';
import type { ReplayedTurn } from './replay';
import type { PlanRecord } from '../conversation/records/plan';
import { sumCalls } from '../planning/book';
import type { ExpectationResult } from './expect';

const STRATEGY_WORDS = { include_full: 'full', summarize: 'summary', rag_extract: 'extract', exclude: 'excluded' } as const;

/** A turn's plan in one line: why, who, each artifact's strategy and tokens, what planning cost. */
export function describePlan(p: PlanRecord): string {
  const who = p.planner === null ? 'kept decisions' : p.planner === 'llm' ? 'planner model' : p.planner === 'fallback' ? 'fallback plan' : 'deterministic plan';
  const items = p.decisions.map((d) => `${d.id} ${STRATEGY_WORDS[d.strategy]}${d.kept ? ' (kept)' : ''} ${formatTokens(d.tokens)}/${formatTokens(d.fullTokens)}`);
  const calls = sumCalls(p.calls);
  const cost = calls.calls > 0 ? `; ${calls.calls} call(s), ${formatTokens(calls.usage.inputTokens + calls.usage.outputTokens)} tokens${calls.cost !== null ? `, $${calls.cost.toFixed(4)}` : ''}` : '';
  const cache = p.cache.hits + p.cache.misses > 0 ? `; summary cache ${p.cache.hits} hit(s), ${p.cache.misses} miss(es)` : '';
  return `plan (${p.reason}, ${who}${p.warning ? `, warning: ${p.warning}` : ''}): ${items.join(', ')}${cost}${cache}`;
}

/** One inspector record per turn. Field names are a user-facing contract: keep them stable. */
export interface InspectRecord {
  turn: number;
  model: string;
  messages: Array<{ role: string; content: string }>;
  layers: Record<LayerId, { tokens: number; hash: string }>;
  promptTokens: number;
  prefixHash: string;
  prefixChange: string | null;
  prefixChangeDetail: string | null;
  full: string[];
  referenced: string[];
  freshness: Array<{ id: string; status: string; fromVersion: number; toVersion?: number }>;
  unresolved: Array<{ id: string; reason: string; detail: string }>;
  removed: string[];
  reply: string;
}

export function toInspectRecord({ turn, assembly, reply }: ReplayedTurn): InspectRecord {
  const { envelope } = assembly;
  const layers = {} as InspectRecord['layers'];
  for (const id of LAYERS) layers[id] = { tokens: envelope.layers[id].tokens, hash: envelope.layers[id].hash };
  return {
    turn,
    model: envelope.model,
    messages: assembly.messages.map((m) => ({ role: m.role, content: m.content })),
    layers,
    promptTokens: assembly.promptTokens,
    prefixHash: assembly.prefixHash,
    prefixChange: assembly.prefixChange?.reason ?? null,
    prefixChangeDetail: assembly.prefixChange?.detail ?? null,
    full: [...envelope.full],
    referenced: [...envelope.referenced],
    freshness: envelope.freshness.map((f) => ({
      id: f.id,
      status: f.status,
      fromVersion: f.fromVersion,
      ...(f.toVersion !== undefined ? { toVersion: f.toVersion } : {}),
    })),
    unresolved: envelope.unresolved.map((p) => ({ id: p.chipId, reason: p.reason, detail: p.detail })),
    removed: [...envelope.removed],
    reply,
  };
}

/** Why a compaction happened: the user asked, the request passed the threshold, or it did not fit at all. */
export type CompactionReason = 'manual' | 'threshold' | 'over-budget';

/** A compaction event as the inspector prints it: the event, and why it happened. */
export type InspectCompaction = { trigger: CompactionEvent['trigger']; reason: CompactionReason } & Omit<CompactionEvent, 'trigger'>;

/**
 * One JSON line: the record's fields first, unchanged (so lines stay byte-stable up to them), then
 * the turn's budget (null without one) and the compactions made before its request.
 */
export type InspectLine = InspectRecord & {
  budget: { tokens: number; threshold: number } | null;
  compactions: InspectCompaction[];
  /** Planned turns only (issue 15): why it planned, each artifact's strategy, the planner's and summaries' calls. */
  plan?: PlanRecord;
  /** Turns with `"expect"` only: whether each expected section reached the request. */
  expected?: ExpectationResult[];
};

export interface InspectOptions {
  /** The budget the replay kept to; null or absent: unbounded (--no-budget). */
  readonly budget?: InputBudget | null;
}

export function compactionReason(event: CompactionEvent, budget: InputBudget | null): CompactionReason {
  if (event.trigger === 'manual') return 'manual';
  return budget !== null && event.tokensBefore > budget.tokens ? 'over-budget' : 'threshold';
}

export function toInspectLine(turn: ReplayedTurn, options: InspectOptions = {}): InspectLine {
  const budget = options.budget ?? null;
  return {
    ...toInspectRecord(turn),
    budget: budget ? { tokens: budget.tokens, threshold: budget.threshold } : null,
    compactions: (turn.compactions ?? []).map(({ trigger, ...rest }) => ({ trigger, reason: compactionReason({ trigger, ...rest }, budget), ...rest })),
    ...(turn.plan ? { plan: turn.plan } : {}),
    ...(turn.expected ? { expected: [...turn.expected] } : {}),
  };
}

export function formatJsonl(turns: readonly ReplayedTurn[], options: InspectOptions = {}): string {
  return turns.map((t) => JSON.stringify(toInspectLine(t, options))).join('\n') + '\n';
}

/** One compaction in words, for the table. */
export function describeCompaction(c: InspectCompaction): string {
  const range = c.through === 1 ? 'turn 1' : `turns 1-${c.through}`;
  const what = c.kind === 'summary' ? `${range} summarized` : `${range} omitted with a marker${c.fallback ? ` (${c.fallback})` : ''}`;
  const masked = c.outputsMasked > 0 ? `, ${c.outputsMasked} output${c.outputsMasked === 1 ? '' : 's'} masked` : '';
  return `condensed (${c.trigger === 'manual' ? 'manual' : `auto, ${c.reason}`}): ${what}, ${c.turnsDropped} newly dropped${masked}; ${formatTokens(c.tokensBefore)} → ${formatTokens(c.tokensAfter)} tokens`;
}

function budgetLine(budget: InputBudget | null, rows: readonly InspectLine[]): string {
  const largest = rows.reduce<InspectLine | null>((max, r) => (max === null || r.promptTokens > max.promptTokens ? r : max), null);
  const peak = largest ? `largest request ${formatTokens(largest.promptTokens)} tokens (turn ${largest.turn})` : 'no requests';
  if (!budget) return `No budget: ${peak}.`;
  const count = rows.reduce((n, r) => n + r.compactions.length, 0);
  const over = rows.filter((r) => r.promptTokens > budget.tokens).length;
  const limit = budget.maxContextTokens < budget.window - budget.reserve ? `max context ${formatTokens(budget.maxContextTokens)}` : `window ${formatTokens(budget.window)} − ${formatTokens(budget.reserve)} reserved`;
  return (
    `Budget ${formatTokens(budget.tokens)} tokens (${limit}), condensing over ${formatTokens(budget.threshold)}: ${peak}, ` +
    `${over === 0 ? 'none' : over} over the budget, ${count} compaction${count === 1 ? '' : 's'}.`
  );
}

/** A readable per-turn summary: tokens per layer, what went in full or by reference, compactions, prefix changes; then the budget. */
export function formatTable(title: string, turns: readonly ReplayedTurn[], options: InspectOptions = {}): string {
  const rows = turns.map((t) => toInspectLine(t, options));
  const header = ['turn', 'L1', 'L2', 'L3', 'L4', 'L5', 'prompt', 'full', 'ref', 'prefix'];
  const body = rows.map((r) => [
    String(r.turn),
    ...LAYERS.map((l) => String(r.layers[l].tokens)),
    String(r.promptTokens),
    String(r.full.length),
    String(r.referenced.length),
    r.prefixChange ?? 'extends',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [title, '', line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line), ''];
  const notes: string[] = [];
  for (const r of rows) {
    const parts: string[] = r.compactions.map(describeCompaction);
    if (r.full.length) parts.push(`full: ${r.full.join(', ')}`);
    if (r.referenced.length) parts.push(`by reference: ${r.referenced.join(', ')}`);
    for (const f of r.freshness) parts.push(`freshness: ${f.id} ${f.status}${f.toVersion ? ` (v${f.fromVersion} → v${f.toVersion})` : ''}`);
    for (const u of r.unresolved) parts.push(`not attached: ${u.id} (${u.reason}: ${u.detail})`);
    if (r.removed.length) parts.push(`removed from library: ${r.removed.join(', ')}`);
    if (r.prefixChange) parts.push(`prefix changed: ${r.prefixChange} — ${r.prefixChangeDetail}`);
    if (r.plan) parts.push(describePlan(r.plan));
    for (const e of r.expected ?? []) parts.push(`expected ${e.note} › ${e.heading}: ${e.missing ? 'section not found' : e.reached ? 'reached' : 'NOT reached'}`);
    if (parts.length) notes.push(`turn ${r.turn}: ${parts.join('; ')}`);
  }
  if (notes.length) out.push(...notes, '');
  if (options.budget !== undefined) out.push(budgetLine(options.budget, rows));
  const total = rows.reduce((sum, r) => sum + r.promptTokens, 0);
  out.push(`${rows.length} turns, ${total} prompt tokens in all (tokenizer for ${rows[0]?.model ?? '?'}).`);
  return out.join('\n') + '\n';
}
