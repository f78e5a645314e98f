/**
 * What semantic search needs from an embedding provider (implemented in src/providers/embeddings.ts
 * over HTTP; tests may pass their own). One call embeds a list of texts, in order.
 */
export interface EmbeddingBatch {
  /** One vector per input text, in input order. */
  readonly vectors: Float32Array[];
  /** Prompt tokens the provider billed (its usage report; counted locally when it sent none). */
  readonly tokens: number;
  /** USD for these tokens; null when the model's price is unknown (a local model costs nothing but is not assumed to). */
  readonly costUsd: number | null;
  /** HTTP requests made, retries included. */
  readonly requests: number;
}

export interface Embedder {
  /** The embedding model's name: vectors from different models are never compared. */
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<EmbeddingBatch>;
}

/** Running total of what embedding cost (the index build and the searches' query embeddings). */
export interface EmbeddingSpend {
  readonly tokens: number;
  readonly usd: number;
  readonly requests: number;
  /** Batches whose price was unknown: their cost is not in `usd`. */
  readonly unpricedBatches: number;
}

export const NO_SPEND: EmbeddingSpend = { tokens: 0, usd: 0, requests: 0, unpricedBatches: 0 };

export function addSpend(total: EmbeddingSpend, batch: EmbeddingBatch): EmbeddingSpend {
  return {
    tokens: total.tokens + batch.tokens,
    usd: total.usd + (batch.costUsd ?? 0),
    requests: total.requests + batch.requests,
    unpricedBatches: total.unpricedBatches + (batch.costUsd === null ? 1 : 0),
  };
}

/** "1,234 embedding tokens, $0.0001" / "…, free or unknown price" (a local model has no list price). */
export function formatSpend(spend: EmbeddingSpend): string {
  const tokens = `${spend.tokens.toLocaleString('en-US')} embedding token${spend.tokens === 1 ? '' : 's'}`;
  if (spend.requests === 0) return tokens;
  if (spend.unpricedBatches > 0 && spend.usd === 0) return `${tokens}, unknown price (free on a local model)`;
  const usd = spend.usd === 0 ? '$0' : spend.usd < 0.0001 ? '<$0.0001' : `$${spend.usd.toFixed(4)}`;
  return spend.unpricedBatches > 0 ? `${tokens}, ${usd} + unknown price for ${spend.unpricedBatches} batch${spend.unpricedBatches === 1 ? '' : 'es'}` : `${tokens}, ${usd}`;
}
