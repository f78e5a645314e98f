import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CachedSummary, SummaryStore } from '../core/planning/summaryCache';

/** Artifact summaries in a JSON file (Node tools and tests; the plugin keeps them in its folder): a missing or broken file is an empty cache. */
export function fileSummaryStore(file: string): SummaryStore {
  return {
    async load() {
      try {
        const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
        return parsed && typeof parsed === 'object' ? (parsed as Record<string, CachedSummary>) : null;
      } catch {
        return null;
      }
    },
    async save(entries) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, JSON.stringify(entries));
    },
  };
}
