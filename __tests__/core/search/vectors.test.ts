import { base64ToFloats, floatsToBase64, VectorStore } from '../../../src/core/search/vectors';

const v = (...values: number[]): Float32Array => Float32Array.from(values);

function filled(): VectorStore {
  const store = new VectorStore('model-a');
  store.put('a', 'h1', v(1, 0, 0));
  store.put('b', 'h2', v(0, 2, 0));
  store.put('c', 'h3', v(1, 1, 0));
  store.put('d', 'h4', v(-1, 0, 0));
  return store;
}

test('cosine top-k: normalised on the way in, best first, ties by id, filter applied', () => {
  const store = filled();
  expect(store.topK(v(3, 0, 0), 2).map((h) => h.id)).toEqual(['a', 'c']);
  expect(store.topK(v(1, 0, 0), 1)[0].score).toBeCloseTo(1, 6);
  expect(store.topK(v(0, 1, 0), 4).map((h) => [h.id, Number(h.score.toFixed(4))])).toEqual([
    ['b', 1],
    ['c', 0.7071],
    ['a', 0],
    ['d', 0],
  ]);
  expect(store.topK(v(1, 0, 0), 3, (id) => id !== 'a').map((h) => h.id)).toEqual(['c', 'b', 'd']);
  expect(store.topK(v(0, 0, 0), 3)).toEqual([]);
  expect(() => store.topK(v(1, 0), 1)).toThrow(/2 dimensions/);
  expect(() => store.put('e', 'h', v(1, 0))).toThrow(/2 dimensions/);
});

test('hashes: a changed chunk is no longer current; put replaces; delete and retainOnly keep the rest intact', () => {
  const store = filled();
  expect(store.hasCurrent('a', 'h1')).toBe(true);
  expect(store.hasCurrent('a', 'h1-changed')).toBe(false);
  expect(store.hasCurrent('zz', 'h1')).toBe(false);
  store.put('a', 'h1-changed', v(0, 0, 5));
  expect(store.hasCurrent('a', 'h1-changed')).toBe(true);
  expect(store.topK(v(0, 0, 1), 1)[0].id).toBe('a');
  expect(store.delete('b')).toBe(true);
  expect(store.delete('b')).toBe(false);
  expect(store.size).toBe(3);
  // The row moved into b's place still answers as itself.
  expect(store.topK(v(-1, 0, 0), 1)[0]).toEqual({ id: 'd', score: expect.closeTo(1, 6) });
  expect(store.retainOnly(new Set(['a', 'd']))).toBe(1);
  expect([...store.ids()].sort()).toEqual(['a', 'd']);
});

test('serialised as base64 float32 and restored for the same model; another model or version starts empty', () => {
  const store = filled();
  const saved = JSON.parse(JSON.stringify(store)) as unknown;
  expect(saved).toMatchObject({ version: 1, model: 'model-a', dims: 3, ids: ['a', 'b', 'c', 'd'], hashes: ['h1', 'h2', 'h3', 'h4'] });
  const restored = VectorStore.restore(saved, 'model-a');
  expect(restored.size).toBe(4);
  expect(restored.hasCurrent('c', 'h3')).toBe(true);
  expect(restored.topK(v(1, 1, 0), 4)).toEqual(store.topK(v(1, 1, 0), 4));
  restored.put('e', 'h5', v(0, 0, 1));
  expect(restored.topK(v(0, 0, 1), 1)[0].id).toBe('e');

  const otherModel = VectorStore.restore(saved, 'model-b');
  expect(otherModel.size).toBe(0);
  expect(otherModel.model).toBe('model-b');
  expect(otherModel.hasCurrent('a', 'h1')).toBe(false);
  expect(VectorStore.restore({ ...(saved as object), version: 99 }, 'model-a').size).toBe(0);
  expect(VectorStore.restore({ ...(saved as object), vectors: 'AAAA' }, 'model-a').size).toBe(0);
  expect(VectorStore.restore('garbage', 'model-a').size).toBe(0);
});

test('base64 round trip is exact for float32 values, including large blobs', () => {
  const values = Float32Array.from({ length: 100_003 }, (_, i) => Math.sin(i) * 1e3);
  const back = base64ToFloats(floatsToBase64(values));
  expect(back).toHaveLength(values.length);
  expect(back.every((x, i) => Object.is(x, values[i]))).toBe(true);
  // Against Node's own base64 (and every padding length).
  expect(floatsToBase64(v(1))).toBe('AACAPw==');
  for (const n of [1, 2, 3, 4, 5]) {
    const bytes = Uint8Array.from({ length: n * 4 }, (_, i) => (i * 37 + 11) & 0xff);
    const floats = new Float32Array(bytes.buffer);
    expect(floatsToBase64(floats)).toBe(Buffer.from(bytes).toString('base64'));
    expect(Array.from(new Uint8Array(base64ToFloats(Buffer.from(bytes).toString('base64')).buffer))).toEqual(Array.from(bytes));
  }
  expect(() => base64ToFloats('AA*A')).toThrow(/not base64/);
});
