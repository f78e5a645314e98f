import { z } from 'zod';
import { leftOut, orElse } from '../lenient';
import type { PlanBook } from './records/plan';
import { DECIDERS, SHOULD_PLAN_REASONS, STRATEGIES, type PlanRecord } from './records/plan';
import { ITEM_KINDS } from '../context/items';

/**
 * How the chat note reads artifact planning back (src/core/planning): a turn's plan record and the
 * chat's kept decisions. A damaged decision is left out: the item is then decided again next time.
 */
const Count = z.int().min(0);
const UsageRecord = z.object({ inputTokens: Count, outputTokens: Count, cachedReadTokens: Count, cacheWriteTokens: Count });
const ArtifactTypeSchema = z.enum([...ITEM_KINDS, 'tool']);

const PlanCallRecord = z.object({
  kind: z.enum(['planner', 'summary']),
  provider: z.string(),
  model: z.string(),
  usage: UsageRecord,
  cost: orElse(z.number().nullable(), null, 'read as unknown'),
});

const ArtifactUsageRecord = z.object({
  id: z.string(),
  type: ArtifactTypeSchema,
  title: orElse(z.string(), ''),
  strategy: z.enum(STRATEGIES),
  priority: orElse(Count, 0),
  rationale: orElse(z.string(), ''),
  by: z.enum(DECIDERS),
  kept: orElse(z.boolean(), false),
  fullTokens: orElse(Count, 0),
  tokens: orElse(Count, 0),
  focus: leftOut(z.string()).optional(),
  query: leftOut(z.string()).optional(),
  cacheHit: leftOut(z.boolean()).optional(),
});

export const PlanRecordSchema = z.object({
  reason: z.enum(SHOULD_PLAN_REASONS),
  detail: orElse(z.string(), ''),
  planner: orElse(z.enum(DECIDERS).nullable(), null),
  warning: leftOut(z.string()).optional(),
  roomTokens: orElse(Count, 0),
  decisions: orElse(z.array(leftOut(ArtifactUsageRecord, 'left out')), []),
  calls: orElse(z.array(leftOut(PlanCallRecord, 'left out: its cost is not counted')), []),
  cache: orElse(z.object({ hits: Count, misses: Count }), { hits: 0, misses: 0 }),
  replanned: leftOut(z.array(z.string())).optional(),
}) satisfies z.ZodType<PlanRecord>;

const KeptDecisionRecord = z.object({
  id: z.string(),
  strategy: z.enum(STRATEGIES),
  priority: orElse(Count, 0),
  rationale: orElse(z.string(), ''),
  focus: leftOut(z.string()).optional(),
  query: leftOut(z.string()).optional(),
  type: ArtifactTypeSchema,
  title: orElse(z.string(), ''),
  by: z.enum(DECIDERS),
  sourceHash: z.string(),
  fullTokens: orElse(Count, 0),
  tokens: orElse(Count, 0),
  turn: orElse(z.int().min(1), 1),
});

export const PlanBookSchema = z.object({
  decisions: orElse(z.array(leftOut(KeptDecisionRecord, 'left out: the item is decided again')), []),
  overrides: orElse(z.array(leftOut(z.object({ id: z.string(), override: z.enum(['full', 'exclude']) }), 'left out')), []),
}) satisfies z.ZodType<PlanBook>;

/** A planned library item's form (a summary or an extract stands for its source). */
export const PlannedFormRecord = z.object({
  strategy: z.enum(['summarize', 'rag_extract']),
  sourceHash: z.string(),
  fullTokens: orElse(Count, 0),
});

/** JSON-safe copies for the writer (records are plain data: a structural copy is the record). */
export function writePlanRecord(p: PlanRecord): Record<string, unknown> {
  return JSON.parse(JSON.stringify(p)) as Record<string, unknown>;
}

export function writePlanBook(b: PlanBook): Record<string, unknown> {
  return JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
}
