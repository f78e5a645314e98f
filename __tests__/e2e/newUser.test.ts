/**
 * Issue 29, "What a new user trips over", in the browser: Escape stops a reply, the usage panel
 * after a stopped turn, Condense offered only when it frees something, errors naming the provider
 * by its own name, the view's one scrolling list, the library's Exclude at once, the 300 px rows.
 */
import type { Page } from 'playwright-core';
import type { ProviderServer } from '../../testing/providerServer';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const TEXTAREA = '.strata-composer textarea';

let wb: Workbench;
let page: Page;
let server: ProviderServer;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, settings: { generateTitles: false } });
  page = wb.page;
  server = wb.providerServer;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector(TEXTAREA);
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

const ANSWERED = '.strata-message.is-assistant:not(.is-failed):not(.is-streaming)';

async function sendAndWait(text: string): Promise<void> {
  const before = await page.$$eval(ANSWERED, (e) => e.length);
  await page.fill(TEXTAREA, text);
  await page.press(TEXTAREA, 'Enter');
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length > n, [ANSWERED, before] as const);
}

/** Until the server has the turn's request: a stop before it would leave an injected hang queued for the next test. */
async function requestReached(before: number): Promise<void> {
  for (let i = 0; i < 200 && server.requests.length <= before; i++) await new Promise((r) => setTimeout(r, 50));
  expect(server.requests.length).toBeGreaterThan(before);
}

async function openPanel(): Promise<void> {
  if (!(await page.$('.strata-context-panel.is-open'))) await page.click('.strata-context-summary');
  await page.waitForSelector('.strata-context-panel.is-open');
}

async function closePanel(): Promise<void> {
  if (await page.$('.strata-context-panel.is-open')) await page.click('.strata-context-summary');
}

test('Escape in the composer stops a streaming reply; the Stop button says so', async () => {
  server.injectFault({ kind: 'hang', times: 1 });
  const sent = server.requests.length;
  await page.fill(TEXTAREA, 'Will you wait?');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector('.strata-stop', { state: 'visible' });
  await requestReached(sent);
  expect(await page.getAttribute('.strata-stop', 'aria-label')).toMatch(/Escape/);
  await page.waitForSelector('.strata-message.is-streaming');
  await page.focus(TEXTAREA);
  await page.press(TEXTAREA, 'Escape');
  await page.waitForSelector('.strata-message.is-stopped');
  await page.waitForSelector('.strata-stop', { state: 'hidden' });
});

test('the usage panel keeps the last request with usage after a stopped turn', async () => {
  await sendAndWait('Answer this one.');
  server.injectFault({ kind: 'hang', times: 1 });
  const sent = server.requests.length;
  await page.fill(TEXTAREA, 'And stop this one.');
  await page.press(TEXTAREA, 'Enter');
  await page.waitForSelector('.strata-message.is-streaming');
  await requestReached(sent);
  await page.click('.strata-stop');
  await page.waitForSelector('.strata-message.is-stopped');
  await openPanel();
  const last = await page.textContent('.strata-usage-last .strata-usage-value');
  const cached = await page.textContent('.strata-usage-cached .strata-usage-value');
  expect(last).not.toBe('—');
  expect(cached).not.toBe('—');
  await closePanel();
  // Back to the chat from the history (it is read from its note: no request assembled in this session).
  await wb.flush();
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.click('.strata-history-item:first-child .strata-history-main');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForSelector('.strata-message.is-stopped');
  await openPanel();
  expect(await page.textContent('.strata-usage-last .strata-usage-value')).toMatch(/^[\d,]+ tokens/);
  expect(await page.textContent('.strata-usage-cached .strata-usage-value')).not.toBe('—');
  await closePanel();
});

test('Condense is offered only when it would free something; otherwise its row says why', async () => {
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  await sendAndWait('First question about the greenhouse.');
  await sendAndWait('Second question about the vents.');
  await openPanel();
  expect(await page.getAttribute('.strata-condense-button', 'aria-disabled')).toBe('true');
  const why = (await page.getAttribute('.strata-condense-button', 'aria-label')) ?? '';
  expect(why).toMatch(/^Nothing to condense yet: the newest 4 messages always stay word for word/);
  expect(await page.getAttribute('.strata-condense-row', 'title')).toBe(why);
  expect(await page.textContent('.strata-condense-note')).toBe(why);
  await page.locator('.strata-condense-row').scrollIntoViewIfNeeded();
  await wb.narrowSidebar(true);
  await wb.screenshotThemes('condense-not-offered-300', { selector: '.strata-bottom' });
  await wb.narrowSidebar(false);
  await closePanel();
  // A third and a fourth turn: turns older than the newest four messages can be condensed.
  await sendAndWait('Third question about watering.');
  await openPanel();
  expect(await page.getAttribute('.strata-condense-button', 'aria-disabled')).toBe('false');
  expect(await page.getAttribute('.strata-condense-button', 'aria-label')).toBe('Condense the chat now: summarize older messages');
  await closePanel();
});

describe('@ mentions with spaces', () => {
  async function typeMention(text: string): Promise<string[]> {
    await page.fill(TEXTAREA, '');
    await page.locator(TEXTAREA).pressSequentially(text);
    await page.waitForSelector('.strata-suggest-item, .strata-suggest-empty');
    return page.$$eval('.strata-suggest-item', (els) => els.map((e) => e.getAttribute('data-chip') ?? ''));
  }

  test('"@Lesson 4" and "@Climate l" list the notes; Enter attaches the one picked', async () => {
    expect((await typeMention('@Lesson 4'))[0]).toBe('note:Piano Lessons/Lesson 4.md');
    await wb.narrowSidebar(true);
    await wb.screenshotThemes('mention-with-space-300', { selector: '.strata-bottom' });
    await wb.narrowSidebar(false);
    await page.press(TEXTAREA, 'Escape');
    expect(await typeMention('Read @Climate l')).toEqual(['note:Projects/Greenhouse/Climate log.md']);
    await page.press(TEXTAREA, 'Enter');
    expect(await page.inputValue(TEXTAREA)).toBe('Read [[Climate log]] ');
    await page.waitForSelector('.strata-chip[data-chip="note:Projects/Greenhouse/Climate log.md"]');
    await page.fill(TEXTAREA, '');
    await page.click('.strata-chip[data-chip="note:Projects/Greenhouse/Climate log.md"] .strata-chip-remove');
  });

  test('Enter with no match sends nothing; the picker stays closed as the user types on, and Enter then sends as written', async () => {
    const before = server.requests.length;
    const messages = await page.$$eval('.strata-message', (e) => e.length);
    await typeMention('@Climate lug');
    expect(await page.$$('.strata-suggest-item')).toHaveLength(0);
    await page.press(TEXTAREA, 'Enter');
    await page.waitForSelector('.strata-suggest', { state: 'hidden' });
    expect(await page.inputValue(TEXTAREA)).toBe('@Climate lug');
    expect(server.requests.length).toBe(before);
    expect(await page.$$eval('.strata-message', (e) => e.length)).toBe(messages);
    await page.locator(TEXTAREA).pressSequentially(' readings, please');
    expect(await page.isVisible('.strata-suggest')).toBe(false);
    await page.press(TEXTAREA, 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('.strata-message').length > n, messages);
    expect(await page.inputValue(TEXTAREA)).toBe('');
    await page.waitForSelector('.strata-stop', { state: 'hidden' });
  });

  test('a space right after @ is no mention', async () => {
    await page.fill(TEXTAREA, '');
    await page.locator(TEXTAREA).pressSequentially('meet @ 5');
    expect(await page.isVisible('.strata-suggest')).toBe(false);
    await page.fill(TEXTAREA, '');
  });
});

test.each([
  ['wide', false],
  ['300 px', true],
] as const)('900 px tall with the usage panel open (%s): only the message list scrolls; header and composer stay', async (name, narrow) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await wb.narrowSidebar(narrow);
  await openPanel();
  const layout = await page.evaluate(() => {
    const view = document.querySelector('.strata-view') as HTMLElement;
    const scrolled: string[] = [];
    for (let el: HTMLElement | null = view; el; el = el.parentElement) {
      if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'hidden') scrolled.push(el.className || el.tagName);
    }
    const box = view.getBoundingClientRect();
    const header = document.querySelector('.strata-header')!.getBoundingClientRect();
    const composer = document.querySelector('.strata-composer')!.getBoundingClientRect();
    const messages = document.querySelector('.strata-messages') as HTMLElement;
    return {
      scrolled,
      viewFits: view.scrollHeight <= view.clientHeight + 1,
      headerIn: header.top >= box.top - 1 && header.bottom <= box.bottom + 1,
      composerIn: composer.top >= box.top - 1 && composer.bottom <= box.bottom + 1,
      messagesHeight: messages.clientHeight,
    };
  });
  await wb.screenshot(`usage-panel-open-900-${narrow ? '300' : 'wide'}`);
  expect(layout.scrolled).toEqual([]);
  expect(layout.viewFits).toBe(true);
  expect(layout.headerIn).toBe(true);
  expect(layout.composerIn).toBe(true);
  expect(layout.messagesHeight).toBeGreaterThan(100);
  await closePanel();
  await wb.narrowSidebar(false);
});

test('library Exclude: a click lands even when the panel is redrawn between press and release (a save, a measure)', async () => {
  await openPanel();
  const exclude = '.strata-library-item[data-id] .strata-library-exclude';
  await page.waitForSelector(exclude);
  await page.locator(exclude).first().scrollIntoViewIfNeeded();
  const box = (await page.locator(exclude).first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  // Something else changes the chat's state meanwhile: the view draws again.
  await page.evaluate(() => {
    const view = (window as unknown as WorkbenchWindow).workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { refresh(): void };
    view.refresh();
  });
  await page.mouse.up();
  // The sent note asks first (a prefix break): the confirmation shows at once.
  await page.waitForSelector('.strata-library-confirm', { timeout: 2000 });
  await page.click('.strata-library-confirm-exclude');
  await page.waitForSelector('.strata-library-item.is-excluded');
  expect(await page.$eval('.strata-library-item.is-excluded .strata-library-badges', (e) => e.textContent ?? '')).toMatch(/Excluded/i);
  expect(await page.$('.strata-library-item.is-excluded .strata-library-exclude')).toBeNull();
  await page.click('.strata-library-item.is-excluded .strata-library-plan');
  await page.waitForSelector('.strata-library-item.is-excluded', { state: 'detached' });
  await closePanel();
});
