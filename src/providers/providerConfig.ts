import { generationOptionsFor } from '../core/generation';
import type { ProviderConfig } from '../core/ports/chatModel';
import type { ProviderSettings } from '../core/settings/settings';

/** The provider config for a configured endpoint and model: empty fields left out, generation options resolved for the model. */
export function providerConfigOf(provider: ProviderSettings, model: string): ProviderConfig {
  return {
    id: provider.id,
    kind: provider.kind,
    // A display name of its own (settings give the id when there is none): what errors call it.
    ...(provider.name && provider.name !== provider.id ? { name: provider.name } : {}),
    model,
    ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
    ...(provider.secretId ? { secretId: provider.secretId } : {}),
    ...(provider.executable ? { executable: provider.executable } : {}),
    ...(provider.cwd ? { cwd: provider.cwd } : {}),
    ...(provider.kind === 'claude-code' || provider.kind === 'codex' ? {} : generationOptionsFor(provider, model)),
  };
}
