import type { ChatProvider } from '../ports/chatModel';
import type { ProviderSettings } from '../settings/settings';

/** Builds the provider for a configured endpoint and model. May throw (no API key, unknown kind): the caller reports it. */
export type ProviderFactory = (provider: ProviderSettings, model: string) => ChatProvider;
