import { pendingWrites } from '../shim/api';
import type { App } from '../shim/app';
import { missingIcons } from '../shim/icons';
import { noticeLog } from '../shim/notice';
import type * as obsidian from '../shim/obsidian';
import type { Plugin } from '../shim/plugin';
import { MarkdownView } from '../shim/workspace';
import { setDataview } from '../shim/dataview';

export type Theme = 'light' | 'dark';

export function setTheme(app: App | null, theme: Theme): void {
  document.body.toggleClass('theme-dark', theme === 'dark');
  document.body.toggleClass('theme-light', theme !== 'dark');
  app?.workspace.trigger('css-change');
}

/**
 * `window.workbench`: the handle people (in devtools) and the e2e harness (through page.evaluate)
 * use to drive the page. Everything here is what a user could do with the mouse, made scriptable.
 */
export function makeWorkbenchApi(app: App, shim: typeof obsidian, errors: string[]) {
  return {
    /** True once the plugin's onload() has finished (or failed: see bootError). */
    ready: false,
    bootError: null as string | null,
    /** Uncaught errors and unhandled rejections in the page, in order. */
    errors,
    /** Every Notice message shown so far. */
    notices: noticeLog,
    /** Every module id the plugin passed to `require` while loading and since (the phone run: only 'obsidian'). */
    requiredModules: [] as string[],
    /** setIcon ids the workbench drew as a placeholder dot. */
    missingIcons: () => [...missingIcons].sort(),
    app,
    obsidian: shim,
    plugin: null as Plugin | null,
    /**
     * How long loading the plugin took: main.js fetched, parsed and evaluated (loadMs, of which
     * fetchMs the download, when Resource Timing has it); then new Plugin + onload().
     */
    pluginLoad: null as null | { fetchMs: number | null; loadMs: number; onloadMs: number },
    setTheme: (theme: Theme) => setTheme(app, theme),
    /** Dataview enabled (its stand-in, the default) or not. */
    setDataview: (enabled: boolean) => setDataview(app, enabled),
    listCommands: () =>
      app.commands.listCommands().map((c) => ({ id: c.id, name: c.name, hotkeys: c.hotkeys ?? [], available: app.commands.isAvailable(c) })),
    /** Runs a command as the palette would; false when it does not exist or is not available now. */
    runCommand: (id: string) => app.commands.executeCommandById(id),
    openFile: async (path: string) => {
      const file = app.vault.getFileByPath(path);
      if (!file) throw new Error(`No such note: ${path}`);
      await app.workspace.getLeaf(false).openFile(file);
    },
    /** Opens a Web viewer tab on `url` (Obsidian 1.8+'s core Web viewer, faked: a frame), titled `title`. */
    openWebViewer: async (url: string, title: string) => {
      await app.workspace.getLeaf('tab').setViewState({ type: 'webviewer', state: { url, title }, active: false });
    },
    /** Selects `text` (its nth occurrence) in the note pane and makes the pane the active leaf. */
    selectText: (text: string, occurrence = 0) => {
      const view = app.workspace.getLeaf(false).view;
      if (!(view instanceof MarkdownView)) throw new Error('No note is open');
      view.setMode('source');
      let at = -1;
      for (let i = 0; i <= occurrence; i++) {
        at = view.textarea.value.indexOf(text, at + 1);
        if (at < 0) break;
      }
      if (at < 0) throw new Error(`Text not found in the open note: ${text}`);
      view.textarea.focus();
      view.textarea.setSelectionRange(at, at + text.length);
      app.workspace.setActiveLeaf(view.leaf, { focus: false });
    },
    openSettings: (tabId?: string) => {
      if (tabId) app.setting.openTabById(tabId);
      else app.setting.open();
    },
    closeSettings: () => app.setting.close(),
    /** The note pane: 'source' (plain-text editor, the default) or 'preview' (rendered reading view). */
    setNoteMode: (mode: 'source' | 'preview') => {
      const view = app.workspace.getLeaf(false).view;
      if (view instanceof MarkdownView) view.setMode(mode);
    },
    /**
     * Waits for every write the page started (notes, data.json, secrets) to reach the disk, including
     * saves a view has queued but not begun writing (a view with a flush(), such as the chat's).
     */
    flush: async () => {
      for (const leaf of app.workspace.getLeavesOfType('markdown')) if (leaf.view instanceof MarkdownView) await leaf.view.flush();
      const views: { flush(): Promise<unknown> }[] = [];
      app.workspace.iterateAllLeaves((leaf) => {
        const view = leaf.view as unknown as { flush?: unknown };
        if (!(leaf.view instanceof MarkdownView) && typeof view.flush === 'function') views.push(view as { flush(): Promise<unknown> });
      });
      for (const view of views) await view.flush();
      await pendingWrites();
    },
    /** Event handlers registered on the app's event sources (compare before load and after unload). */
    handlerCounts: () => ({
      vault: app.vault._handlerCount(),
      workspace: app.workspace._handlerCount(),
      metadataCache: app.metadataCache._handlerCount(),
      secretStorage: app.secretStorage._handlerCount(),
    }),
    /** handlerCounts() just before the plugin was loaded. */
    handlersBeforeLoad: null as null | { vault: number; workspace: number; metadataCache: number; secretStorage: number },
    /** Re-reads a note changed on disk behind the app's back and fires vault 'modify'. */
    reloadFromDisk: (path: string) => app.vault.reloadFromDisk(path),
  };
}

export type WorkbenchApi = ReturnType<typeof makeWorkbenchApi>;
