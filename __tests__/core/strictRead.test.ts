/**
 * readLenient reads valid input with the schema's strict reader (strictRead.ts) and repairs the
 * rest the lenient way. The two must agree: the same value, key for key and in the same order, for
 * every input the strict reader accepts, and the strict reader must give up on every input the
 * lenient read would warn about.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { writeMeta } from '../../src/core/conversation/meta';
import { EMPTY_FRONTMATTER, Frontmatter } from '../../src/core/conversation/metaSchema';
import { Count, leftOut, NonBlank, orElse, readLenient, readRepairing, required } from '../../src/core/lenient';
import { loadSettings } from '../../src/core/settings/settings';
import { FAILED, readStrict } from '../../src/core/strictRead';
import { richConversation } from './conversation/richChat';

const asStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function sameReads<T>(schema: z.ZodType<T>, data: unknown, fallback: T): void {
  const lenient = readLenient(schema, data, fallback, 'defaults', 'the data');
  const repairing = readRepairing(schema, data, fallback, 'defaults', 'the data');
  expect(JSON.stringify(lenient.value)).toBe(JSON.stringify(repairing.value));
  expect(lenient.warnings).toEqual(repairing.warnings);
}

describe('strict reading', () => {
  test('a chat note\'s metadata reads strictly to exactly what the lenient read gives', () => {
    fc.assert(
      fc.property(richConversation, (c) => {
        const data = asStored(writeMeta(c));
        expect(readStrict(Frontmatter(), data)).not.toBe(FAILED);
        sameReads(Frontmatter(), data, EMPTY_FRONTMATTER);
      }),
      { numRuns: 150 },
    );
  });

  test('damaged metadata is not read strictly: the lenient read repairs it and says where', () => {
    fc.assert(
      fc.property(richConversation, fc.constantFrom<[string, unknown]>(['status', 'answered'], ['at', 'yesterday'], ['referenced', 'x'], ['usage', { inputTokens: -1 }], ['tokens', 7]), (c, [key, bad]) => {
        const data = asStored(writeMeta(c)) as { strata: { turns: Record<string, unknown>[] } };
        data.strata.turns[0][key] = bad;
        expect(readStrict(Frontmatter(), data)).toBe(FAILED);
        sameReads(Frontmatter(), data, EMPTY_FRONTMATTER);
        expect(readLenient(Frontmatter(), data, EMPTY_FRONTMATTER, 'defaults', 'the data').warnings).toHaveLength(1);
      }),
      { numRuns: 60 },
    );
  });

  test('settings read the same either way (a fresh install, and stored settings read back)', () => {
    const { settings } = loadSettings({});
    expect(loadSettings(asStored(settings)).settings).toEqual(settings);
    expect(loadSettings(asStored(settings)).warnings).toEqual([]);
  });

  test('bounds, whole numbers, enums and literals are checked as zod checks them', () => {
    const Schema = z.object({ n: z.int().min(1), x: z.number(), e: z.enum(['a', 'b']), l: z.literal([1, 2]), s: z.string().optional() });
    expect(readStrict(Schema, { n: 1, x: 0.5, e: 'a', l: 2 })).toEqual({ n: 1, x: 0.5, e: 'a', l: 2 });
    for (const bad of [{ n: 0 }, { n: 1.5 }, { n: 2 ** 60 }, { x: Infinity }, { x: NaN }, { e: 'c' }, { l: 3 }, { s: 4 }]) {
      expect(readStrict(Schema, { n: 1, x: 0.5, e: 'a', l: 2, ...bad })).toBe(FAILED);
    }
  });

  test('absent keys: optional ones are left out, orElse ones take their fallback, others fail; unknown keys are dropped', () => {
    const Schema = z.object({ a: leftOut(z.string()).optional(), b: orElse(z.array(z.string()), []), c: required(Count, 0), d: NonBlank });
    expect(readStrict(Schema, { c: 1, d: 'x', extra: true })).toEqual({ b: [], c: 1, d: 'x' });
    expect(Object.keys(readStrict(Schema, { d: 'x', c: 1, b: ['y'], a: 'z' }) as object)).toEqual(['a', 'b', 'c', 'd']);
    expect(readStrict(Schema, { d: 'x' })).toBe(FAILED);
    expect(readStrict(Schema, { c: 1, d: '  ' })).toBe(FAILED);
  });

  test('a construct the strict reader does not know is read by zod itself', () => {
    const Schema = z.object({ when: z.date(), tags: z.set(z.string()), n: orElse(Count, 0) });
    const value = { when: new Date(0), tags: new Set(['a']) };
    expect(readStrict(Schema, value)).toEqual({ ...value, n: 0 });
    expect(readStrict(Schema, { ...value, when: 'today' })).toBe(FAILED);
  });
});
