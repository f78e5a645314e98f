/**
 * Issue 14, URLs, in the browser: `@` then a pasted address offers "Attach web page <url>" first;
 * Enter picks it; the page is fetched with requestUrl (the workbench's goes through the page's
 * fetch to its same-origin `/web/` sample pages) and becomes a URL chip titled with the page's
 * title, sent as `<url_context id="<url>">` with the page's text. A 404 becomes an error chip that
 * says why and is not sent; a bare pasted address stays plain text; Enter while a page loads sends
 * once it has loaded. The page text is kept in the chat note: the chat reopened (after a reload)
 * still sends it, and the page is not fetched again. Screenshots at 300 px and wide, light and dark.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ProviderServer } from '../../testing/providerServer';
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const TEXTAREA = '.strata-composer textarea';
const TITLE = 'Greenhouse ventilation guide';
const PAGE_TEXT = 'Open the roof vents when the air inside passes 24 °C';

let wb: Workbench;
let page: Page;
let server: ProviderServer;
let guide: string;
let missing: string;
/** Requests the page made for each `/web/` path (the plugin's fetches of web pages). */
const hits = new Map<string, number>();

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 800 }, settings: { generateTitles: false, attachActiveNote: false } });
  page = wb.page;
  server = wb.providerServer;
  guide = `${wb.baseUrl}/web/greenhouse-guide.html`;
  missing = `${wb.baseUrl}/web/missing.html`;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/web/')) hits.set(path, (hits.get(path) ?? 0) + 1);
  });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const chatRequests = () => server.requests.filter((r) => r.path.includes('chat/completions'));
/** Everything a chat request sent, its messages' text joined. */
function sentText(index = -1): string {
  const body = chatRequests().at(index)?.body as { messages?: Array<{ content: unknown }> } | undefined;
  return (body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}
const answered = () => page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (e) => e.length);
const chip = (url: string) => `.strata-chip[data-chip="url:${url}"]`;

/** `@` typed, then an address pasted after it (insertText: one input event, as a paste gives). */
async function atPaste(url: string): Promise<void> {
  await page.locator(TEXTAREA).pressSequentially('@');
  await page.keyboard.insertText(url);
}

async function shoot(name: string): Promise<void> {
  await wb.narrowSidebar(true);
  await wb.screenshotThemes(`${name}-300`);
  await wb.narrowSidebar(false);
  await wb.screenshotThemes(`${name}-wide`);
}

test('a bare pasted address stays plain text: no picker, no chip', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector(TEXTAREA);
  await page.click(TEXTAREA);
  await page.keyboard.insertText(guide);
  expect(await page.isVisible('.strata-suggest')).toBe(false);
  expect(await page.$$('.strata-chip:not(.is-active-note)')).toHaveLength(0);
  expect(await page.inputValue(TEXTAREA)).toBe(guide);
  await page.fill(TEXTAREA, '');
  expect(hits.size).toBe(0);
});

test('@ and a pasted address: "Attach web page" first; Enter attaches the page as a chip titled with the page title', async () => {
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('Summarize ');
  await atPaste(guide);
  await page.waitForSelector('.strata-suggest-item.is-url.is-selected');
  const rows = await page.$$eval('.strata-suggest-item', (els) => els.map((e) => e.textContent));
  expect(rows[0]).toBe(`Attach web page${guide}`);
  expect(await page.getAttribute('.strata-suggest-item.is-selected', 'data-chip')).toBe(`url:${guide}`);
  expect(await page.getAttribute('.strata-suggest-item.is-selected', 'aria-label')).toBe(`Attach web page ${guide}`);
  await shoot('url-mention-picker');

  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector(`${chip(guide)}:not(.is-loading)`, { state: 'attached' });
  // The address stays in the words, as a picked note's [[link]] does.
  expect(await page.inputValue(TEXTAREA)).toBe(`Summarize ${guide} `);
  expect(await page.textContent(`${chip(guide)} .strata-chip-label`)).toBe(TITLE);
  const tooltip = (await page.getAttribute(chip(guide), 'aria-label')) ?? '';
  expect(tooltip).toContain(guide);
  expect(tooltip).toMatch(/characters attached\.$/);
  expect(await page.$(`${chip(guide)}.is-error`)).toBeNull();
  expect(hits.get('/web/greenhouse-guide.html')).toBe(1);
});

test('a 404 becomes an error chip that says why; it can be removed from the keyboard', async () => {
  await atPaste(missing);
  await page.waitForSelector('.strata-suggest-item.is-url.is-selected');
  await page.press(TEXTAREA, 'Enter');
  // The row may fold it behind "+ N more": the line under the row says it at once (aria-live).
  await page.waitForSelector(`${chip(missing)}.is-error`, { state: 'attached' });
  const host = missing.replace(/^https?:\/\//, '');
  expect(await page.textContent(`${chip(missing)} .strata-chip-label`)).toBe(`Not found (HTTP 404): ${host}`);
  expect(await page.getAttribute(chip(missing), 'aria-label')).toBe(
    `Not attached: ${missing} could not be read (the server answered HTTP 404). It is not sent; remove it.`,
  );
  expect(await page.getAttribute(`${chip(missing)} .strata-chip-remove`, 'aria-label')).toBe(`Remove Not found (HTTP 404): ${host}`);
  expect(await page.textContent('.strata-chips-note-text')).toBe(`“${host}” is not attached: Not found (HTTP 404).`);
  expect(await page.isVisible('.strata-chips-undo')).toBe(false);
  await shoot('url-mention-chips');
  // Folded behind "+ N more" in a narrow sidebar: opened from the keyboard, the error chip shows.
  await wb.narrowSidebar(true);
  await page.focus('.strata-chips-more');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${chip(missing)}.is-error`);
  await shoot('url-mention-chips-open');
  await page.focus('.strata-chips-more');
  await page.keyboard.press('Enter');
  await page.focus(TEXTAREA);
  expect(hits.get('/web/missing.html')).toBe(1);
});

test('Send: the page goes as <url_context id="<url>"> with its text; the failed one is not sent', async () => {
  const before = chatRequests().length;
  await page.locator(TEXTAREA).pressSequentially('please');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  expect(chatRequests().length).toBe(before + 1);
  const sent = sentText();
  expect(sent).toContain(`<url_context id="${guide}" title="${TITLE}">`);
  expect(sent).toContain(PAGE_TEXT);
  // No script, menu or <title> text: the page's content only.
  expect(sent).not.toContain('window.tracking');
  expect(sent).not.toContain('Home · About');
  expect(sent).not.toContain(`<url_context id="${missing}"`);
  expect(sent).not.toContain('context_problems');
  // The composer is empty again; the sent message shows the page's chip by its title.
  expect(await page.$$('.strata-composer .strata-chip:not(.is-active-note)')).toHaveLength(0);
  expect(await page.$$eval('.strata-message.is-user .strata-chip-label', (els) => els.map((e) => e.textContent))).toEqual([TITLE]);
  expect(hits.get('/web/greenhouse-guide.html')).toBe(1);
  await shoot('url-mention-sent');
});

test('the page text is kept in the chat note: reopened after a reload, the chat still sends it without fetching it again', async () => {
  await wb.flush();
  const note = findChatNote(wb.vaultDir, 'Summarize');
  const saved = readFileSync(note, 'utf8');
  expect(saved).toContain(`> [!strata-url]- Page text: ${guide}`);
  expect(saved).toContain(PAGE_TEXT);

  await wb.reload();
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.locator('.strata-history-item', { hasText: 'Summarize' }).locator('.strata-history-main').click();
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant').length === 1);
  expect(await page.$$eval('.strata-message.is-user .strata-chip-label', (els) => els.map((e) => e.textContent))).toEqual([TITLE]);

  const before = await answered();
  await page.fill(TEXTAREA, 'And the side vents?');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, before);
  const sent = sentText();
  expect(sent).toContain(`<url_context id="${guide}" title="${TITLE}">`);
  expect(sent).toContain(PAGE_TEXT);
  expect(sent).toContain('And the side vents?');
  expect(hits.get('/web/greenhouse-guide.html')).toBe(1);
});

test('Enter while a page loads: the chip shows it loading, the message goes once the page is in', async () => {
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  const slow = `${wb.baseUrl}/web/slow.html`;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/web/slow.html', async (route) => {
    await gate;
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<html><head><title>Slow page</title></head><body><p>Arrived late but whole.</p></body></html>' });
  });
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially('Read ');
  await atPaste(slow);
  await page.waitForSelector('.strata-suggest-item.is-url.is-selected');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector(`${chip(slow)}.is-loading`, { state: 'attached' });
  expect(await page.getAttribute(chip(slow), 'aria-label')).toBe(`Loading ${slow}…`);
  expect(await page.getAttribute(chip(slow), 'aria-busy')).toBe('true');
  await shoot('url-mention-loading');

  const before = chatRequests().length;
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector('.strata-chips-note:not(.is-empty)');
  expect(await page.textContent('.strata-chips-note-text')).toBe('Sending once the page has loaded…');
  expect(await page.isVisible('.strata-chips-undo')).toBe(false);
  expect(chatRequests().length).toBe(before);
  expect(await page.$$('.strata-message')).toHaveLength(0);

  release();
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  const sent = sentText();
  expect(sent).toContain(`<url_context id="${slow}" title="Slow page">`);
  expect(sent).toContain('Arrived late but whole.');
  expect(await page.inputValue(TEXTAREA)).toBe('');
  expect(await page.isVisible('.strata-chips-note-text')).toBe(false);
  await page.unroute('**/web/slow.html');
});

/** The chat note (under the vault) whose text holds `text`. */
function findChatNote(dir: string, text: string): string {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) {
      const found = findChatNote(abs, text);
      if (found) return found;
    } else if (name.endsWith('.md')) {
      const body = readFileSync(abs, 'utf8');
      if (body.includes('[!strata-url]') && body.includes(text)) return abs;
    }
  }
  return '';
}
