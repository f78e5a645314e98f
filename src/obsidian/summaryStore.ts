import { normalizePath, Notice, type Plugin } from 'obsidian';
import { readPluginJson } from '../core/pluginFiles';
import type { CachedSummary, SummaryStore } from '../core/planning/summaryCache';

const FILE = 'artifact-summaries.json';

/**
 * Artifact summaries in the plugin's folder (beside the search index): plugin data, not a vault
 * note, so the adapter is the right API. An unreadable, damaged or too big file is an empty cache
 * (with a notice); nothing is lost but the summaries, which are written again when needed.
 */
export function pluginSummaryStore(plugin: Pick<Plugin, 'app' | 'manifest'>, notify: (message: string) => void = (message) => new Notice(message)): SummaryStore {
  const path = normalizePath(`${plugin.manifest.dir ?? `${plugin.app.vault.configDir}/plugins/${plugin.manifest.id}`}/${FILE}`);
  const adapter = plugin.app.vault.adapter;
  return {
    async load() {
      const read = await readPluginJson(FILE, { size: async () => (await adapter.stat(path))?.size ?? null, read: () => adapter.read(path) });
      if (read.problem !== null) notify(`Strata: ${read.problem}; the artifact summaries start over.`);
      return summariesIn(read.value);
    },
    async save(entries) {
      await adapter.write(path, JSON.stringify(entries));
    },
  };
}

/** The summaries object of a parsed file, or null (a list, a number: not summaries). */
export function summariesIn(value: unknown): Record<string, CachedSummary> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, CachedSummary>) : null;
}
