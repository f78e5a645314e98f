import type { App } from 'obsidian';

/** Obsidian's core Web viewer (1.8+) opens leaves of this view type; their state holds the page's `url`. */
export const WEB_VIEWER_TYPE = 'webviewer';

export interface WebViewerTab {
  readonly url: string;
  /** The tab's title as Obsidian shows it (the page's title). */
  readonly title: string;
}

/**
 * The open Web viewer tabs (issue 31), for `@`: each one's http(s) address and title, once per
 * address, in the workspace's order. A tab is attached as a URL chip titled like the tab: its page is
 * fetched and converted as any attached address is (the same guard against local addresses).
 */
export function openWebViewerTabs(app: App): WebViewerTab[] {
  const out: WebViewerTab[] = [];
  const seen = new Set<string>();
  for (const leaf of app.workspace.getLeavesOfType(WEB_VIEWER_TYPE)) {
    const state = leaf.getViewState().state as { url?: unknown; title?: unknown } | undefined;
    const url = typeof state?.url === 'string' ? state.url : '';
    if (!/^https?:\/\//i.test(url) || seen.has(url)) continue;
    seen.add(url);
    const shown = leaf.getDisplayText().trim();
    const title = shown || (typeof state?.title === 'string' ? state.title.trim() : '') || url;
    out.push({ url, title });
  }
  return out;
}
