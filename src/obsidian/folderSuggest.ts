import { AbstractInputSuggest, type App, type TFolder } from 'obsidian';

/**
 * Type-ahead of the vault's folders under a text input (a project's folder in the settings): the
 * folders whose path contains what is typed, shortest first. Picking one writes its path into the
 * input and hands it to `picked` (typing is saved by the input's own change handler).
 */
export class FolderSuggest extends AbstractInputSuggest<TFolder> {
  constructor(
    app: App,
    inputEl: HTMLInputElement,
    private readonly picked: (path: string) => void,
  ) {
    super(app, inputEl);
  }

  protected getSuggestions(query: string): TFolder[] {
    const wanted = query.trim().toLowerCase();
    return this.app.vault
      .getAllFolders(false)
      .filter((folder) => folder.path.toLowerCase().includes(wanted))
      .sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  renderSuggestion(folder: TFolder, el: HTMLElement): void {
    el.setText(folder.path);
  }

  selectSuggestion(folder: TFolder, evt: MouseEvent | KeyboardEvent): void {
    this.setValue(folder.path);
    this.picked(folder.path);
    super.selectSuggestion(folder, evt);
    this.close();
  }
}
