import { Platform, requestUrl, type App } from 'obsidian';
import type { ProviderFactory } from '../core/chat/turnPipeline';
import type { StrataSettings } from '../core/settings';
import { createProvider, requestUrlFetch } from '../providers';
import type { SpawnFn } from '../providers/claudeCode/index';

/**
 * Providers for the plugin: keys from Obsidian's SecretStorage (looked up at each call, never
 * copied), streaming through fetch, and requestUrl as the fallback where CORS blocks fetch.
 */
export function obsidianProviderFactory(app: App, settings: () => StrataSettings): ProviderFactory {
  const fallbackFetch = requestUrlFetch((params) => requestUrl(params));
  return (provider, model) => {
    const spawn = provider.kind === 'claude-code' ? desktopSpawn() : undefined;
    const windows: Record<string, { contextWindow: number }> = {};
    for (const [name, contextWindow] of Object.entries(settings().contextWindows)) windows[name] = { contextWindow };
    return createProvider(
      {
        id: provider.id,
        kind: provider.kind,
        model,
        ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
        ...(provider.secretId ? { secretId: provider.secretId } : {}),
        ...(provider.executable ? { executable: provider.executable } : {}),
        ...(provider.cwd ? { cwd: provider.cwd } : {}),
      },
      {
        getSecret: (id) => app.secretStorage.getSecret(id),
        fetch: (input, init) => window.fetch(input, init),
        fallbackFetch,
        windowOverrides: windows,
        ...(spawn ? { claudeCode: { spawn } } : {}),
      },
    );
  };
}

/** Claude Code runs as a child process: only the desktop app has one. Loaded lazily, never on mobile. */
function desktopSpawn(): SpawnFn | undefined {
  if (Platform.isDesktop) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- desktop only (guarded): Node's child_process runs the claude CLI
      const childProcess = require('child_process') as typeof import('child_process');
      return childProcess.spawn;
    } catch {
      return undefined; // No Node here after all: the provider then reports Claude Code as unsupported.
    }
  }
  return undefined;
}
