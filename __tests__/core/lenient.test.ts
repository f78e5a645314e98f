import { z } from 'zod';
import { Count, leftOut, orElse, readLenient, required } from '../../src/core/lenient';

const Item = z.object({ id: z.string(), n: orElse(Count, 0), tag: leftOut(z.string()).optional() });
const Schema = z.object({
  title: orElse(z.string(), 'Untitled'),
  status: required(z.enum(['open', 'done']), 'open', 'read as open'),
  items: orElse(z.array(leftOut(Item, 'left out')), []),
  rows: orElse(z.array(required(z.object({ at: orElse(Count.nullable(), null) }), { at: null }, 'an empty row is used')), []),
  sizes: orElse(z.record(z.string(), leftOut(z.int().positive())), {}),
});
type Value = z.infer<typeof Schema>;
const DEFAULT: Value = { title: 'Untitled', status: 'open', items: [], rows: [], sizes: {} };
const read = (data: unknown) => readLenient(Schema, data, DEFAULT, 'the defaults are used', 'the data');

describe('lenient reading', () => {
  test('good input reads as parsed, without warnings', () => {
    const data = { title: 't', status: 'done', items: [{ id: 'a', n: 2, tag: 'x' }], rows: [{ at: 1 }], sizes: { a: 1 } };
    expect(read(data)).toEqual({ value: data, warnings: [] });
  });

  test('missing fields take their fallback quietly, except required ones', () => {
    expect(read({})).toEqual({ value: DEFAULT, warnings: ['status: expected one of open, done; read as open'] });
  });

  test('each bad field takes its fallback, or is left out, and says so; the rest is kept', () => {
    const { value, warnings } = read({
      title: 3,
      status: 'done',
      items: [{ id: 'a', n: -1, tag: 4 }, 7, { id: 'b' }, { n: 2 }, { id: 'c', n: 1 }],
      rows: [5, { at: 'z' }, { at: 2 }],
      sizes: { a: 3, b: -1, c: 'x', d: 4 },
    });
    expect(value).toEqual({
      title: 'Untitled',
      status: 'done',
      items: [{ id: 'a', n: 0 }, { id: 'b', n: 0 }, { id: 'c', n: 1 }],
      rows: [{ at: null }, { at: null }, { at: 2 }],
      sizes: { a: 3, d: 4 },
    });
    expect(warnings).toEqual([
      'title: expected text; "Untitled" is used',
      'items[0].n: expected a number ≥ 0; 0 is used',
      'items[0].tag: expected text; ignored',
      'items[1]: expected an object; left out',
      'items[3].id: expected text; left out',
      'rows[0]: expected an object; an empty row is used',
      'rows[1].at: expected a number; null is used',
      'sizes.b: expected a number > 0; ignored',
      'sizes.c: expected a number; ignored',
    ]);
  });

  test('input that cannot be read at all takes the whole fallback', () => {
    expect(read('nope')).toEqual({ value: DEFAULT, warnings: ['the data: expected an object; the defaults are used'] });
  });

  test('fallbacks are fresh copies, never shared between reads or with the caller', () => {
    const first = read({ rows: [1, 2] }).value;
    expect(first.rows[0]).not.toBe(first.rows[1]);
    first.items.push({ id: 'x', n: 1 });
    expect(read({}).value.items).toEqual([]);
    expect(DEFAULT.items).toEqual([]);
  });

  test('the input is not modified', () => {
    const data = { title: 3, items: [7, { id: 'a' }] };
    read(data);
    expect(data).toEqual({ title: 3, items: [7, { id: 'a' }] });
  });
});
