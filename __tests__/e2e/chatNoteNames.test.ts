/**
 * Issue 29 item 5 in the browser: a chat note is named after its title once it is known (generated,
 * then the user's), renamed with FileManager.renameFile, short and free of addresses; the history
 * list and the Chats folder agree, and saves after a rename go to the renamed note.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const TEXTAREA = '.strata-composer textarea';
let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md' });
  page = wb.page;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector(TEXTAREA);
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

const chatNotes = () =>
  page.evaluate(() =>
    (window as unknown as WorkbenchWindow).workbench.app.vault
      .getMarkdownFiles()
      .map((f) => f.path)
      .filter((p) => p.startsWith('Strata/Chats/'))
      .sort(),
  );

async function answered(n: number): Promise<void> {
  await page.waitForFunction((k) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length >= k, n);
}

test('named after the generated title, then after the title the user gives; one note all along', async () => {
  const first = 'Please read http://127.0.0.1:38001/web/page.html and use tool localSearch query vents';
  await page.fill(TEXTAREA, first);
  await page.press(TEXTAREA, 'Enter');
  await answered(1);
  await page.waitForFunction((t) => (document.querySelector('.strata-title')?.textContent ?? t) !== t, first);
  // A title is shown before the save that renames the note after it (the generated title's save runs
  // after the turn's), and the first words' title may still be showing: read both until they agree,
  // as long as that takes on a loaded machine.
  const shownTitle = async () => (await page.textContent('.strata-title')) ?? '';
  const nameOf = (path: string) => path.replace(/^Strata\/Chats\/\d{4}-\d{2}-\d{2} /, '').replace(/\.md$/, '');
  await wb.flush();
  let title = await shownTitle();
  let notes = await chatNotes();
  for (let waited = 0; waited < 15_000 && !(notes.length === 1 && title.startsWith(nameOf(notes[0]).split(' ')[0])); waited += 100) {
    await page.waitForTimeout(100);
    await wb.flush();
    title = await shownTitle();
    notes = await chatNotes();
  }
  expect(notes).toHaveLength(1);
  const name = nameOf(notes[0]);
  expect(name).not.toMatch(/http|127\.0\.0\.1|[*`[\]]/);
  expect(name.length).toBeLessThanOrEqual(48);
  expect(title.startsWith(name.split(' ')[0])).toBe(true);

  // Renamed from the header: the note follows, the history list agrees.
  await page.click('.strata-title-edit');
  await page.waitForSelector('.strata-title-input');
  await page.fill('.strata-title-input', 'Vents and **web** pages');
  await page.press('.strata-title-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('.strata-title')?.textContent === 'Vents and **web** pages');
  await wb.flush();
  notes = await chatNotes();
  expect(notes).toEqual([expect.stringMatching(/^Strata\/Chats\/\d{4}-\d{2}-\d{2} Vents and web pages\.md$/)]);

  // The next turn saves to the renamed note; the old name is never recreated.
  await page.fill(TEXTAREA, 'And the south side?');
  await page.press(TEXTAREA, 'Enter');
  await answered(2);
  await wb.flush();
  expect(await chatNotes()).toEqual(notes);
  expect(await wb.readVaultFile(notes[0])).toContain('And the south side?');

  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  expect(await page.$$eval('.strata-history-item .strata-history-title', (els) => els.map((e) => e.textContent))).toEqual(['Vents and **web** pages']);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
});
