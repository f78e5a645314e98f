import { ItemView } from './workspace';

/**
 * Obsidian 1.8+'s core Web viewer, as the workbench fakes it (issue 31): a tab of view type
 * `webviewer` whose state carries the page's `url` (and its `title`), showing the page in a frame.
 * The plugin reads only what Obsidian's has: `leaf.getViewState().state.url` and `leaf.getDisplayText()`.
 */
export class WebViewerView extends ItemView {
  private url = '';
  private title = '';
  override icon = 'globe';
  override navigation = true;

  getViewType(): string {
    return 'webviewer';
  }

  getDisplayText(): string {
    return this.title || this.url || 'Web viewer';
  }

  override getState(): Record<string, unknown> {
    return { url: this.url, title: this.title };
  }

  override setState(state: unknown): Promise<void> {
    const s = (state ?? {}) as { url?: unknown; title?: unknown };
    this.url = typeof s.url === 'string' ? s.url : '';
    this.title = typeof s.title === 'string' ? s.title : '';
    this.contentEl.empty();
    this.contentEl.addClass('workbench-webviewer');
    if (this.url) this.contentEl.createEl('iframe', { cls: 'workbench-webviewer-frame', attr: { src: this.url, title: this.getDisplayText() } });
    return Promise.resolve();
  }
}
