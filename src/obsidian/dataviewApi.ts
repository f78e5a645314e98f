import type { App } from 'obsidian';
import type { DataviewAnswer, DataviewPort } from '../core/ports/dataview';

/**
 * The Dataview plugin's API as the engine's DataviewPort (issue 31): `api.queryMarkdown(query,
 * originFile)` evaluates a `dataview` query in Dataview itself and answers with its result as
 * markdown. Looked up on every turn, so enabling or disabling Dataview takes effect at once.
 */

/** The part of Dataview's API Strata calls (Dataview's `Result<string, string>`). */
interface DataviewApi {
  queryMarkdown(query: string, originFile?: string): Promise<{ successful: true; value: string } | { successful: false; error: string }>;
  index?: { initialized?: boolean };
}

interface PluginRegistry {
  plugins?: Record<string, { api?: unknown } | undefined>;
}

/** Dataview's API when the plugin is enabled and loaded, else null. */
function dataviewApi(app: App): DataviewApi | null {
  const registry = (app as unknown as { plugins?: PluginRegistry }).plugins;
  const api = registry?.plugins?.dataview?.api as Partial<DataviewApi> | undefined;
  return api && typeof api.queryMarkdown === 'function' ? (api as DataviewApi) : null;
}

/** How long a query waits for Dataview's index after startup (a query before it would answer with nothing). */
const INDEX_WAIT_MS = 5_000;

/** The port over a Dataview API object (Obsidian's, or a stand-in's in tests). */
export function portOfDataviewApi(api: () => DataviewApi | null, ready: () => Promise<void> = () => Promise.resolve()): DataviewPort {
  return {
    async queryMarkdown(query, origin): Promise<DataviewAnswer> {
      const dv = api();
      if (!dv) return { ok: false, error: 'the Dataview plugin is no longer enabled' };
      await ready();
      try {
        const result = await dv.queryMarkdown(query, origin);
        return result.successful ? { ok: true, markdown: result.value } : { ok: false, error: String(result.error) };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

/** The vault's Dataview port while Dataview is enabled, undefined otherwise (queries are then sent as text). */
export function obsidianDataview(app: App): DataviewPort | undefined {
  if (!dataviewApi(app)) return undefined;
  return portOfDataviewApi(
    () => dataviewApi(app),
    () => indexReady(app),
  );
}

/** Resolves once Dataview's index is built (its `dataview:index-ready` event), or after INDEX_WAIT_MS. */
function indexReady(app: App): Promise<void> {
  if (dataviewApi(app)?.index?.initialized !== false) return Promise.resolve();
  return new Promise((resolve) => {
    const ref = app.metadataCache.on('dataview:index-ready' as 'resolved', () => done());
    const timer = window.setTimeout(() => done(), INDEX_WAIT_MS);
    function done(): void {
      window.clearTimeout(timer);
      app.metadataCache.offref(ref);
      resolve();
    }
  });
}
