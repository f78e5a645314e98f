import { normalizePath, type Plugin } from 'obsidian';
import type { CachedSummary, SummaryStore } from '../core/planning/summaryCache';

const FILE = 'artifact-summaries.json';

/**
 * Artifact summaries in the plugin's folder (beside the search index): plugin data, not a vault
 * note, so the adapter is the right API. An unreadable file is an empty cache; nothing is lost but
 * the summaries, which are written again when needed.
 */
export function pluginSummaryStore(plugin: Plugin): SummaryStore {
  const path = normalizePath(`${plugin.manifest.dir ?? `${plugin.app.vault.configDir}/plugins/${plugin.manifest.id}`}/${FILE}`);
  const adapter = plugin.app.vault.adapter;
  return {
    async load() {
      try {
        if (!(await adapter.exists(path))) return null;
        const parsed = JSON.parse(await adapter.read(path)) as unknown;
        return parsed && typeof parsed === 'object' ? (parsed as Record<string, CachedSummary>) : null;
      } catch {
        return null;
      }
    },
    async save(entries) {
      await adapter.write(path, JSON.stringify(entries));
    },
  };
}
