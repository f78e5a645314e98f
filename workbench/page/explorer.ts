import type { App } from '../shim/app';
import { TFile, TFolder, type TAbstractFile } from '../shim/files';
import { setIcon } from '../shim/icons';

/** The left sidebar's file list: folders first, then notes; a click opens the note in the pane. */
export function mountExplorer(app: App, parent: HTMLElement): void {
  const el = parent.createDiv('nav-files-container');
  const render = (): void => {
    el.empty();
    renderFolder(app, app.vault.getRoot(), el);
    const active = app.workspace.getActiveFile();
    for (const row of Array.from(el.querySelectorAll<HTMLElement>('.nav-file-title'))) {
      row.toggleClass('is-active', row.getAttribute('data-path') === active?.path);
    }
  };
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
      title.addEventListener('click', () => void app.workspace.getLeaf(false).openFile(child));
    }
  }
}
