/**
 * The Agent mode in the workbench: the mode picker offers it; a turn's tool calls (scripted on the
 * local provider server by `[[tool NAME {...}]]` lines in the message) run against the workbench's
 * vault through the plugin's own tool host, each shows as a line while the loop runs and stays,
 * collapsible, above the answer (name and main argument, result size, time; opening one shows the
 * arguments and the output, from the keyboard too). The answer's citation links to the searched
 * source. Screenshots at 300 px and wide, light and dark.
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
  // The search the tools use: the test-only term-overlap search over the workbench's vault copy, run in Node.
  const search = new TermOverlapSearch(wb.vaultDir);
  // A search for "slow" never answers (the stop ends the wait).
  await page.exposeFunction('__strataTestSearch', (query: string, options: SearchOptions) =>
    query === 'slow' ? new Promise(() => {}) : search.search(query, { ...options, signal: undefined }),
  );
  await page.evaluate(() => {
    const plugin = (window as unknown as WorkbenchWindow).workbench.plugin as unknown as { vaultSearch: () => unknown };
    const call = (window as unknown as { __strataTestSearch: (q: string, o: unknown) => Promise<unknown> }).__strataTestSearch;
    plugin.vaultSearch = () => ({ search: (q: string, o: { k?: number; perNote?: number } = {}) => call(q, { k: o.k, perNote: o.perNote }) });
  });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const chatRequests = () => wb.providerServer.requests.filter((r) => r.path.includes('chat/completions'));

const SCRIPT = [
  '[[tool localSearch {"query":"vent openers without electricity"}]]',
  '[[tool readNote {"path":"Projects/Greenhouse/Ventilation.md","heading":"Ventilation"}]]',
  'Which vent openers work without electricity? [1]',
].join('\n');

test('an agent turn shows each tool call as it happens, then above the answer; a line opens to its arguments and output', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
  const labels = await page.$$eval('select.strata-mode-picker option', (els) => els.map((e) => e.textContent));
  expect(labels).toContain('Agent');
  await page.selectOption('select.strata-mode-picker', 'agent');

  await page.fill('.strata-composer textarea', SCRIPT);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForSelector('.strata-message.is-assistant:not(.is-failed):not(.is-streaming) .strata-agent-steps', { timeout: 30_000 });

  const answer = page.locator('.strata-message.is-assistant').last();
  const lines = answer.locator('.strata-agent-call');
  expect(await lines.count()).toBe(2);
  const labelsShown = await answer.locator('.strata-agent-call-label').allTextContents();
  expect(labelsShown[0]).toBe('localSearch "vent openers without electricity"');
  expect(labelsShown[1]).toBe('readNote Projects/Greenhouse/Ventilation.md (heading: Ventilation)');
  const figures = await answer.locator('.strata-agent-call-figures').allTextContents();
  for (const f of figures) expect(f).toMatch(/^\d+(\.\d)?k? chars · \d+(\.\d)? m?s$/);
  expect(await answer.locator('.strata-agent-steps-title').textContent()).toBe('2 tool calls in 2 steps');
  // The answer went out after the two steps; its citation links to the searched source.
  expect(chatRequests()).toHaveLength(3);
  expect(await answer.locator('.strata-message-body').textContent()).toContain('Tools used: localSearch, readNote.');
  await answer.locator('a.strata-citation').first().waitFor();

  // Closed by default; the keyboard opens one: its arguments and its output.
  expect(await answer.locator('.strata-agent-call-output').first().isVisible()).toBe(false);
  await answer.locator('.strata-agent-call-line').nth(1).focus();
  await page.keyboard.press('Enter');
  await answer.locator('.strata-agent-call-output').nth(1).waitFor({ state: 'visible' });
  expect(await answer.locator('.strata-agent-call-args').nth(1).textContent()).toContain('"heading": "Ventilation"');
  expect(await answer.locator('.strata-agent-call-output').nth(1).textContent()).toContain('Projects/Greenhouse/Ventilation.md');

  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    await answer.scrollIntoViewIfNeeded();
    // A narrow sidebar keeps each call on one line: the label is cut, the figures stay whole.
    const box = await answer.locator('.strata-agent-call-line').first().boundingBox();
    expect(box?.height ?? 0).toBeLessThan(40);
    await wb.screenshotThemes(`agent-steps-${width}`);
  }
  await wb.narrowSidebar(false);
  expect(await wb.errors()).toEqual([]);
});

test('while the loop runs, each call shows in the message being answered (running, then done); stop keeps them', async () => {
  // The second step's search never answers: the first call is done, the second runs, until the stop.
  const script = ['[[tool listFolder {"path":"Projects"}]]', '[[tool localSearch {"query":"slow"}]]', 'What projects are there?'].join('\n');
  await page.fill('.strata-composer textarea', script);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForSelector('.strata-message.is-streaming .strata-agent-call.is-running', { timeout: 15_000 });
  const live = page.locator('.strata-message.is-streaming .strata-agent-call');
  expect(await live.locator('.strata-agent-call-label').allTextContents()).toEqual(['listFolder Projects', 'localSearch "slow"']);
  expect(await live.locator('.strata-agent-call-figures').allTextContents()).toEqual([expect.stringMatching(/chars/), 'running…']);
  await wb.screenshotThemes('agent-steps-running');
  await page.click('.strata-stop');
  await page.waitForSelector('.strata-message.is-failed.is-stopped .strata-agent-steps');
  expect(await page.locator('.strata-message.is-failed .strata-agent-steps-title').textContent()).toBe('1 tool call in 1 step · interrupted');
  expect(await wb.errors()).toEqual([]);
});
