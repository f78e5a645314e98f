import type { Component } from 'obsidian';

/** Turns added per page: about 30 messages (a question and its reply each). */
export const PAGE_TURNS = 15;
/**
 * Milliseconds a render of the list may take in one frame: building messages (markdown through
 * Obsidian's renderer) stops past its share, and the rest of a page is built in the next frames,
 * so a long chat never holds the main thread.
 */
export const FRAME_MS = 40;
/** The first share of a frame given to building; then adjusted to what laying the messages out costs. */
export const FIRST_BUILD_BUDGET_MS = 20;
/** Building never takes more of a frame than this: laying out what was built needs the rest. */
const MAX_BUILD_MS = 30;

/**
 * The next frame's building time, from this one's: a frame that took `frameMs` in all (building,
 * then laying out what was built) scales it towards FRAME_MS. Heavy messages (tables, code) cost
 * more to lay out than to build, so fewer are built per frame.
 */
export function nextBuildBudget(budgetMs: number, frameMs: number): number {
  return Math.min(MAX_BUILD_MS, Math.max(2, (budgetMs * FRAME_MS) / Math.max(frameMs, 1)));
}

/**
 * Which of a long chat's turns the list shows. A chat opened or switched to shows its last page;
 * earlier pages come above as the user scrolls to the top (an IntersectionObserver on a sentinel,
 * which also fills a view the last page leaves short) or presses "Show earlier messages"; new
 * turns add below. A page not built in one frame is finished in the next ones (`rendered`).
 */
export class MessageWindow {
  /** The top of the list while earlier turns are hidden: the button, and what the observer watches. */
  readonly sentinel: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly count: HTMLElement;
  private chatId: string | null = null;
  private first = 0;
  /** The window is fully built and was checked for a sentinel in view (the observer acts only then). */
  private settled = false;
  private frame: number | null = null;
  private readonly observer: IntersectionObserver | null;

  /** `redraw`: render the list again (the window grew, or the rest of a page is to be built). */
  constructor(private readonly list: HTMLElement, owner: Component, private readonly redraw: () => void) {
    this.sentinel = createDiv({ cls: 'strata-earlier' });
    this.button = this.sentinel.createEl('button', { cls: 'strata-earlier-button', text: 'Show earlier messages' });
    this.count = this.sentinel.createSpan({ cls: 'strata-earlier-count' });
    owner.registerDomEvent(this.button, 'click', () => this.showEarlier());
    // The list's own window's observer (a popped-out window has its own).
    const Observer = (list.win as Window & { IntersectionObserver?: typeof IntersectionObserver }).IntersectionObserver;
    this.observer = Observer ? new Observer((entries) => this.seen(entries), { root: list, rootMargin: '100px 0px 0px 0px' }) : null;
  }

  /** The first turn to show of chat `chatId`, which has `turns` answered turns. */
  firstTurn(chatId: string, turns: number): number {
    const lastPage = Math.max(0, turns - PAGE_TURNS);
    if (chatId !== this.chatId) {
      this.chatId = chatId;
      this.first = lastPage;
      this.settled = false;
    } else if (this.first > lastPage) {
      // Turns were taken back (edit, regenerate, the note edited): a page still shows.
      this.first = lastPage;
    }
    this.count.setText(`${this.first} earlier turn${this.first === 1 ? '' : 's'}`);
    return this.first;
  }

  /** The list was drawn: `complete` when every message of the window is in it, else the rest comes next frame. */
  rendered(complete: boolean): void {
    if (!complete) {
      this.frame ??= this.list.win.requestAnimationFrame(() => {
        this.frame = null;
        this.redraw();
      });
      return;
    }
    if (this.settled || !this.observer) return;
    this.settled = true;
    if (!this.sentinel.isConnected) return;
    // Observed afresh: the observer reports at once whether the sentinel is still in view (a short page).
    this.observer.takeRecords();
    this.observer.unobserve(this.sentinel);
    this.observer.observe(this.sentinel);
  }

  showEarlier(): void {
    if (this.first === 0) return;
    this.first = Math.max(0, this.first - PAGE_TURNS);
    this.settled = false;
    this.redraw();
  }

  destroy(): void {
    if (this.frame !== null) this.list.win.cancelAnimationFrame(this.frame);
    this.frame = null;
    this.observer?.disconnect();
  }

  private seen(entries: readonly IntersectionObserverEntry[]): void {
    const last = entries[entries.length - 1];
    // A keyboard user who reached the button presses it: focusing it scrolls it into view, which is no request.
    if (!last?.isIntersecting || !this.settled || this.button.ownerDocument.activeElement === this.button) return;
    this.showEarlier();
  }
}
