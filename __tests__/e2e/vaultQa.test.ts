/**
 * Vault QA in the workbench: the mode picker offers it; a turn searches the vault (here the
 * test-only term-overlap search over the workbench's vault copy, run in Node through an exposed
 * function: the real index replaces it once merged), the localSearch block goes out as the turn's
 * tool output, and the answer's citations render as links (the local provider server echoes the
 * question, so a question holding `[1] [2] [9]` scripts an answer citing two given sources and one
 * that was not given). Clicking a citation, or a source under the answer (from the keyboard too),
 * opens the note at the heading; the unknown number is marked unverified. Without an index, the
 * turn says so and nothing is sent. Screenshots at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import type { SearchOptions } from '../../src/core/search/types';
import { TermOverlapSearch } from '../helpers/termSearch';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Notes/Ideas.md', viewport: { width: 1200, height: 800 }, settings: { generateTitles: false } });
  page = wb.page;
  const search = new TermOverlapSearch(wb.vaultDir);
  await page.exposeFunction('__strataTestSearch', (query: string, options: SearchOptions) => search.search(query, { ...options, signal: undefined }));
  // Every link the plugin opens, as Obsidian's openLinkText gets it (path#heading).
  await page.evaluate(() => {
    const { app } = (window as unknown as WorkbenchWindow).workbench;
    const opened: string[] = [];
    (window as unknown as { __opened: string[] }).__opened = opened;
    const open = app.workspace.openLinkText.bind(app.workspace);
    app.workspace.openLinkText = (link: string, source: string, ...rest: unknown[]) => {
      opened.push(link);
      return open(link, source, ...(rest as []));
    };
  });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

/** The plugin's search getter: the test search, or null (the index is not ready). */
async function useSearch(ready: boolean): Promise<void> {
  await page.evaluate((on) => {
    const plugin = (window as unknown as WorkbenchWindow).workbench.plugin as unknown as { vaultSearch: () => unknown };
    const call = (window as unknown as { __strataTestSearch: (q: string, o: unknown) => Promise<unknown> }).__strataTestSearch;
    plugin.vaultSearch = on ? () => ({ search: (q: string, o: { k?: number; perNote?: number } = {}) => call(q, { k: o.k, perNote: o.perNote }) }) : () => null;
  }, ready);
}

const opened = () => page.evaluate(() => [...(window as unknown as { __opened: string[] }).__opened]);
const activePath = () => page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.app.workspace.getActiveFile()?.path ?? null);
const chatRequests = () => wb.providerServer.requests.filter((r) => r.path.includes('chat/completions'));

const narrow = (on: boolean) => wb.narrowSidebar(on);

const shoot = (name: string) => wb.screenshotThemes(name);

test('no index yet: the Vault QA turn says so and sends nothing', async () => {
  await useSearch(false);
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
  const labels = await page.$$eval('select.strata-mode-picker option', (els) => els.map((e) => e.textContent));
  expect(labels).toContain('Vault QA');
  await page.selectOption('select.strata-mode-picker', 'vault-qa');
  await page.fill('.strata-composer textarea', 'Which vent openers work without electricity? [1] [2] [9]');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForSelector('.strata-message.is-failed .strata-error-text');
  expect(await page.textContent('.strata-message.is-failed .strata-error-text')).toContain('The vault index is not ready yet');
  expect(chatRequests()).toHaveLength(0);
});

test('citations render as links to the sources; the unknown one is unverified; clicking opens the note at the heading', async () => {
  await useSearch(true);
  await page.click('.strata-message.is-failed .strata-retry');
  // The first message, kept, is sent now: its question holds [1] [2] [9], which the server's answer echoes.
  await page.waitForSelector('.strata-message.is-assistant:not(.is-failed):not(.is-streaming) .strata-sources');
  await page.waitForSelector('.strata-message.is-assistant a.strata-citation');

  const request = chatRequests().at(-1)!.body as { messages: Array<{ role: string; content: string }> };
  const lastUser = request.messages.at(-1)!.content;
  expect(lastUser).toMatch(/<tool_output tool="localSearch" input="Which vent openers work without electricity\? \[1\] \[2\] \[9\]">\nVault search for:/);
  expect(lastUser).toContain('Citation rules:');
  expect(lastUser).not.toContain('Strata/Chats/');

  const answer = page.locator('.strata-message.is-assistant').last();
  const citations = await answer.locator('.strata-message-body .strata-citation').evaluateAll((els) =>
    els.map((e) => ({ text: e.textContent, tag: e.tagName, href: e.getAttribute('data-href'), label: e.getAttribute('aria-label'), unverified: e.classList.contains('is-unverified') })),
  );
  const sources = await answer.locator('.strata-source-link').evaluateAll((els) => els.map((e) => e.getAttribute('data-href')));
  expect(sources.length).toBeGreaterThanOrEqual(2);
  expect(sources.length).toBeLessThan(9);
  expect(citations).toEqual([
    { text: '[1]', tag: 'A', href: sources[0], label: expect.stringMatching(/^Source 1: /), unverified: false },
    { text: '[2]', tag: 'A', href: sources[1], label: expect.stringMatching(/^Source 2: /), unverified: false },
    { text: '[9]', tag: 'SPAN', href: null, label: expect.stringContaining('Unverified'), unverified: true },
  ]);
  expect(sources[0]).toMatch(/\.md#/);
  // The unverified mark has its own look.
  const colors = await answer.locator('.strata-message-body .strata-citation').evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
  expect(colors[2]).not.toBe(colors[0]);

  for (const width of ['wide', '300']) {
    await narrow(width === '300');
    await answer.scrollIntoViewIfNeeded();
    await shoot(`vault-qa-citations-${width}`);
  }
  await narrow(false);

  // A click on [1] opens its note at its heading.
  await answer.locator('a.strata-citation').first().click();
  await page.waitForFunction((p) => (window as unknown as WorkbenchWindow).workbench.app.workspace.getActiveFile()?.path === p, sources[0]!.split('#')[0]);
  expect((await opened()).at(-1)).toBe(sources[0]);

  // The sources list from the keyboard: focus the second source, Enter opens it.
  const before = (await opened()).length;
  await answer.locator('.strata-source-link').nth(1).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => (window as unknown as { __opened: string[] }).__opened.length === n, before + 1);
  expect((await opened()).at(-1)).toBe(sources[1]);
  expect(await activePath()).toBe(sources[1]!.split('#')[0]);
  expect(await wb.errors()).toEqual([]);
});
