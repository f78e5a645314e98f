import { findProvider, type ProviderSettings, type StrataSettings } from '../settings/settings';

/** What semantic search embeds with, or why it cannot run. */
export type EmbeddingTarget =
  | { readonly ok: true; readonly provider: ProviderSettings; readonly model: string; readonly batchSize: number }
  | { readonly ok: false; readonly problem: string };

/**
 * Reads the embedding model setting leniently: `provider-id/model`; a bare model name (or one whose
 * prefix is no provider's id, as Ollama's `library/model` names can be) is taken on the default
 * provider. Anthropic and Claude Code have no embeddings API.
 */
export function embeddingTarget(settings: StrataSettings): EmbeddingTarget {
  const wanted = settings.embeddingModel.trim();
  if (!wanted) return { ok: false, problem: 'No embedding model is set.' };
  const slash = wanted.indexOf('/');
  const named = slash > 0 ? findProvider(settings, wanted.slice(0, slash)) : undefined;
  const provider = named ?? findProvider(settings, settings.defaultProviderId);
  const model = named ? wanted.slice(slash + 1).trim() : wanted;
  if (!provider) return { ok: false, problem: `No provider for the embedding model "${wanted}".` };
  if (!model) return { ok: false, problem: `No model name in "${wanted}".` };
  // Gemini's embedContent is not wired (yet): its OpenAI-style /embeddings route is not the native API.
  if (provider.kind === 'anthropic' || provider.kind === 'claude-code' || provider.kind === 'codex' || provider.kind === 'gemini') {
    return { ok: false, problem: `${provider.id} has no embeddings API: choose an OpenAI or OpenAI-compatible provider (Ollama works).` };
  }
  return { ok: true, provider, model, batchSize: settings.embeddingBatchSize };
}
