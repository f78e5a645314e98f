import { z } from 'zod';
import { lazySchema } from '../lazySchema';
import { leftOut, orElse } from '../lenient';
import { listOf, Name, PathText, Text } from '../storedLimits';
import type { PlanBook } from './records/plan';
import { DECIDERS, SHOULD_PLAN_REASONS, STRATEGIES, type PlanRecord } from './records/plan';
import { ITEM_KINDS } from '../context/items';

/**
 * How the chat note reads artifact planning back (src/core/planning): a turn's plan record and the
 * chat's kept decisions. A damaged decision is left out: the item is then decided again next time.
 */
const Count = z.int().min(0);
const UsageRecord = lazySchema(() => z.object({ inputTokens: Count, outputTokens: Count, cachedReadTokens: Count, cacheWriteTokens: Count }));
const ArtifactTypeSchema = lazySchema(() => z.enum([...ITEM_KINDS, 'tool']));

const PlanCallRecord = lazySchema(() => z.object({
  kind: z.enum(['planner', 'summary']),
  provider: Name,
  model: Name,
  usage: UsageRecord(),
  cost: orElse(z.number().nullable(), null, 'read as unknown'),
}));

const ArtifactUsageRecord = lazySchema(() => z.object({
  id: PathText,
  type: ArtifactTypeSchema(),
  title: orElse(PathText, ''),
  strategy: z.enum(STRATEGIES),
  priority: orElse(Count, 0),
  rationale: orElse(Text, ''),
  by: z.enum(DECIDERS),
  kept: orElse(z.boolean(), false),
  fullTokens: orElse(Count, 0),
  tokens: orElse(Count, 0),
  focus: leftOut(Text).optional(),
  query: leftOut(Text).optional(),
  cacheHit: leftOut(z.boolean()).optional(),
}));

export const PlanRecordSchema = lazySchema(() => z.object({
  reason: z.enum(SHOULD_PLAN_REASONS),
  detail: orElse(Text, ''),
  planner: orElse(z.enum(DECIDERS).nullable(), null),
  warning: leftOut(Text).optional(),
  roomTokens: orElse(Count, 0),
  decisions: orElse(listOf(leftOut(ArtifactUsageRecord(), 'left out')), []),
  calls: orElse(listOf(leftOut(PlanCallRecord(), 'left out: its cost is not counted')), []),
  cache: orElse(z.object({ hits: Count, misses: Count }), { hits: 0, misses: 0 }),
  replanned: leftOut(listOf(PathText)).optional(),
}) satisfies z.ZodType<PlanRecord>);

const KeptDecisionRecord = lazySchema(() => z.object({
  id: PathText,
  strategy: z.enum(STRATEGIES),
  priority: orElse(Count, 0),
  rationale: orElse(Text, ''),
  focus: leftOut(Text).optional(),
  query: leftOut(Text).optional(),
  type: ArtifactTypeSchema(),
  title: orElse(PathText, ''),
  by: z.enum(DECIDERS),
  sourceHash: Name,
  fullTokens: orElse(Count, 0),
  tokens: orElse(Count, 0),
  turn: orElse(z.int().min(1), 1),
}));

export const PlanBookSchema = lazySchema(() => z.object({
  decisions: orElse(listOf(leftOut(KeptDecisionRecord(), 'left out: the item is decided again')), []),
  overrides: orElse(listOf(leftOut(z.object({ id: PathText, override: z.enum(['full', 'exclude']) }), 'left out')), []),
}) satisfies z.ZodType<PlanBook>);

/** A planned library item's form (a summary or an extract stands for its source). */
export const PlannedFormRecord = lazySchema(() => z.object({
  strategy: z.enum(['summarize', 'rag_extract']),
  sourceHash: Name,
  fullTokens: orElse(Count, 0),
}));

/** JSON-safe copies for the writer (records are plain data: a structural copy is the record). */
export function writePlanRecord(p: PlanRecord): Record<string, unknown> {
  return JSON.parse(JSON.stringify(p)) as Record<string, unknown>;
}

export function writePlanBook(b: PlanBook): Record<string, unknown> {
  return JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
}
