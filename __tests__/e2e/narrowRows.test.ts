/**
 * Issue 29 item 12 at 300 px: the mode picker beside the model picker, or on a row of its own that
 * it fills (never a stray half row), and each Vault QA source's number on the line of its title.
 */
import type { Page } from 'playwright-core';
import type { SearchOptions } from '../../src/core/search/types';
import { TermOverlapSearch } from '../helpers/termSearch';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Notes/Ideas.md', viewport: { width: 1200, height: 900 }, settings: { generateTitles: false } });
  page = wb.page;
  const search = new TermOverlapSearch(wb.vaultDir);
  await page.exposeFunction('__strataTestSearch', (query: string, options: SearchOptions) => search.search(query, { ...options, signal: undefined }));
  await page.evaluate(() => {
    const plugin = (window as unknown as WorkbenchWindow).workbench.plugin as unknown as { vaultSearch: () => unknown };
    const call = (window as unknown as { __strataTestSearch: (q: string, o: unknown) => Promise<unknown> }).__strataTestSearch;
    plugin.vaultSearch = () => ({ search: (q: string, o: { k?: number; perNote?: number } = {}) => call(q, { k: o.k, perNote: o.perNote }) });
  });
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

/** The pickers' boxes: the model picker, the mode picker and their row. */
const pickers = () =>
  page.evaluate(() => {
    const box = (s: string) => {
      const r = document.querySelector(s)!.getBoundingClientRect();
      return { top: Math.round(r.top), left: Math.round(r.left), right: Math.round(r.right), width: Math.round(r.width) };
    };
    return { model: box('select.strata-model-picker'), mode: box('select.strata-mode-picker'), row: box('.strata-header-pickers') };
  });

test.each([true, false])('the mode picker shares the model picker’s row, or fills a row of its own (narrow: %s)', async (narrow) => {
  await wb.narrowSidebar(narrow);
  const { model, mode, row } = await pickers();
  if (mode.top === model.top) {
    expect(mode.left).toBeGreaterThanOrEqual(model.right);
  } else {
    expect(mode.top).toBeGreaterThan(model.top);
    expect(mode.left).toBe(row.left);
    expect(mode.right).toBe(row.right);
  }
  await wb.screenshotThemes(`header-pickers-${narrow ? '300' : 'wide'}`, { selector: '.strata-header' });
  await wb.narrowSidebar(false);
});

test('at 300 px each source’s number stays on the line of its title', async () => {
  await wb.narrowSidebar(true);
  await page.selectOption('select.strata-mode-picker', 'vault-qa');
  await page.fill('.strata-composer textarea', 'Which vent openers work without electricity and what about the greenhouse budget? [1] [2]');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForSelector('.strata-message.is-assistant:not(.is-failed):not(.is-streaming) .strata-source');
  const rows = await page.$$eval('.strata-source', (els) =>
    els.map((el) => {
      const top = (s: string) => el.querySelector(s)!.getBoundingClientRect().top;
      return { number: top('.strata-source-number'), link: top('.strata-source-link'), text: el.textContent ?? '' };
    }),
  );
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows) expect(Math.abs(row.number - row.link)).toBeLessThan(4);
  await page.locator('.strata-sources').last().scrollIntoViewIfNeeded();
  await wb.screenshotThemes('sources-300', { selector: '.strata-messages' });
  await wb.narrowSidebar(false);
});
