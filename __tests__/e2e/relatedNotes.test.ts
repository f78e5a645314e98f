/**
 * Issue 33: the related-notes view in the workbench, by keyboard only: the command opens it with
 * the focus on the first row, arrows move between rows, Tab reaches a row's "Add to chat" button
 * (the note joins the chat, the focus stays), Enter on a row opens that note and the list follows
 * it. Screenshots at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;
let page: Page;
const VIEW = '.workspace-leaf-content[data-type="strata-related-notes"]';
const focused = () => page.evaluate(() => ({ cls: document.activeElement?.className ?? '', path: document.activeElement?.closest('.strata-related-row')?.getAttribute('data-path') ?? null }));

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md', viewport: { width: 1300, height: 850 }, settings: { generateTitles: false } });
  page = wb.page;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

test('the command has no default hotkey and opens the list for the active note, the focus on its first row', async () => {
  const command = (await wb.listCommands()).find((c) => c.id.endsWith('open-related-notes'));
  expect(command?.name).toBe('Strata: Open related notes');
  expect(command?.hotkeys).toEqual([]);
  expect(await wb.runCommand('open-related-notes')).toBe(true);
  await page.waitForSelector(`${VIEW} .strata-related-row`);
  expect(await page.textContent(`${VIEW} .strata-related-heading`)).toBe('Related to Plan');
  const rows = await page.$$eval(`${VIEW} .strata-related-row`, (els) => els.map((el) => ({ path: el.getAttribute('data-path'), linked: el.querySelector('.strata-related-link') !== null })));
  expect(rows.length).toBeGreaterThan(2);
  expect(rows.map((r) => r.path)).not.toContain('Projects/Greenhouse/Plan.md');
  // The note it links to is listed, and marked as linked.
  expect(rows.find((r) => r.path === 'Projects/Greenhouse/Ventilation.md')?.linked).toBe(true);
  expect((await focused()).cls).toContain('strata-related-open');
  expect((await focused()).path).toBe(rows[0].path);
  await wb.screenshotThemes('related-notes-wide', { selector: VIEW });
});

test('arrows move between rows, Tab reaches "Add to chat", Enter adds the note to the chat and the focus stays', async () => {
  await page.keyboard.press('ArrowDown');
  const second = await focused();
  expect(second.cls).toContain('strata-related-open');
  await page.keyboard.press('Tab');
  expect((await focused()).cls).toContain('strata-related-attach');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${VIEW} .strata-related-attach.is-added`);
  expect((await focused()).cls).toContain('strata-related-attach');
  expect((await focused()).path).toBe(second.path);
  const name = (second.path ?? '').split('/').pop()?.replace(/\.md$/, '') ?? '';
  const chips = await page.$$eval('.strata-chip', (els) => els.map((el) => el.textContent ?? ''));
  expect(chips.some((c) => c.includes(name))).toBe(true);
  await page.keyboard.press('ArrowUp');
  expect((await focused()).cls).toContain('strata-related-attach');
  await wb.narrowSidebar(true);
  await wb.screenshotThemes('related-notes-300', { selector: VIEW });
  await wb.narrowSidebar(false);
});

test('Enter on a row opens that note, and the list follows the note switch', async () => {
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+Tab');
  const target = await focused();
  expect(target.cls).toContain('strata-related-open');
  await page.keyboard.press('Enter');
  const name = (target.path ?? '').split('/').pop()?.replace(/\.md$/, '') ?? '';
  await page.waitForFunction((n) => document.querySelector('.workspace-leaf-content[data-type="strata-related-notes"] .strata-related-heading')?.textContent === `Related to ${n}`, name);
  const paths = await page.$$eval(`${VIEW} .strata-related-row`, (els) => els.map((el) => el.getAttribute('data-path')));
  expect(paths).not.toContain(target.path);
  expect(paths.length).toBeGreaterThan(0);
  expect(await wb.errors()).toEqual([]);
});
