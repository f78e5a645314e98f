import { MarkdownView, type App, type Component } from 'obsidian';

/**
 * The markdown editor the user worked in last. When a chat action runs (a reply's menu, a prompt
 * from the `/` picker) the chat view is the active leaf, so Obsidian's active editor is none: the
 * last MarkdownView that was active is remembered instead, for as long as it is still open.
 */
export class LastMarkdownEditor {
  private view: MarkdownView | null = null;

  constructor(private readonly app: App) {}

  /** Follow the active leaf; the events are released with `owner` (the plugin). */
  track(owner: Component): void {
    this.view = this.app.workspace.getActiveViewOfType(MarkdownView);
    owner.registerEvent(
      this.app.workspace.on('active-leaf-change', (leaf) => {
        if (leaf?.view instanceof MarkdownView) this.view = leaf.view;
      }),
    );
  }

  /** The active markdown view, else the last one that was active (if still open with a note), else the most recent main-area leaf's. */
  get(): MarkdownView | null {
    const active = this.app.workspace.getActiveViewOfType(MarkdownView);
    if (active?.file) return active;
    const last = this.view;
    if (last?.file && this.app.workspace.getLeavesOfType('markdown').some((leaf) => leaf.view === last)) return last;
    const recent = this.app.workspace.getMostRecentLeaf()?.view;
    return recent instanceof MarkdownView && recent.file ? recent : null;
  }
}
