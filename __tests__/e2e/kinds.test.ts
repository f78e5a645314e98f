/**
 * Issue 31 in the browser: canvases and Dataview results as context, from the chat view in the
 * workbench (the real plugin bundle over a copy of examples/vault; Dataview is the workbench's
 * stand-in, testing/dataview/standIn.ts, through Strata's real port). A canvas is attached with `@`
 * and by a drop, its chip attaches the notes it links from the keyboard, and it is sent as its text;
 * a note with Dataview blocks says so on its chip and sends each block's result after it; without
 * Dataview the chip says results are unavailable and the query text is sent. The library panel names
 * both kinds, and the chat reopened after a reload sends the same library. Screenshots at 300 px and
 * wide, light and dark.
 */
import type { Page } from 'playwright-core';
import type { ProviderServer } from '../../testing/providerServer';
import { startWorkbench, type Workbench, type WorkbenchApi } from './harness';

const BOARD = 'Projects/Greenhouse/Board.canvas';
const DASH = 'Dashboards/Greenhouse dashboard.md';
const TEXTAREA = '.strata-composer textarea';
const chipOf = (key: string) => `.strata-chip[data-chip="${key}"]`;

let wb: Workbench;
let page: Page;
let server: ProviderServer;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md', viewport: { width: 1200, height: 800 }, settings: { generateTitles: false, attachActiveNote: false } });
  page = wb.page;
  server = wb.providerServer;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const chatRequests = () => server.requests.filter((r) => r.path.includes('chat/completions'));
function sentText(index = -1): string {
  const body = chatRequests().at(index)?.body as { messages?: Array<{ content: unknown }> } | undefined;
  return (body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}
const answered = (n: number) => page.waitForFunction((count) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === count, n);

async function shoot(name: string): Promise<void> {
  await wb.narrowSidebar(true);
  await wb.screenshotThemes(`${name}-300`);
  await wb.narrowSidebar(false);
  await wb.screenshotThemes(`${name}-wide`);
}

/** The same, with every chip shown (the row folds chips behind "+ N more"; its button unfolds them). */
async function shootChips(name: string): Promise<void> {
  for (const [narrow, width] of [[true, '300'], [false, 'wide']] as const) {
    await wb.narrowSidebar(narrow);
    const more = page.locator('.strata-chips-more');
    const folded = (await more.isVisible()) && ((await more.textContent()) ?? '').startsWith('+');
    if (folded) {
      await more.focus();
      await page.keyboard.press('Enter');
    }
    await wb.screenshotThemes(`${name}-${width}`);
    if (folded) {
      await more.focus();
      await page.keyboard.press('Enter');
    }
  }
  await page.focus(TEXTAREA);
}

async function mention(query: string, key: string): Promise<void> {
  await page.locator(TEXTAREA).pressSequentially(`@${query}`);
  await page.waitForSelector(`.strata-suggest-item[data-chip="${key}"]`);
  while ((await page.getAttribute('.strata-suggest-item.is-selected', 'data-chip')) !== key) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForSelector(chipOf(key), { state: 'attached' });
}

test('@ offers the canvas; its chip attaches the notes it links, from the keyboard', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector(TEXTAREA);
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('What is on ');
  await page.locator(TEXTAREA).pressSequentially('@Board');
  await page.waitForSelector(`.strata-suggest-item[data-chip="canvas:${BOARD}"]`);
  expect(await page.textContent(`.strata-suggest-item[data-chip="canvas:${BOARD}"]`)).toContain('Canvas');
  await shoot('kinds-canvas-picker');
  await page.keyboard.press('Escape');
  await page.fill(TEXTAREA, 'What is on ');
  await mention('Board', `canvas:${BOARD}`);
  expect(await page.textContent(`${chipOf(`canvas:${BOARD}`)} .strata-chip-label`)).toBe('Board');
  expect(await page.inputValue(TEXTAREA)).toBe(`What is on [[${BOARD}]] `);

  const action = `${chipOf(`canvas:${BOARD}`)} .strata-chip-action`;
  expect(await page.getAttribute(action, 'aria-label')).toBe('Attach linked notes: the notes on this canvas');
  await page.focus(action);
  await page.keyboard.press('Enter');
  await page.waitForSelector(chipOf('note:Projects/Greenhouse/Ventilation.md'), { state: 'attached' });
  expect(await page.$(chipOf('note:Projects/Greenhouse/Plan.md'))).not.toBeNull();
  expect(await page.textContent('.strata-chips-note-text')).toBe('Attached the 2 notes on Board.');
  await shootChips('kinds-canvas-chips');
});

test('a note with Dataview blocks says so on its chip; Send carries the canvas text and each block after the note', async () => {
  await mention('Greenhouse dash', `note:${DASH}`);
  const hint = `${chipOf(`note:${DASH}`)} .strata-chip-hint`;
  await page.waitForSelector(hint, { state: 'attached' });
  expect(await page.textContent(hint)).toBe('+3 Dataview');
  expect(await page.getAttribute(hint, 'aria-label')).toBe('3 Dataview blocks: results sent from Dataview, each after the note; JavaScript blocks (1) are sent as code, their result unavailable.');
  await shootChips('kinds-dataview-chip');

  await page.press(TEXTAREA, 'Enter');
  await answered(1);
  const sent = sentText();
  expect(sent).toContain(`<note_context id="${BOARD}" title="Board">\nCanvas ${BOARD}: 7 nodes, 4 edges.`);
  expect(sent).toContain('- Plan [plan] → Ventilation [vents] (needs)');
  expect(sent).toContain('<note_context id="Projects/Greenhouse/Ventilation.md"');
  const note = sent.indexOf(`<note_context id="${DASH}"`);
  const block = sent.indexOf(`<note_context id="${DASH}#dataview-`);
  expect(note).toBeGreaterThan(-1);
  expect(block).toBeGreaterThan(note);
  expect(sent).toContain('| [[Projects/Greenhouse/Plan.md\\|Plan]] | active |');
  expect(sent).toContain('- [[Tasks/Priorities.md|Priorities]]');
  expect(sent).toContain('title="Greenhouse dashboard · dataviewjs (result unavailable)"');

  // The library panel lists both kinds.
  if (!(await page.$('.strata-context-panel.is-open'))) await page.click('.strata-context-summary');
  await page.waitForSelector(`.strata-library-item[data-id="${BOARD}"]`);
  const ids = await page.$$eval('.strata-library-item', (els) => els.map((e) => e.getAttribute('data-id') ?? ''));
  expect(ids.filter((id) => id.startsWith(`${DASH}#dataview-`))).toHaveLength(3);
  await page.locator('.strata-library-item').last().scrollIntoViewIfNeeded();
  await wb.screenshotThemes('kinds-library-wide');
  await page.click('.strata-context-summary');
});

test('without Dataview: the chip says results are unavailable and the query text is sent', async () => {
  await page.evaluate(() => (window as unknown as { workbench: WorkbenchApi }).workbench.setDataview(false));
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('And now? ');
  await mention('Greenhouse dash', `note:${DASH}`);
  const hint = `${chipOf(`note:${DASH}`)} .strata-chip-hint.is-unavailable`;
  await page.waitForSelector(hint, { state: 'attached' });
  expect(await page.textContent(hint)).toBe('Dataview results unavailable');
  await shootChips('kinds-dataview-unavailable');
  await page.press(TEXTAREA, 'Enter');
  await answered(2);
  const sent = sentText();
  expect(sent).toContain('title="Greenhouse dashboard · dataview: TABLE status (results unavailable)" version="2"');
  expect(sent).toContain('Results unavailable: the Dataview plugin is not enabled. Only the query text is sent.');
  await page.evaluate(() => (window as unknown as { workbench: WorkbenchApi }).workbench.setDataview(true));
});

test('a canvas dropped on the composer is attached', async () => {
  await page.evaluate((path) => {
    const target = document.querySelector('.strata-composer');
    const data = new DataTransfer();
    data.setData('text/plain', `[[${path}]]`);
    target?.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, BOARD);
  await page.waitForSelector(chipOf(`canvas:${BOARD}`), { state: 'attached' });
  await page.click(`${chipOf(`canvas:${BOARD}`)} .strata-chip-remove`);
  expect(await wb.errors()).toEqual([]);
});

test('the chat reopened after a reload sends the same library', async () => {
  await wb.flush();
  const before = chatRequests().length;
  await wb.reload();
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.locator('.strata-history-item', { hasText: 'What is on' }).locator('.strata-history-main').click();
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant').length === 2);
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('One more question');
  await page.press(TEXTAREA, 'Enter');
  await answered(3);
  expect(chatRequests().length).toBe(before + 1);
  const sent = sentText();
  expect(sent).toContain(`Canvas ${BOARD}: 7 nodes, 4 edges.`);
  // The library as it was: Dataview enabled again, the block's result (a new version) is sent once more.
  expect(sent).toContain('| [[Projects/Greenhouse/Plan.md\\|Plan]] | active |');
  expect(await wb.errors()).toEqual([]);
}, 120_000);
