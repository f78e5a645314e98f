/**
 * Issue 31 in the browser: PDFs and Web viewer tabs as context. An open Web viewer tab (the
 * workbench's faked core Web viewer) is offered first by `@` and attached as a URL chip titled like
 * the tab, its page fetched as any attached address; the sample vault's PDFs are offered by `@`,
 * read through pdf.js (pdfjs-dist in the workbench, Obsidian's own in the app), the manual's chip
 * saying its pages and the scan's that it has no text layer. Sent: the PDF in a note block page by
 * page, the scan as its notice, the tab's page under the tab's title. A PDF dragged from the file
 * explorer onto the composer becomes a chip. Screenshots at 300 px and wide, light and dark.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ProviderServer } from '../../testing/providerServer';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const TEXTAREA = '.strata-composer textarea';
const TAB_TITLE = 'Vent guide (open tab)';
const MANUAL = 'Attachments/Greenhouse manual.pdf';
const SCAN = 'Attachments/Scanned seed packet.pdf';
const PAGE_TEXT = 'Open the roof vents when the air inside passes 24 °C';

let wb: Workbench;
let page: Page;
let server: ProviderServer;
let guide: string;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 800 }, settings: { generateTitles: false, attachActiveNote: false } });
  page = wb.page;
  server = wb.providerServer;
  guide = `${wb.baseUrl}/web/greenhouse-guide.html`;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const chatRequests = () => server.requests.filter((r) => r.path.includes('chat/completions'));
function sentText(index = -1): string {
  const body = chatRequests().at(index)?.body as { messages?: Array<{ content: unknown }> } | undefined;
  return (body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}
const chip = (key: string) => `.strata-composer .strata-chip[data-chip="${key}"]`;

async function shoot(name: string): Promise<void> {
  await wb.narrowSidebar(true);
  await wb.screenshotThemes(`${name}-300`);
  await wb.narrowSidebar(false);
  await wb.screenshotThemes(`${name}-wide`);
}

test('an open Web viewer tab comes first in @ and is attached under the tab title', async () => {
  await page.evaluate(([url, title]) => (window as unknown as WorkbenchWindow).workbench.openWebViewer(url, title), [guide, TAB_TITLE] as const);
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector(TEXTAREA);
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('Compare @');
  await page.waitForSelector('.strata-suggest-item.is-selected');
  const first = await page.$eval('.strata-suggest-item', (e) => ({ key: e.getAttribute('data-chip'), text: e.textContent }));
  expect(first.key).toBe(`url:${guide}`);
  expect(first.text).toBe(`${TAB_TITLE}Web viewer · ${guide.replace(/^https?:\/\//, '')}`);
  await shoot('webviewer-mention');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector(`${chip(`url:${guide}`)}:not(.is-loading)`, { state: 'attached' });
  expect(await page.textContent(`${chip(`url:${guide}`)} .strata-chip-label`)).toBe(TAB_TITLE);
  expect(await page.getAttribute(chip(`url:${guide}`), 'aria-label')).toMatch(/characters attached\.$/);
});

test('PDFs in @: the manual says its pages, the scan that it has no text layer', async () => {
  await page.locator(TEXTAREA).pressSequentially('with @Greenhouse manual');
  await page.waitForSelector(`.strata-suggest-item.is-selected[data-chip="pdf:${MANUAL}"]`);
  expect(await page.textContent('.strata-suggest-item.is-selected')).toBe('Greenhouse manual.pdfPDF · Attachments');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-label')?.includes('3 pages') ?? false, chip(`pdf:${MANUAL}`));
  expect(await page.textContent(`${chip(`pdf:${MANUAL}`)} .strata-chip-label`)).toBe('Greenhouse manual.pdf');
  expect(await page.getAttribute(chip(`pdf:${MANUAL}`), 'aria-label')).toMatch(/^Attachments\/Greenhouse manual\.pdf\n3 pages, \d+ characters of text attached, page by page\.$/);

  await page.locator(TEXTAREA).pressSequentially('and @Scanned');
  await page.waitForSelector(`.strata-suggest-item.is-selected[data-chip="pdf:${SCAN}"]`);
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector(`${chip(`pdf:${SCAN}`)}.is-no-text`, { state: 'attached' });
  expect(await page.textContent(`${chip(`pdf:${SCAN}`)} .strata-chip-label`)).toBe('Scanned seed packet.pdf (no text layer)');
  expect(await page.getAttribute(chip(`pdf:${SCAN}`), 'aria-label')).toContain('without a text layer (a scan or images only)');
  expect(await page.inputValue(TEXTAREA)).toBe(`Compare ${guide} with [[Greenhouse manual.pdf]] and [[Scanned seed packet.pdf]] `);
  await shoot('pdf-chips');
  // The row folds chips behind "+ N more": opened from the keyboard, the PDF chips show.
  await page.focus('.strata-chips-more');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${chip(`pdf:${SCAN}`)}.is-no-text`);
  await shoot('pdf-chips-open');
  await page.focus(TEXTAREA);
  await page.press(TEXTAREA, 'End');
});

test('Send: the PDF page by page in a note block, the scan as its notice, the tab page under its title', async () => {
  const before = chatRequests().length;
  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  expect(chatRequests().length).toBe(before + 1);
  const sent = sentText();
  expect(sent).toContain(`<note_context id="${MANUAL}" title="Greenhouse manual.pdf">\nPDF Greenhouse manual.pdf, 3 pages; page N is ${MANUAL}#page=N.\n\n## Page 1\n\nGreenhouse manual\nVentilation: open the roof vents once the air inside passes 24 degrees C.`);
  expect(sent).toContain('## Page 3\n\nFrost\nBelow 3 degrees C, frost cloth goes over the seedling trays.');
  expect(sent).toContain(`<note_context id="${SCAN}" title="Scanned seed packet.pdf">\nPDF Scanned seed packet.pdf, 1 page, has no text layer (a scan or images only): its text cannot be read, so none of it is sent.\n</note_context>`);
  expect(sent).toContain(`<url_context id="${guide}" title="${TAB_TITLE}">`);
  expect(sent).toContain(PAGE_TEXT);
  expect(sent).not.toContain('context_problems');
  expect(await page.$$eval('.strata-message.is-user .strata-chip-label', (els) => els.map((e) => e.textContent))).toEqual([TAB_TITLE, 'Greenhouse manual.pdf', 'Scanned seed packet.pdf']);
  await shoot('pdf-webviewer-sent');
  await wb.flush();
  const note = findChatNote(wb.vaultDir, 'Compare');
  expect(note).not.toBe('');
  const saved = readFileSync(note, 'utf8');
  expect(saved).toContain(`- PDF: [[${MANUAL}]]`);
  expect(saved).toContain(`{"kind":"pdf","path":"${MANUAL}"}`);
});

test('a PDF dragged from the file explorer onto the composer becomes a chip', async () => {
  await page.evaluate((path) => {
    const target = document.querySelector('.strata-composer');
    if (!target) throw new Error('no composer');
    const data = new DataTransfer();
    data.setData('text/plain', `obsidian://open?vault=vault&file=${encodeURIComponent(path)}`);
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, MANUAL);
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-label')?.includes('3 pages') ?? false, chip(`pdf:${MANUAL}`));
  expect(await page.textContent(`${chip(`pdf:${MANUAL}`)} .strata-chip-label`)).toBe('Greenhouse manual.pdf');
  expect(await wb.errors()).toEqual([]);
});

function findChatNote(dir: string, text: string): string {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) {
      const found = findChatNote(abs, text);
      if (found) return found;
    } else if (name.endsWith('.md')) {
      const body = readFileSync(abs, 'utf8');
      if (body.includes('strata-context') && body.includes(text) && body.includes('PDF:')) return abs;
    }
  }
  return '';
}
