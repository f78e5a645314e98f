/**
 * Brute-force vector search cost: cosine top-k over N stored chunk embeddings, and the size and
 * speed of the store's persisted form. Vectors are pseudo-random (a fixed-seed generator), so the
 * figures are about arithmetic and memory, not ranking quality.
 * Standalone: `npx tsx bench/vectors/section.ts [chunks]`.
 */
import { VectorStore } from '../../src/core/search/vectors';

export interface VectorFigures {
  readonly chunks: number;
  readonly dims: number;
  /** Median of the queries, milliseconds, top-10. */
  readonly queryMs: number;
  readonly buildMs: number;
  readonly savedBytes: number;
  readonly saveMs: number;
  readonly restoreMs: number;
}

/** Mulberry32: deterministic figures from run to run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function measureVectors(chunks: number, dims: number, queries = 21): VectorFigures {
  const random = generator(dims);
  const store = new VectorStore('bench-model');
  const row = new Float32Array(dims);
  let t = performance.now();
  for (let i = 0; i < chunks; i++) {
    for (let d = 0; d < dims; d++) row[d] = random();
    store.put(`note-${i}.md#1`, `hash-${i}`, row);
  }
  const buildMs = performance.now() - t;
  const times: number[] = [];
  for (let q = 0; q < queries; q++) {
    const query = Float32Array.from({ length: dims }, random);
    t = performance.now();
    store.topK(query, 10);
    times.push(performance.now() - t);
  }
  t = performance.now();
  const saved = JSON.stringify(store);
  const saveMs = performance.now() - t;
  t = performance.now();
  const restored = VectorStore.restore(JSON.parse(saved), 'bench-model');
  const restoreMs = performance.now() - t;
  if (restored.size !== chunks) throw new Error('restore lost vectors');
  return { chunks, dims, queryMs: median(times), buildMs, savedBytes: saved.length, saveMs, restoreMs };
}

export function vectorTable(figures: readonly VectorFigures[]): string {
  const lines = ['| chunks | dims | top-10 query (median) | store build | saved JSON | save | restore |', '|---:|---:|---:|---:|---:|---:|---:|'];
  for (const f of figures) {
    lines.push(
      `| ${f.chunks.toLocaleString('en-US')} | ${f.dims} | ${f.queryMs.toFixed(1)} ms | ${f.buildMs.toFixed(0)} ms | ${(f.savedBytes / 1e6).toFixed(1)} MB | ${f.saveMs.toFixed(0)} ms | ${f.restoreMs.toFixed(0)} ms |`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const chunks = Number(process.argv[2] ?? 10_000);
  const figures = [256, 1536].map((dims) => measureVectors(chunks, dims));
  process.stdout.write(`${vectorTable(figures)}\n`);
}
