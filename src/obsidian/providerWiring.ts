import { Platform, requestUrl, type App } from 'obsidian';
import type { ProviderFactory } from '../core/ports/providerFactory';
import type { StrataSettings } from '../core/settings/settings';
import { createProvider, requestUrlFetch, type ProviderDeps } from '../providers';
import { providerConfigOf } from '../providers/providerConfig';
import type { SpawnFn } from '../providers/cli/process';
import { desktopCodex } from './codexDesktop';
import { embedderForTarget } from '../providers/embeddings';
import { embeddingTarget } from '../core/search/semanticSettings';
import type { SemanticChoice } from './searchIndex';

/**
 * Providers for the plugin: keys from Obsidian's SecretStorage (looked up at each call, never
 * copied), streaming through fetch, and requestUrl as the fallback where CORS blocks fetch.
 */
/** `extra`: deps for a special use (the settings' connection test makes one attempt). */
export function obsidianProviderFactory(app: App, settings: () => StrataSettings, extra: Partial<ProviderDeps> = {}): ProviderFactory {
  const fallbackFetch = requestUrlFetch((params) => requestUrl(params));
  return (provider, model) => {
    const spawn = provider.kind === 'claude-code' ? desktopSpawn() : undefined;
    const codex = provider.kind === 'codex' ? desktopCodex() : undefined;
    const windows: Record<string, { contextWindow: number }> = {};
    for (const [name, contextWindow] of Object.entries(settings().contextWindows)) windows[name] = { contextWindow };
    return createProvider(
      providerConfigOf(provider, model),
      {
        getSecret: (id) => app.secretStorage.getSecret(id),
        fetch: (input, init) => window.fetch(input, init),
        fallbackFetch,
        windowOverrides: windows,
        ...(spawn ? { claudeCode: { spawn } } : {}),
        ...(codex ? { codex } : {}),
        ...extra,
      },
    );
  };
}

/** Claude Code runs as a child process: only the desktop app has one. Loaded lazily, never on mobile. */
function desktopSpawn(): SpawnFn | undefined {
  // isDesktopApp too: a tablet in the desktop layout (isDesktop) has no Node.
  if (Platform.isDesktop && Platform.isDesktopApp) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- desktop app only (guarded): Node's child_process runs the claude CLI
      const childProcess = require('child_process') as typeof import('child_process');
      return childProcess.spawn;
    } catch {
      return undefined; // No Node here after all: the provider then reports Claude Code as unsupported.
    }
  }
  return undefined;
}

/**
 * What semantic search embeds with, from the settings: off, why it cannot run, or an embedder over
 * requestUrl (embedding calls never stream, and requestUrl is not blocked by CORS).
 */
export function obsidianSemanticChoice(app: App, settings: StrataSettings): SemanticChoice {
  if (!settings.semanticSearch) return null;
  const target = embeddingTarget(settings);
  if (!target.ok) return { problem: target.problem };
  const { provider, model, batchSize } = target;
  const embedder = embedderForTarget(target, {
    getSecret: (id) => app.secretStorage.getSecret(id),
    fallbackFetch: requestUrlFetch((params) => requestUrl(params)),
  });
  return { embedder, batchSize, key: JSON.stringify([provider.id, provider.kind, provider.baseUrl ?? '', model]) };
}
