import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readPluginJson } from '../core/pluginFiles';
import type { CachedSummary, SummaryStore } from '../core/planning/summaryCache';

/**
 * Artifact summaries in a JSON file (Node tools and tests; the plugin keeps them in its folder): a
 * missing, damaged or too big file is an empty cache, its problem passed to `warn`.
 */
export function fileSummaryStore(file: string, warn: (message: string) => void = () => {}): SummaryStore {
  return {
    async load() {
      const read = await readPluginJson('artifact-summaries.json', {
        size: async () => (await fs.stat(file).catch(() => null))?.size ?? null,
        read: () => fs.readFile(file, 'utf8'),
      });
      if (read.problem !== null) warn(read.problem);
      const value = read.value;
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, CachedSummary>) : null;
    },
    async save(entries) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, JSON.stringify(entries));
    },
  };
}
