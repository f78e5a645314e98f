import type { ProviderFactory } from '../core/ports/providerFactory';
import { loadSettings, type StrataSettings } from '../core/settings/settings';
import type { Usage } from '../core/usage';
import { createProvider } from '../providers';
import { costOf } from '../providers/pricing';
import { startProviderServer, type ProviderServer } from '../../testing/providerServer';

/** Real LangChain clients over HTTP to an in-process local provider server (the inspector's and the bench's model calls). */
export interface LocalModels {
  readonly server: ProviderServer;
  readonly settings: StrataSettings;
  readonly providers: ProviderFactory;
  readonly costOf: (model: string, usage: Usage) => number | null;
  close(): Promise<void>;
}

/** The server and settings naming it as provider `local` (OpenAI Chat Completions), `model` the chat's model. */
export async function startLocalModels(model: string, overrides: Partial<StrataSettings> = {}): Promise<LocalModels> {
  const server = await startProviderServer();
  const { settings } = loadSettings({
    providers: [{ id: 'local', kind: 'openai', name: 'Local', baseUrl: `${server.url}/v1`, models: [model], secretId: 'local' }],
    defaultProviderId: 'local',
    defaultModel: model,
    generateTitles: false,
  });
  return {
    server,
    settings: { ...settings, ...overrides },
    providers: (p, m) => createProvider({ id: p.id, kind: p.kind, model: m, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) }, { getSecret: () => 'local-key', fetch }),
    costOf: (m, usage) => costOf(m, usage)?.usd ?? null,
    close: () => server.close(),
  };
}
