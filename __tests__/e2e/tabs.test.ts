/**
 * Several chats at once in the real bundle (issue 29): a Strata view in the sidebar and another in
 * a tab beside the note stream two replies at once, each into its own chat note; a view switched to
 * a new chat mid-stream leaves the reply running (the history marks it, reopening shows it live);
 * two views on one chat show the same messages; the tab's title follows its chat. Pin and archive in
 * the history, by keyboard. Screenshots wide, light and dark.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const CHATS = 'Strata/Chats';
let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, settings: { generateTitles: false } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const SIDE = '.mod-right-split .strata-view';
const TAB = '.mod-root .strata-view';
const view = (which: string): Locator => page.locator(which).first();
const notes = () => readdirSync(join(wb.vaultDir, CHATS)).map((f) => readFileSync(join(wb.vaultDir, CHATS, f), 'utf8'));

/** Type and send in a view, without waiting for the reply. */
async function sendIn(which: string, text: string): Promise<void> {
  const box = view(which).locator('.strata-composer textarea');
  await box.fill(text);
  await box.press('Enter');
}

async function answeredIn(which: string, n: number): Promise<void> {
  await page.waitForFunction(([sel, count]) => (document.querySelector(sel)?.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length ?? 0) >= (count), [which, n] as const);
}

async function openHistory(which: string): Promise<void> {
  await view(which).locator('.strata-history-button').click();
  await page.waitForSelector('.strata-history-item');
}

test('two chats stream at once, in the sidebar and in a tab, and each saves its own note', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  expect(await wb.runCommand('new-chat-in-new-tab')).toBe(true);
  await page.waitForSelector(TAB);
  // Both replies wait at the provider: both are in flight at the same time.
  wb.providerServer.injectFault({ kind: 'hang', ms: 2500, times: 2 });
  await sendIn(SIDE, 'Sidebar question about the plan');
  await sendIn(TAB, 'Tab question about vents');
  await view(SIDE).locator('.strata-stop').waitFor({ state: 'visible' });
  await view(TAB).locator('.strata-stop').waitFor({ state: 'visible' });
  expect(await view(SIDE).locator('.strata-stop').isVisible()).toBe(true);
  expect(await view(TAB).locator('.strata-stop').isVisible()).toBe(true);
  // The tab's title is the chat's, with a dot while it replies.
  await page.waitForSelector('.mod-root .workspace-tab-header[aria-label^="●"]');
  await wb.screenshotThemes('tabs-two-streaming');
  await wb.narrowSidebar(true);
  await wb.screenshotThemes('tabs-two-streaming-300');
  await wb.narrowSidebar(false);
  await answeredIn(SIDE, 1);
  await answeredIn(TAB, 1);
  await wb.flush();
  await page.waitForFunction(() => !document.querySelector('.mod-root .workspace-tab-header[aria-label^="●"]'));
  const saved = notes();
  expect(saved).toHaveLength(2);
  const side = saved.filter((t) => t.includes('Sidebar question about the plan'));
  const tab = saved.filter((t) => t.includes('Tab question about vents'));
  expect(side).toHaveLength(1);
  expect(tab).toHaveLength(1);
  expect(side[0]).not.toContain('Tab question');
  expect(tab[0]).not.toContain('Sidebar question');
  expect(await page.getAttribute('.mod-root .workspace-tab-header.is-active', 'aria-label')).toBe('Tab question about vents');
}, 180_000);

test('switching a view to a new chat mid-stream does not stop the reply: the history marks it, opening it shows it live, then answered', async () => {
  wb.providerServer.injectFault({ kind: 'hang', ms: 3000, times: 1 });
  await sendIn(TAB, 'Keep going while I look elsewhere');
  await view(TAB).locator('.strata-stop').waitFor({ state: 'visible' });
  await view(TAB).locator('.strata-new-chat').click();
  expect(await view(TAB).locator('.strata-message').count()).toBe(0);
  await openHistory(TAB);
  const running = page.locator('.strata-history-item', { has: page.locator('.strata-history-running') });
  expect(await running.count()).toBe(1);
  expect(await running.locator('.strata-history-title').innerText()).toContain('Tab question about vents');
  await wb.screenshot('tabs-history-replying');
  await running.locator('.strata-history-main').click();
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  // Live: the message waiting for its reply and the stop button, then the reply.
  await answeredIn(TAB, 2);
  await wb.flush();
  const note = notes().find((t) => t.includes('Keep going while I look elsewhere')) ?? '';
  expect(note).toContain('Tab question about vents');
  expect(note).not.toMatch(/stopped/i);
  expect(notes()).toHaveLength(2);
}, 180_000);

test('two views on one chat show the same messages, and a reply sent from one streams in both', async () => {
  await openHistory(SIDE);
  await page.locator('.strata-history-item', { hasText: 'Tab question about vents' }).locator('.strata-history-main').click();
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await answeredIn(SIDE, 2);
  wb.providerServer.injectFault({ kind: 'hang', ms: 1500, times: 1 });
  await sendIn(TAB, 'Third, from the tab');
  // The other view shows the same reply coming in (its stop button too).
  await view(SIDE).locator('.strata-stop').waitFor({ state: 'visible' });
  await answeredIn(SIDE, 3);
  await answeredIn(TAB, 3);
  const texts = async (which: string) => view(which).locator('.strata-message .strata-message-body').allInnerTexts();
  expect(await texts(SIDE)).toEqual(await texts(TAB));
  await wb.flush();
  expect(notes()).toHaveLength(2);
}, 180_000);

test('pin and archive from the history by keyboard: pinned first, archived out of the list but found by search and the toggle', async () => {
  await openHistory(TAB);
  const titles = () => page.locator('.strata-history-item .strata-history-title').allInnerTexts();
  expect(await titles()).toEqual([expect.stringContaining('Tab question about vents'), expect.stringContaining('Sidebar question')]);
  // The second row (the older chat) is pinned: it comes first.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Alt+p');
  await page.waitForSelector('.strata-history-item:first-child .strata-history-pin-mark');
  expect((await titles())[0]).toContain('Sidebar question');
  await wb.screenshotThemes('history-pinned', { selector: '.strata-history-modal' });
  // The selection stayed on it: archived, it leaves the list.
  await page.keyboard.press('Alt+a');
  await page.waitForFunction(() => document.querySelectorAll('.strata-history-item').length === 1);
  expect((await titles())[0]).toContain('Tab question about vents');
  // A search finds it, marked.
  await page.fill('.strata-history-search', 'Sidebar');
  await page.waitForSelector('.strata-history-item .strata-history-archived');
  await page.fill('.strata-history-search', '');
  await page.click('.strata-history-archived-toggle');
  await page.waitForFunction(() => document.querySelectorAll('.strata-history-item').length === 2);
  expect(await page.getAttribute('.strata-history-archived-toggle', 'aria-pressed')).toBe('true');
  await wb.screenshot('history-archived-shown', { selector: '.strata-history-modal' });
  await page.keyboard.press('Escape');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await wb.flush();
  const sidebarNote = notes().find((t) => t.includes('Sidebar question')) ?? '';
  expect(sidebarNote).toMatch(/^pinned: true$/m);
  expect(sidebarNote).toMatch(/^archived: true$/m);
}, 180_000);

test('a tab reopens its chat from the saved layout (its view state)', async () => {
  const state = await page.evaluate(() => {
    const w = window as unknown as { workbench: { app: { workspace: { getLeavesOfType(t: string): { side: string; getViewState(): { state: Record<string, unknown> } }[] } } } };
    return w.workbench.app.workspace.getLeavesOfType('strata-chat').map((l) => [l.side, l.getViewState().state.chatId]);
  });
  expect(state).toHaveLength(2);
  for (const [, id] of state) expect(typeof id).toBe('string');
  // Both views show the same chat now (the sidebar opened the tab's).
  expect(state[0][1]).toBe(state[1][1]);
  // Ctrl+Enter in the history opens the selected chat in a new tab.
  await openHistory(SIDE);
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.mod-root .strata-view').length === 2);
  const third = page.locator('.mod-root .workspace-leaf:not(.is-hidden) .strata-view');
  await third.locator('.strata-message.is-assistant:not(.is-streaming)').first().waitFor();
  expect(await third.locator('.strata-title').innerText()).toBe('Tab question about vents');
  expect(await wb.errors()).toEqual([]);
}, 60_000);
