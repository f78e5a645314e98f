import { ChunkVectors } from '../core/search/semantic';
import type { EvalTarget } from '../core/search/evalTargets';
import { VaultIndex } from '../core/search/vaultIndex';
import { createEmbedder } from '../providers/embeddings';

/**
 * Semantic search from the command line (`npm run search`, `npm run search-eval`): an
 * OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama's /v1, LM Studio, the local test
 * server), its model, and the environment variable that holds its key. The key is read from the
 * environment only, never from an argument (shell history, process lists).
 */
export const SEMANTIC_OPTIONS = ['embed-url', 'embed-model', 'embed-key-env', 'embed-batch'] as const;
export const SEMANTIC_USAGE = '[--embed-url URL --embed-model MODEL [--embed-key-env VAR] [--embed-batch N]]';

export interface SemanticCliOptions {
  readonly url: string;
  readonly model: string;
  readonly keyEnv?: string;
  readonly batchSize: number;
}

/** The semantic options given, null when none, or an error naming what is missing. */
export function semanticOptions(options: Readonly<Record<string, string>>): SemanticCliOptions | null {
  const url = options['embed-url'];
  const model = options['embed-model'];
  if (url === undefined && model === undefined && options['embed-key-env'] === undefined && options['embed-batch'] === undefined) return null;
  if (!url || !model) throw new Error('semantic search needs both --embed-url URL and --embed-model MODEL');
  const batchSize = Number(options['embed-batch'] ?? '64');
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`--embed-batch must be a whole number of at least 1 (got "${options['embed-batch']}")`);
  const keyEnv = options['embed-key-env'];
  if (keyEnv !== undefined && !process.env[keyEnv]) throw new Error(`--embed-key-env ${keyEnv}: that environment variable is empty`);
  return { url, model, keyEnv, batchSize };
}

/** Vectors for `index` (restored from `saved` when given and of the same model), synced and fused into its searches. */
export async function attachSemantic(index: VaultIndex, options: SemanticCliOptions, saved: unknown = null): Promise<ChunkVectors> {
  const embedder = createEmbedder(
    { id: 'embeddings', kind: 'openai-compatible', model: options.model, baseUrl: options.url, secretId: options.keyEnv },
    { getSecret: (name) => process.env[name] ?? null, fetch, batchSize: options.batchSize },
  );
  const vectors = saved === null ? ChunkVectors.create(embedder) : ChunkVectors.restore(saved, embedder);
  await vectors.sync(index, { batchSize: options.batchSize });
  index.setSemantic(vectors);
  return vectors;
}

/** The evaluation's `strata-semantic` target: the vault index with these embeddings fused in. */
export function semanticTarget(options: SemanticCliOptions): EvalTarget {
  return {
    name: 'strata-semantic',
    description: `the vault index with semantic search (${options.model})`,
    create: async (vault) => {
      const index = await VaultIndex.create(vault);
      await attachSemantic(index, options);
      return index;
    },
  };
}
