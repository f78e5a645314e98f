import type { Exchange } from './context';
import { DEFAULT_EMBEDDING_DIMS, deterministicEmbedding } from './embeddingVector';
import { RequestError } from './errors';
import { countTokens } from './prompt';

/** Little-endian float32 bytes as base64, as OpenAI sends `encoding_format: "base64"`. */
function base64Floats(values: readonly number[]): string {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => buffer.writeFloatLE(value, i * 4));
  return buffer.toString('base64');
}

function inputs(body: Record<string, unknown>): string[] {
  const input = body.input;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.length > 0 && input.every((item): item is string => typeof item === 'string')) return input;
  throw new RequestError(400, {
    message: "Invalid 'input': expected a string or a non-empty array of strings.",
    param: 'input',
  });
}

/**
 * POST /v1/embeddings (OpenAI's shape; Ollama serves the same one under /v1). Vectors come from
 * ./embeddingVector.ts; usage counts the inputs' tokens with the project's tokenizer for the model.
 */
export function handleEmbeddings(ex: Exchange): Promise<void> {
  const model = ex.body.model;
  if (typeof model !== 'string' || model.length === 0) {
    throw new RequestError(400, { message: 'you must provide a model parameter', param: 'model' });
  }
  const texts = inputs(ex.body);
  const requested = ex.body.dimensions;
  if (requested !== undefined && (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 1 || requested > 4096)) {
    throw new RequestError(400, { message: "Invalid 'dimensions': expected an integer from 1 to 4096.", param: 'dimensions' });
  }
  const format = ex.body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    throw new RequestError(400, { message: "Invalid 'encoding_format': expected 'float' or 'base64'.", param: 'encoding_format' });
  }
  const dims = typeof requested === 'number' ? requested : DEFAULT_EMBEDDING_DIMS;
  let tokens = 0;
  const data = texts.map((text, index) => {
    tokens += countTokens(model, text);
    const vector = deterministicEmbedding(text, dims);
    return { object: 'embedding', index, embedding: format === 'base64' ? base64Floats(vector) : vector };
  });
  ex.json(200, { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } }, { 'x-request-id': ex.requestId, 'openai-model': model });
  return Promise.resolve();
}
