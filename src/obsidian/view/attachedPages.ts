import type { ContextChip } from '../../core/context/items';
import type { FetchedPage } from '../../core/ports/toolHost';
import { fetchFailure, pageOutcome, type PageState, type UrlChip } from '../../core/context/urlChip';

/**
 * Web pages attached with `@`, by address: loading, attached (with their text) or failed. Kept for
 * the view's life: a page is fetched once (a failed one is fetched again when attached again).
 */
export class AttachedPages {
  private pages = new Map<string, PageState>();
  /** Stops waiting for the pages being fetched when the view closes. */
  private readonly fetches = new AbortController();

  /** `fetchPage`: requestUrl + htmlToMarkdown; absent: no page is fetched. */
  constructor(private readonly fetchPage: ((url: string, signal: AbortSignal) => Promise<FetchedPage>) | undefined) {}

  stop(): void {
    this.fetches.abort();
  }

  stateOf(url: string): PageState | undefined {
    return this.pages.get(url);
  }

  /** Fetch a URL chip's page (once: a page attached or loading is not fetched again); `settled` hears how it ended (not after stop). */
  fetch(chip: UrlChip, settled: (state: PageState) => void): void {
    const fetchPage = this.fetchPage;
    // A chip that carries its text (a message put back after a failed send) is attached as it is.
    if (chip.content !== undefined || !fetchPage) return;
    const known = this.pages.get(chip.url);
    if (known && known.state !== 'error') return;
    this.pages.set(chip.url, { state: 'loading' });
    const signal = this.fetches.signal;
    void fetchPage(chip.url, signal)
      .then(
        (page) => pageOutcome(chip.url, page),
        (error: unknown) => fetchFailure(error),
      )
      .then((state) => {
        if (signal.aborted) return;
        this.pages.set(chip.url, state);
        settled(state);
      });
  }

  /** A chip as the next message carries it: a page with its text; a page loading or failed is not attached (null). */
  sendable(chip: ContextChip): ContextChip | null {
    if (chip.kind !== 'url' || chip.content !== undefined) return chip;
    const page = this.pages.get(chip.url);
    if (!page) return chip;
    // A Web viewer tab's chip keeps the tab's title.
    if (page.state !== 'ready') return null;
    return chip.title !== undefined ? { ...page.chip, title: chip.title } : page.chip;
  }

  /** Whether one of these chips' pages is still loading. */
  loading(chips: readonly ContextChip[]): boolean {
    return chips.some((c) => c.kind === 'url' && this.pages.get(c.url)?.state === 'loading');
  }
}
