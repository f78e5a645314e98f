import type { App } from '../shim/app';
import { TFile, TFolder, type TAbstractFile } from '../shim/files';
import { setIcon } from '../shim/icons';
import { Menu } from '../shim/menu';

/**
 * The left sidebar's file list: folders first, then notes; a click opens the note in the pane.
 * As in Obsidian's file explorer, Ctrl/Cmd+click selects several items, and a right-click opens the
 * context menu plugins fill through the workspace's 'file-menu' event (one item) or 'files-menu'
 * (a right-click on one of several selected items).
 */
export function mountExplorer(app: App, parent: HTMLElement): void {
  const el = parent.createDiv('nav-files-container');
  const selected = new Set<string>();
  const render = (): void => {
    el.empty();
    renderFolder(app, app.vault.getRoot(), el);
    const active = app.workspace.getActiveFile();
    for (const row of Array.from(el.querySelectorAll<HTMLElement>('.nav-file-title, .nav-folder-title'))) {
      const path = row.getAttribute('data-path') ?? '';
      row.toggleClass('is-active', path === active?.path);
      row.toggleClass('is-selected', selected.has(path));
    }
  };
  el.addEventListener('click', (evt) => {
    const row = (evt.target as HTMLElement).closest<HTMLElement>('.nav-file-title, .nav-folder-title');
    const path = row?.getAttribute('data-path');
    if (!row || path == null) return;
    if (evt.ctrlKey || evt.metaKey) {
      evt.stopPropagation();
      if (selected.has(path)) selected.delete(path);
      else selected.add(path);
      row.toggleClass('is-selected', selected.has(path));
      return;
    }
    selected.clear();
    for (const r of Array.from(el.querySelectorAll('.is-selected'))) r.removeClass('is-selected');
    const file = app.vault.getAbstractFileByPath(path);
    if (file instanceof TFile) void app.workspace.getLeaf(false).openFile(file);
  });
  el.addEventListener('contextmenu', (evt) => {
    const row = (evt.target as HTMLElement).closest<HTMLElement>('.nav-file-title, .nav-folder-title');
    const path = row?.getAttribute('data-path');
    const file = path == null ? null : app.vault.getAbstractFileByPath(path);
    if (!file) return;
    evt.preventDefault();
    const menu = new Menu();
    if (selected.size > 1 && selected.has(file.path)) {
      const files = [...selected].map((p) => app.vault.getAbstractFileByPath(p)).filter((f): f is TAbstractFile => f !== null);
      app.workspace.trigger('files-menu', menu, files, 'file-explorer-context-menu');
    } else {
      app.workspace.trigger('file-menu', menu, file, 'file-explorer-context-menu');
    }
    if (menu.menuItems.length > 0) menu.showAtMouseEvent(evt);
  });
  render();
  for (const evt of ['create', 'delete', 'rename']) app.vault.on(evt, render);
  app.workspace.on('file-open', render);
}

function sorted(children: TAbstractFile[]): TAbstractFile[] {
  return [...children].sort((a, b) => {
    const fa = a instanceof TFolder ? 0 : 1;
    const fb = b instanceof TFolder ? 0 : 1;
    return fa - fb || a.name.localeCompare(b.name);
  });
}

function renderFolder(app: App, folder: TFolder, el: HTMLElement): void {
  for (const child of sorted(folder.children)) {
    if (child instanceof TFolder) {
      const box = el.createDiv('nav-folder');
      const title = box.createDiv({ cls: 'nav-folder-title', attr: { 'data-path': child.path } });
      setIcon(title.createSpan('nav-folder-icon'), 'folder');
      title.createSpan({ text: child.name });
      renderFolder(app, child, box.createDiv('nav-folder-children'));
    } else if (child instanceof TFile) {
      const title = el.createDiv({ cls: 'nav-file-title', attr: { 'data-path': child.path } });
      setIcon(title.createSpan('nav-file-icon'), 'file-text');
      title.createSpan({ text: child.extension === 'md' ? child.basename : child.name });
    }
  }
}
