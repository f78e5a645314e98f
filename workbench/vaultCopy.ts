/** Prepares a vault folder for the workbench: a throw-away copy, and the plugin's data.json. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './build';

export const SAMPLE_VAULT = join(PROJECT_ROOT, 'examples', 'vault');

/** Copies `source` into a new temporary folder (named like the source, so the vault name reads well). */
export function copyVault(source: string = SAMPLE_VAULT): string {
  if (!existsSync(source)) throw new Error(`Vault folder does not exist: ${source}`);
  const parent = mkdtempSync(join(tmpdir(), 'strata-workbench-'));
  const dir = join(parent, 'vault');
  cpSync(source, dir, { recursive: true });
  return dir;
}

export function pluginId(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'manifest.json'), 'utf8')) as { id: string }).id;
}

export function dataJsonPath(vaultDir: string): string {
  return join(vaultDir, '.obsidian', 'plugins', pluginId(), 'data.json');
}

export function readPluginData(vaultDir: string): Record<string, unknown> | null {
  const p = dataJsonPath(vaultDir);
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>) : null;
}

/** Merges `settings` over the plugin's data.json in the vault (creating it). */
export function writePluginData(vaultDir: string, settings: Record<string, unknown>): void {
  const p = dataJsonPath(vaultDir);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, JSON.stringify({ ...(readPluginData(vaultDir) ?? {}), ...settings }, null, 2));
}

/** API keys for the local provider server (it accepts any key), stored in the page's SecretStorage. */
export const WORKBENCH_SECRETS: Record<string, string> = {
  'workbench-openai-key': 'sk-workbench-local',
  'workbench-anthropic-key': 'sk-ant-workbench-local',
};

/**
 * Settings (the shape of src/core/settings/settings.ts) that point the plugin's providers at the workbench's
 * same-origin proxy to the local provider server; `providerBase` is e.g. http://127.0.0.1:PORT/provider.
 * The default provider speaks OpenAI Chat Completions; Responses and Anthropic Messages are there too.
 */
export function providerSettings(providerBase: string): Record<string, unknown> {
  return {
    providers: [
      { id: 'local-openai', kind: 'openai', name: 'Local OpenAI', baseUrl: `${providerBase}/v1`, models: ['gpt-4o', 'gpt-4o-mini'], secretId: 'workbench-openai-key' },
      { id: 'local-responses', kind: 'openai-responses', name: 'Local OpenAI Responses', baseUrl: `${providerBase}/v1`, models: ['gpt-4o'], secretId: 'workbench-openai-key' },
      { id: 'local-anthropic', kind: 'anthropic', name: 'Local Anthropic', baseUrl: providerBase, models: ['claude-sonnet-4-5'], secretId: 'workbench-anthropic-key' },
    ],
    defaultProviderId: 'local-openai',
    defaultModel: 'gpt-4o',
  };
}
