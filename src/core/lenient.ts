import { z } from 'zod';
import { FAILED, readStrict, registerPoint } from './strictRead';

/**
 * Lenient reading of stored data (chat-note frontmatter, data.json) with zod schemas. A schema marks
 * its fallback points with `orElse` and `leftOut`: input that fails there is replaced by the fallback
 * (or left out) and reported as a warning that names the field, what was expected and what is used
 * instead. Reading never throws.
 *
 * zod gives no value once an issue is raised, so a read with issues is two parses: the first
 * collects the issues, each carrying its fallback point's path and fallback; the fallbacks are
 * written into a copy of the input at those paths; the second parse reads the repaired input.
 */

/** What a read gives: the value and what the user should be told about the input. */
export interface Read<T> {
  readonly value: T;
  readonly warnings: string[];
}

const LEFT_OUT = Symbol('left out');

/** A fallback the repair wrote into the input: its point takes it as is. */
class Repaired {
  constructor(readonly value: unknown) {}
}

interface Recovery {
  readonly fallback: unknown;
  readonly used: string;
  /** How many trailing path segments lie below the fallback point. */
  readonly depth: number;
}

type Issue = z.core.$ZodIssue;

function recoveryOf(issue: Issue): Recovery | undefined {
  return issue.code === 'custom' ? (issue.params?.recovery as Recovery | undefined) : undefined;
}

/** A fresh copy of a fallback: most are null, a primitive or an empty list, which need no structuredClone. */
function copyOf<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value) && value.length === 0) return [] as T;
  return structuredClone(value);
}

function point<T>(schema: z.ZodType<T>, fallback: T | typeof LEFT_OUT, used: string, quietWhenMissing: boolean): z.ZodType<T> {
  // Optional in: an absent key reaches the point (as undefined) instead of failing the object.
  const wrapped = z
    .unknown()
    .optional()
    .transform((input, ctx): T => {
      if (input instanceof Repaired) return input.value as T;
      if (input === undefined && quietWhenMissing && fallback !== LEFT_OUT) return copyOf(fallback);
      const result = schema.safeParse(input, { error: expected });
      if (result.success) return result.data;
      const issues = result.error.issues;
      const failed = issues.find((issue) => !recoveryOf(issue));
      if (!failed) {
        // Everything below was recovered by inner points: pass their issues up as they are.
        for (const issue of issues) ctx.issues.push({ ...issue, path: [...issue.path], input } as z.core.$ZodRawIssue);
      } else {
        const recovery: Recovery = { fallback, used, depth: failed.path.length };
        ctx.issues.push({ code: 'custom', input, path: [...failed.path], message: failed.message, params: { recovery } });
      }
      return fallback as T; // the first parse's value is not used
    });
  registerPoint(wrapped, schema, quietWhenMissing && fallback !== LEFT_OUT ? () => copyOf(fallback) : undefined);
  return wrapped;
}

function usedText(fallback: unknown): string {
  if (Array.isArray(fallback) && fallback.length === 0) return 'an empty list is used';
  return fallback === null || ['string', 'number', 'boolean'].includes(typeof fallback) ? `${JSON.stringify(fallback)} is used` : 'the default is used';
}

/** Missing input takes `fallback` quietly; input that fails `schema` takes it with a warning. */
export function orElse<T>(schema: z.ZodType<T>, fallback: NoInfer<T>, used = usedText(fallback)): z.ZodType<T> {
  return point(schema, fallback, used, true);
}

/** Like orElse, but missing input is reported too. */
export function required<T>(schema: z.ZodType<T>, fallback: NoInfer<T>, used = usedText(fallback)): z.ZodType<T> {
  return point(schema, fallback, used, false);
}

/**
 * Input that fails `schema` is left out with a warning: a list element is removed, an object key is
 * dropped (add `.optional()` there, so that a missing key is fine too).
 */
export function leftOut<T>(schema: z.ZodType<T>, used = 'ignored'): z.ZodType<T> {
  return point(schema, LEFT_OUT, used, false);
}

/**
 * Read `data` with `schema`; when it cannot be read at all, `fallback` is used (with a warning that
 * calls the whole thing `name`).
 */
export function readLenient<T>(schema: z.ZodType<T>, data: unknown, fallback: NoInfer<T>, used: string, name: string): Read<T> {
  // Nearly every input is valid: the strict reader reads it (strictRead.ts); only one it fails on is repaired.
  const strict = readStrict(schema, data);
  if (strict !== FAILED) return { value: strict as T, warnings: [] };
  return readRepairing(schema, data, fallback, used, name);
}

/** readLenient without the strict pass first (exported for the tests that hold the two to the same values). */
export function readRepairing<T>(schema: z.ZodType<T>, data: unknown, fallback: NoInfer<T>, used: string, name: string): Read<T> {
  const root = point(schema, fallback, used, false);
  const first = root.safeParse(data);
  if (first.success) return { value: first.data, warnings: [] };
  const issues = first.error.issues;
  let repaired = data;
  // Last first: removing a list element does not move the paths of the ones before it.
  for (let i = issues.length - 1; i >= 0; i--) {
    const recovery = recoveryOf(issues[i]);
    if (!recovery) continue;
    const at = issues[i].path.slice(0, issues[i].path.length - recovery.depth);
    repaired = replaceAt(repaired, at, recovery.fallback === LEFT_OUT ? LEFT_OUT : new Repaired(structuredClone(recovery.fallback)));
  }
  const second = root.safeParse(repaired);
  return {
    value: second.success ? second.data : structuredClone(fallback),
    warnings: issues.map((issue) => `${pathText(issue.path) || name}: ${issue.message}; ${recoveryOf(issue)?.used ?? used}`),
  };
}

/** A copy of `node` with the value at `path` replaced (or removed, for LEFT_OUT); nodes off the path are shared. */
function replaceAt(node: unknown, path: readonly PropertyKey[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  if (Array.isArray(node) && typeof key === 'number') {
    const copy = [...(node as unknown[])];
    const next = replaceAt(copy[key], rest, value);
    if (next === LEFT_OUT) copy.splice(key, 1);
    else copy[key] = next;
    return copy;
  }
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<PropertyKey, unknown> = { ...(node as Record<PropertyKey, unknown>) };
  const next = replaceAt(copy[key], rest, value);
  if (next === LEFT_OUT) delete copy[key];
  else Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** providers[2].models[0] */
export function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  date: 'a date',
  null: 'nothing',
};

/** Issue messages in words a user can act on ("expected a whole number ≥ 0"), for the codes these schemas raise. */
export function expected(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `expected ${JSON.stringify(issue.values[0])}` : `expected one of ${issue.values.join(', ')}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min === 1 ? 'expected non-empty text' : `expected at least ${min} characters`;
      if (issue.origin === 'array') return `expected at least ${min} item(s)`;
      return `expected a number ${issue.inclusive ? '≥' : '>'} ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `expected at most ${max} characters`;
      if (issue.origin === 'array') return `expected at most ${max} item(s)`;
      return `expected a number ${issue.inclusive ? '≤' : '<'} ${max}`;
    }
    case 'invalid_union':
      return 'options' in issue && Array.isArray(issue.options) ? `expected one of ${issue.options.join(', ')}` : 'expected one of the known forms';
    default:
      return undefined;
  }
}

/** A whole number ≥ 0 (counts, indexes). */
export const Count = z.int().min(0);

/** Text with something in it besides spaces. */
export const NonBlank = z.string().refine((text) => text.trim() !== '', { error: 'expected non-empty text' });
