import type { z } from 'zod';
import { PlanError } from './planError';
import { PlanAnswerSchema, type PlanEntry } from './planSchema';
import type { ArtifactPlan } from './types';
import type { ArtifactDecision } from '../conversation/records/plan';

/** A planner's answer checked against the artifacts it was asked about. */
export interface ValidatedPlan {
  readonly plan: ArtifactPlan;
  /** Ids the answer named that are not among the artifacts (dropped), in answer order. */
  readonly unknown: readonly string[];
  /** Ids the answer named again after their first decision (the first one is kept). */
  readonly duplicates: readonly string[];
  /** Artifacts the answer left out, in the artifacts' order: the caller decides them itself. */
  readonly missing: readonly string[];
}

const EXCERPT_CHARS = 120;
const MAX_ISSUES = 3;
const MAX_RATIONALE_CHARS = 300;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > EXCERPT_CHARS ? `${oneLine.slice(0, EXCERPT_CHARS)}…` : oneLine;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The JSON a model wrote, found the way models write it: the whole text, else a fenced block
 * (```json … ```), else the text from its first `{` to its last `}` (prose around the object).
 */
function jsonInText(text: string): unknown {
  const trimmed = text.trim();
  const candidates = [trimmed];
  for (const match of trimmed.matchAll(/```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)```/g)) candidates.push(match[1].trim());
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(trimmed.slice(first, last + 1));
  for (const candidate of candidates) {
    const parsed = tryJson(candidate);
    if (parsed.ok) return parsed.value;
  }
  throw new PlanError(trimmed ? `the planner's answer is not valid JSON: "${excerpt(trimmed)}"` : "the planner's answer is empty", 'invalid-json');
}

/** Absent focus, query and reasoning are accepted (a plain-JSON answer may leave them out); strict mode sends null. */
function withDefaults(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const artifacts = Array.isArray(value.artifacts)
    ? value.artifacts.map((entry: unknown) => (isRecord(entry) ? { focus: null, query: null, ...entry } : entry))
    : value.artifacts;
  return { reasoning: '', ...value, artifacts };
}

function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(answer)';
}

function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, MAX_ISSUES).map((issue) => `${issuePath(issue.path)}: ${issue.message}`);
  const more = error.issues.length - MAX_ISSUES;
  return issues.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The decision for a checked entry: focus only for summarize, query only for rag_extract, the question where they are missing. */
function decisionOf(entry: PlanEntry, question: string): ArtifactDecision {
  const base = { id: entry.artifact_id, strategy: entry.strategy, priority: entry.priority, rationale: oneLine(entry.rationale, MAX_RATIONALE_CHARS) };
  if (entry.strategy === 'summarize') return { ...base, focus: entry.focus?.trim() || question.trim() };
  if (entry.strategy === 'rag_extract') return { ...base, query: entry.query?.trim() || question.trim() };
  return base;
}

/**
 * The plan in a planner's raw answer (an object from a tool call, or text holding JSON) for
 * `artifacts`: entries naming unknown ids are dropped, a repeated id keeps its first decision, and
 * the artifacts left out are returned as `missing`. Throws a PlanError when the answer is no JSON
 * or does not have the schema's shape. Deterministic: the answer's order is kept.
 */
export function validatePlan(raw: unknown, artifacts: readonly { readonly id: string }[], question: string): ValidatedPlan {
  const value = typeof raw === 'string' ? jsonInText(raw) : raw;
  if (value === undefined || value === null) throw new PlanError("the planner's answer is empty", 'invalid-json');
  const checked = PlanAnswerSchema.safeParse(withDefaults(value));
  if (!checked.success) throw new PlanError(`the planner's answer does not match the schema: ${describeIssues(checked.error)}`, 'schema');

  const known = new Set(artifacts.map((a) => a.id));
  const decided = new Set<string>();
  const decisions: ArtifactDecision[] = [];
  const unknown: string[] = [];
  const duplicates: string[] = [];
  for (const entry of checked.data.artifacts) {
    const id = entry.artifact_id;
    if (!known.has(id)) unknown.push(id);
    else if (decided.has(id)) duplicates.push(id);
    else {
      decided.add(id);
      decisions.push(decisionOf(entry, question));
    }
  }
  const missing = artifacts.map((a) => a.id).filter((id) => !decided.has(id));
  return { plan: { decisions, reasoning: checked.data.reasoning.trim() }, unknown, duplicates, missing };
}
