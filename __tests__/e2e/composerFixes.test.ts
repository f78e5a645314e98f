/**
 * Issue 12's composer and view fixes in the browser: the chat's own title in the header, `@`
 * mentions kept in the words, Enter on an empty picker, chat notes left out of the picker, the
 * one-line selection label, the note under a stopped message the user moved on from, and readable
 * contrast for the usage line and the picker's details.
 */
import type { Page } from 'playwright-core';
import type { ProviderServer } from '../../testing/providerServer';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';
const TEXTAREA = '.strata-composer textarea';

let wb: Workbench;
let page: Page;
let server: ProviderServer;

beforeAll(async () => {
  // This file counts and reads requests and titles as the first message gave them: no generated titles.
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, settings: { generateTitles: false } });
  page = wb.page;
  server = wb.providerServer;
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

const answered = () => page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (e) => e.length);

async function sendAndWait(text: string): Promise<void> {
  const before = await answered();
  await page.fill(TEXTAREA, text);
  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, before);
}

/** Picker rows offered for `@query` (typed at the end of an empty composer), then the picker is closed. */
async function offered(query: string): Promise<string[]> {
  await page.fill(TEXTAREA, '');
  await page.locator(TEXTAREA).pressSequentially(`@${query}`);
  await page.waitForSelector('.strata-suggest-item, .strata-suggest-empty');
  const chips = await page.$$eval('.strata-suggest-item', (els) => els.map((e) => e.getAttribute('data-chip') ?? ''));
  await page.press(TEXTAREA, 'Escape');
  await page.fill(TEXTAREA, '');
  return chips;
}

/** WCAG contrast of an element's text against the first opaque background behind it. */
async function contrast(selector: string): Promise<number> {
  return page.$eval(selector, (el) => {
    const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = (c: number[]): number => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const fg = rgb(getComputedStyle(el).color);
    let bg = [255, 255, 255];
    for (let n: Element | null = el; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) {
        bg = c;
        break;
      }
    }
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}

test("a fresh chat's header shows its own title, not the view's name", async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-chip.is-active-note');
  expect(await page.textContent('.strata-title')).toBe('New chat');
  // Obsidian writes getDisplayText() into ItemView.titleEl whenever the leaf's header updates: that
  // element must be the leaf's header, never the chat's title.
  const titleElClass = await page.evaluate(() => {
    const { app } = (window as unknown as WorkbenchWindow).workbench;
    const view = app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { titleEl: HTMLElement };
    return view.titleEl.className;
  });
  expect(titleElClass).toBe('view-header-title');
  expect(await page.textContent('.workspace-leaf-content[data-type="strata-chat"] .view-header-title')).toBe('Strata chat');
});

test('a one-line selection is labelled with its line', async () => {
  await wb.selectText('Keep the night temperature');
  expect(await wb.runCommand('strata:add-selection')).toBe(true);
  await page.waitForSelector('.strata-chip.is-selection');
  expect(await page.textContent('.strata-chip.is-selection .strata-chip-label')).toBe('Plan (line 11)');
  expect(await page.getAttribute('.strata-chip.is-selection', 'aria-label')).toBe(`${PLAN}, line 11`);
  await page.click('.strata-chip.is-selection .strata-chip-remove');
  expect(await page.$('.strata-chip.is-selection')).toBeNull();
});

test('Enter on "No matching notes" closes the picker and sends nothing', async () => {
  const before = server.requests.length;
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('@zzzz');
  await page.waitForSelector('.strata-suggest-empty');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector('.strata-suggest', { state: 'hidden' });
  expect(await page.inputValue(TEXTAREA)).toBe('@zzzz');
  expect(await page.$$('.strata-message')).toHaveLength(0);
  expect(server.requests.length).toBe(before);
  await page.fill(TEXTAREA, '');
});

test('picked @ mentions stay in the message as links and are attached', async () => {
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('Compare @vntl');
  await page.waitForSelector('.strata-suggest-item.is-selected');
  expect(await page.textContent('.strata-suggest-item.is-selected .strata-suggest-label')).toBe('Ventilation');
  await page.press(TEXTAREA, 'Enter');
  await page.locator(TEXTAREA).pressSequentially('with @Plan');
  await page.waitForSelector('.strata-suggest-item.is-selected[data-chip="note:Projects/Greenhouse/Plan.md"]');
  await page.press(TEXTAREA, 'Enter');
  expect(await page.inputValue(TEXTAREA)).toBe('Compare [[Ventilation]] with [[Plan]] ');
  await page.waitForSelector(`.strata-chip[data-chip="note:${VENT}"]`);
  // A folder keeps its name and a tag its #tag.
  await page.locator(TEXTAREA).pressSequentially('in @greenh');
  await page.waitForSelector('.strata-suggest-item[data-chip="tag:#greenhouse"]');
  while (!(await page.$('.strata-suggest-item.is-selected[data-chip="tag:#greenhouse"]'))) await page.press(TEXTAREA, 'ArrowDown');
  await page.press(TEXTAREA, 'Enter');
  expect(await page.inputValue(TEXTAREA)).toBe('Compare [[Ventilation]] with [[Plan]] in #greenhouse ');
  await page.waitForSelector('.strata-chip[data-chip="tag:#greenhouse"]');

  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  const shown = await page.textContent('.strata-message.is-user > .strata-message-body');
  expect(shown?.trim()).toBe('Compare [[Ventilation]] with [[Plan]] in #greenhouse');
  const sent = JSON.stringify(server.requests.at(-1)?.body ?? {});
  expect(sent).toContain('Compare [[Ventilation]] with [[Plan]] in #greenhouse');
  expect(sent).toContain(VENT);
});

test('the usage line and the picker details are readable (contrast at least 4.5:1)', async () => {
  expect(await contrast('.strata-turn-meta')).toBeGreaterThanOrEqual(4.5);
  await page.fill(TEXTAREA, '');
  await page.locator(TEXTAREA).pressSequentially('@vent');
  await page.waitForSelector('.strata-suggest-item .strata-suggest-detail');
  expect(await contrast('.strata-suggest-item .strata-suggest-detail')).toBeGreaterThanOrEqual(4.5);
  await page.press(TEXTAREA, 'Escape');
  await page.fill(TEXTAREA, '');
});

test('chat notes (the chat folder) are not offered by @', async () => {
  await wb.flush();
  await wb.writeVaultFile('Strata/Chats/Oldchat greenhouse.md', '# Oldchat\n\nA chat about the #greenhouse.\n');
  const notes = await offered('oldchat');
  expect(notes.filter((c) => c.includes('Strata/Chats'))).toEqual([]);
  const folders = await offered('strata/chats');
  expect(folders.filter((c) => c.includes('Strata/Chats'))).toEqual([]);
  // The rest of the vault is still offered.
  expect(await offered('vntl')).toContain(`note:${VENT}`);
});

test('a stopped message the user moved on from does not promise a retry it has no button for', async () => {
  server.injectFault({ kind: 'hang', times: 1 });
  await page.fill(TEXTAREA, 'Will you wait?');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector('.strata-stop', { state: 'visible' });
  await page.waitForSelector('.strata-message.is-streaming');
  await page.click('.strata-stop');
  await page.waitForSelector('.strata-message.is-stopped .strata-retry');
  await sendAndWait('Something else instead');
  await page.waitForSelector('.strata-message.is-unanswered');
  expect(await page.$('.strata-retry')).toBeNull();
  const note = (await page.textContent('.strata-unanswered-note')) ?? '';
  expect(note).toBe('Not answered: you stopped the reply.');
  expect(note).not.toMatch(/retry|send it again/i);
});

test('a failed message the user moved on from says why, without advice to retry', async () => {
  server.injectFault({ kind: 'status', status: 500, times: 3 });
  await page.fill(TEXTAREA, 'This one will fail');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector('.strata-message.is-error .strata-retry');
  await sendAndWait('And another thing');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-unanswered').length === 2);
  expect(await page.$('.strata-retry')).toBeNull();
  const notes = await page.$$eval('.strata-unanswered-note', (els) => els.map((e) => e.textContent ?? ''));
  expect(notes[1]).toMatch(/^Not answered: .*500/);
  for (const note of notes) expect(note).not.toMatch(/retry|send (it )?again|resend/i);
});
