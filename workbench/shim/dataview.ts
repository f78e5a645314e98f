import { dataviewStandIn } from '../../testing/dataview/standIn';
import type { App } from './app';

/**
 * The Dataview plugin as the workbench has it (issue 31): `app.plugins.plugins.dataview.api` is the
 * stand-in (testing/dataview/standIn.ts) over the workbench's vault, so a note with Dataview blocks
 * is answered from their results. `setDataview(app, false)` takes it away (the "not enabled" case).
 */
export function setDataview(app: App, enabled: boolean): void {
  if (!enabled) {
    delete app.plugins.plugins.dataview;
    return;
  }
  const api = dataviewStandIn({
    list: () => Promise.resolve(app.vault.getMarkdownFiles().map((f) => f.path).sort()),
    read: async (path) => {
      const file = app.vault.getFileByPath(path);
      return file ? app.vault.cachedRead(file) : null;
    },
  });
  app.plugins.plugins.dataview = { api: { ...api, index: { initialized: true } } };
}
