/**
 * Search a vault folder as the plugin does (same chunker, index and ranking).
 * Usage: npm run --silent search -- "<query>" --vault DIR [--k N] [--per-note N] [--format json|table]
 *        [--exclude "Folder A,Folder B"] [--index FILE] [--stats]
 * --format json prints a JSON array of { "path", "heading", "score", "snippet" }.
 * --index FILE keeps the index in FILE: the next run re-reads only notes whose size or time changed.
 * --stats prints the build's figures (notes, chunks, time, index size) on stderr.
 * --embed-url URL --embed-model MODEL [--embed-key-env VAR] adds semantic search (embeddings from an
 * OpenAI-compatible endpoint, fused with the words' ranking); --vectors FILE keeps the embeddings.
 */
import { promises as fs } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { VaultIndex } from '../src/core/search/vaultIndex';
import type { SearchHit } from '../src/core/search/types';
import { formatSpend } from '../src/core/search/embedder';
import { FsVault } from '../src/node/fsVault';
import { attachSemantic, SEMANTIC_OPTIONS, SEMANTIC_USAGE, semanticOptions } from '../src/node/semanticOptions';
import { parseArgs } from './args';

const USAGE = `usage: search "<query>" --vault DIR [--k N] [--per-note N] [--format json|table] [--exclude "A,B"] [--index FILE] [--stats] ${SEMANTIC_USAGE} [--vectors FILE]`;

async function main(argv: string[]): Promise<void> {
  let args;
  let semantic;
  try {
    args = parseArgs(argv, ['vault', 'k', 'per-note', 'format', 'exclude', 'index', 'vectors', ...SEMANTIC_OPTIONS], ['stats']);
    semantic = semanticOptions(args.options);
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (args.options.vectors !== undefined && !semantic) throw new UsageError(`--vectors needs --embed-url and --embed-model\n${USAGE}`);
  const query = args.positional.join(' ').trim();
  if (query === '') throw new UsageError(`no query given\n${USAGE}`);
  const dir = args.options.vault;
  if (!dir) throw new UsageError(`--vault DIR is required\n${USAGE}`);
  const stat = await fs.stat(dir).catch(() => null);
  if (!stat) throw new UsageError(`vault folder not found: ${dir}`);
  if (!stat.isDirectory()) throw new UsageError(`not a folder: ${dir}`);
  const format = args.options.format ?? 'table';
  if (format !== 'json' && format !== 'table') throw new UsageError(`--format must be json or table\n${USAGE}`);
  const k = positiveInt(args.options.k ?? '10', '--k');
  const perNote = args.options['per-note'] === undefined ? undefined : positiveInt(args.options['per-note'], '--per-note');
  const excludedFolders = (args.options.exclude ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '');

  const index = new VaultIndex(new FsVault(dir), { excludedFolders });
  const indexFile = args.options.index;
  const started = performance.now();
  const restored = indexFile ? index.restore(await fs.readFile(indexFile, 'utf8').catch(() => '')) : false;
  const report = await index.build({ pause: () => Promise.resolve() });
  const buildMs = performance.now() - started;
  let serialized: string | null = null;
  const changed = !restored || report.indexed > 0 || report.removed > 0 || report.skipped > 0;
  if (indexFile && changed) {
    serialized = await index.serialize();
    await fs.writeFile(indexFile, serialized);
  }
  if (args.flags.has('stats')) {
    const indexBytes = serialized !== null ? Buffer.byteLength(serialized) : indexFile ? (await fs.stat(indexFile)).size : Buffer.byteLength(await index.serialize());
    const stats = { ...report, restored, buildMs: Math.round(buildMs), indexBytes };
    process.stderr.write(`${JSON.stringify(stats)}\n`);
  }

  const vectorsFile = args.options.vectors;
  const saved: unknown = vectorsFile ? await fs.readFile(vectorsFile, 'utf8').then((t) => JSON.parse(t) as unknown).catch(() => null) : null;
  const vectors = semantic ? await attachSemantic(index, semantic, saved) : null;
  const hits = await index.search(query, { k, perNote });
  if (vectors) {
    if (vectorsFile) await fs.writeFile(vectorsFile, JSON.stringify(vectors));
    const { error, spend, embedded, chunks } = vectors.status;
    if (error) process.stderr.write(`search: semantic search failed, ranked by words only: ${error}\n`);
    if (args.flags.has('stats')) process.stderr.write(`${JSON.stringify({ embedded, chunks, spend: formatSpend(spend) })}\n`);
  }
  if (format === 'json') {
    const rows = hits.map((h) => ({ path: h.path, heading: h.heading, score: h.score, snippet: h.snippet }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    process.stdout.write(formatTable(hits));
  }
}

function formatTable(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return 'No matching notes.\n';
  return hits
    .map((h, i) => {
      const where = h.headings.length > 0 ? `${h.path} › ${h.headings.join(' › ')}` : h.path;
      return `${String(i + 1).padStart(2)}. ${h.score.toFixed(2).padStart(7)}  ${where}  (lines ${h.startLine}-${h.endLine})\n              ${h.snippet}\n`;
    })
    .join('');
}

function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number of at least 1 (got "${value}")`);
  return n;
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`search: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
