import { z } from 'zod';

/**
 * A lenient schema's strict reader (lenient.ts): a plain function, built once from the schema, that
 * reads input the schema accepts to the same value zod gives, and gives up (FAILED) on anything else,
 * which is then read the lenient way. Why: zod runs a fallback point as a nested parse, and a chat
 * note's records have dozens of points each: a 1,000-turn note took ~90 ms to validate warm and
 * several times that on first use; this reads it in a few. Only what the stored-data schemas use is
 * read natively (objects, arrays, records, optional, nullable, unions, pipes into transforms, strings,
 * numbers with bounds, strings and lists with length bounds, enums, literals); any other schema, or one with checks of its own (a refine),
 * is handed to zod as it is, so an unknown construct is slower, never wrong.
 */

export const FAILED: unique symbol = Symbol('failed');

type Read = (input: unknown) => unknown;

/** How a schema reads as an object's property: its value, and what an absent key gives. */
interface Field {
  readonly read: Read;
  /** 'omit': no key in the output; 'fallback': the key takes `fallback()`; 'fail': the input is not read here. */
  readonly absent: 'omit' | 'fallback' | 'fail';
  readonly fallback?: () => unknown;
}

/** The fallback points (lenient.ts): each one's own schema, and its fallback when its input is missing (orElse). */
const POINTS = new WeakMap<z.ZodType, { readonly schema: z.ZodType; readonly whenMissing?: () => unknown }>();

export function registerPoint(point: z.ZodType, schema: z.ZodType, whenMissing?: () => unknown): void {
  POINTS.set(point, { schema, ...(whenMissing ? { whenMissing } : {}) });
}

const FIELDS = new WeakMap<z.ZodType, Field>();

/**
 * Schemas whose reads are kept by their input object: a chat note's list records (a turn, a library
 * item), whose parsed lines are kept by their text (conversation/keptLines.ts), so a note read again
 * in the same session (reopened, or read back after a save) does not validate its old records again.
 * The kept value is the one the read gave (shared: stored data is read-only once read).
 */
const KEPT = new WeakMap<z.ZodType, WeakMap<object, unknown>>();

export function keepReads<T extends z.ZodType>(schema: T): T {
  if (!KEPT.has(schema)) KEPT.set(schema, new WeakMap());
  return schema;
}

/** `input` read strictly by `schema`, or FAILED. */
export function readStrict(schema: z.ZodType, input: unknown): unknown {
  return fieldOf(schema).read(input);
}

function fieldOf(schema: z.ZodType): Field {
  let field = FIELDS.get(schema);
  if (!field) {
    field = build(schema);
    const kept = KEPT.get(schema);
    if (kept) field = keptField(field, kept);
    FIELDS.set(schema, field);
  }
  return field;
}

const required = (read: Read): Field => ({ read, absent: 'fail' });

/** `field`, its reads of objects kept by the object (a failed read is not kept: it is rare, and read the lenient way). */
function keptField(field: Field, kept: WeakMap<object, unknown>): Field {
  const read = field.read;
  return {
    ...field,
    read: (input) => {
      if (typeof input !== 'object' || input === null) return read(input);
      const known = kept.get(input);
      if (known !== undefined) return known;
      const value = read(input);
      if (value !== FAILED && value !== undefined) kept.set(input, value);
      return value;
    },
  };
}

function viaZod(schema: z.ZodType): Field {
  return required((input) => {
    const result = schema.safeParse(input);
    return result.success ? result.data : FAILED;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function build(schema: z.ZodType): Field {
  const point = POINTS.get(schema);
  if (point) {
    const inner = fieldOf(point.schema);
    const whenMissing = point.whenMissing;
    // leftOut and required: their schema decides; orElse: a missing input takes the fallback.
    if (!whenMissing) return inner;
    return { absent: 'fallback', fallback: whenMissing, read: (input) => (input === undefined ? whenMissing() : inner.read(input)) };
  }
  const def = schema.def as { type: string; checks?: unknown[] };
  // Length bounds (the size limits of stored data, storedLimits.ts) are read here; other checks by zod.
  const lengths = def.type === 'string' || def.type === 'array' ? lengthBounds(def.checks ?? []) : null;
  if (def.checks?.length && def.type !== 'number' && !lengths) return viaZod(schema);
  if (schema instanceof z.ZodObject) return objectField(schema);
  if (schema instanceof z.ZodArray) {
    const element = fieldOf(schema.element as z.ZodType).read;
    const [min, max] = lengths ?? [0, Infinity];
    return required((input) => {
      if (!Array.isArray(input) || input.length < min || input.length > max) return FAILED;
      const out: unknown[] = new Array(input.length);
      for (let i = 0; i < input.length; i++) {
        const value = element(input[i]);
        if (value === FAILED) return FAILED;
        out[i] = value;
      }
      return out;
    });
  }
  if (schema instanceof z.ZodOptional) {
    const inner = fieldOf(schema.unwrap() as z.ZodType).read;
    return { absent: 'omit', read: (input) => (input === undefined ? undefined : inner(input)) };
  }
  if (schema instanceof z.ZodNullable) {
    const inner = fieldOf(schema.unwrap() as z.ZodType).read;
    return required((input) => (input === null ? null : inner(input)));
  }
  if (schema instanceof z.ZodRecord) return recordField(schema);
  if (schema instanceof z.ZodUnion) {
    const options = (schema.options as z.ZodType[]).map((o) => fieldOf(o).read);
    return required((input) => {
      for (const option of options) {
        const value = option(input);
        if (value !== FAILED) return value;
      }
      return FAILED;
    });
  }
  if (schema instanceof z.ZodPipe) return pipeField(schema);
  if (schema instanceof z.ZodString && lengths) {
    const [min, max] = lengths;
    return required((input) => (typeof input === 'string' && input.length >= min && input.length <= max ? input : FAILED));
  }
  return leafField(schema) ?? viaZod(schema);
}

/** [min, max] of checks that are all length bounds, or null when any is something else. */
function lengthBounds(checks: readonly unknown[]): [number, number] | null {
  let min = 0;
  let max = Infinity;
  for (const check of checks) {
    const c = (check as { _zod?: { def?: { check?: string; minimum?: unknown; maximum?: unknown } } })._zod?.def;
    if (c?.check === 'min_length' && typeof c.minimum === 'number') min = Math.max(min, c.minimum);
    else if (c?.check === 'max_length' && typeof c.maximum === 'number') max = Math.min(max, c.maximum);
    else return null;
  }
  return [min, max];
}

function objectField(schema: z.ZodObject): Field {
  if (schema.def.catchall) return viaZod(schema);
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, s]) => [key, fieldOf(s)] as const);
  return required((input) => {
    if (!isPlainObject(input)) return FAILED;
    const out: Record<string, unknown> = {};
    for (const [key, field] of fields) {
      // `in`, as zod has it: a key is present when the object has it at all.
      if (!(key in input)) {
        if (field.absent === 'omit') continue;
        if (field.absent === 'fail' || !field.fallback) return FAILED;
        out[key] = field.fallback();
        continue;
      }
      const value = field.read(input[key]);
      if (value === FAILED) return FAILED;
      out[key] = value;
    }
    return out;
  });
}

function recordField(schema: z.ZodRecord): Field {
  const key = schema.def.keyType as z.ZodType;
  if (!(key instanceof z.ZodString) || key.def.checks?.length) return viaZod(schema);
  const value = fieldOf(schema.def.valueType as z.ZodType).read;
  return required((input) => {
    if (!isPlainObject(input)) return FAILED;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(input)) {
      if (k === '__proto__') return FAILED;
      const v = value(input[k]);
      if (v === FAILED) return FAILED;
      out[k] = v;
    }
    return out;
  });
}

function pipeField(schema: z.ZodPipe): Field {
  const first = fieldOf(schema.in as z.ZodType).read;
  const out = schema.out as z.ZodType;
  if (!(out instanceof z.ZodTransform)) {
    const second = fieldOf(out).read;
    return required((input) => {
      const value = first(input);
      return value === FAILED ? FAILED : second(value);
    });
  }
  const transform = out.def.transform as (value: unknown, payload: { value: unknown; issues: unknown[]; addIssue: (issue: unknown) => void }) => unknown;
  return required((input) => {
    const value = first(input);
    if (value === FAILED) return FAILED;
    const issues: unknown[] = [];
    const result = transform(value, { value, issues, addIssue: (issue) => issues.push(issue) });
    return issues.length > 0 || result instanceof Promise ? FAILED : result;
  });
}

/** Strings, numbers (finite; safe integers; bounds), booleans, enums, literals, unknown; null for any other. */
function leafField(schema: z.ZodType): Field | null {
  if (schema instanceof z.ZodString) return required((input) => (typeof input === 'string' ? input : FAILED));
  if (schema instanceof z.ZodBoolean) return required((input) => (typeof input === 'boolean' ? input : FAILED));
  if (schema instanceof z.ZodUnknown) return required((input) => input);
  if (schema instanceof z.ZodEnum) {
    const values = new Set<unknown>(Object.values(schema.def.entries));
    return required((input) => (values.has(input) ? input : FAILED));
  }
  if (schema instanceof z.ZodLiteral) {
    const values = new Set<unknown>(schema.def.values);
    return required((input) => (values.has(input) ? input : FAILED));
  }
  if (schema instanceof z.ZodNumber) return numberField(schema);
  return null;
}

function numberField(schema: z.ZodNumber): Field | null {
  const format = (schema.def as { format?: string }).format;
  if (format !== undefined && format !== 'safeint') return null;
  const bounds: Array<(n: number) => boolean> = [];
  for (const check of schema.def.checks ?? []) {
    const c = (check as unknown as { _zod: { def: { check: string; value: unknown; inclusive: boolean } } })._zod.def;
    if (typeof c.value !== 'number') return null;
    const bound = c.value;
    if (c.check === 'greater_than') bounds.push(c.inclusive ? (n) => n >= bound : (n) => n > bound);
    else if (c.check === 'less_than') bounds.push(c.inclusive ? (n) => n <= bound : (n) => n < bound);
    else return null;
  }
  const integer = format === 'safeint';
  return required((input) => {
    if (typeof input !== 'number' || !(integer ? Number.isSafeInteger(input) : Number.isFinite(input))) return FAILED;
    for (const ok of bounds) if (!ok(input)) return FAILED;
    return input;
  });
}
