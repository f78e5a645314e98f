/**
 * Switching chats in the real bundle while the vault is slow (issue 12, bug 1): the page's chat-note
 * writes (or reads) are held until the test releases them by hand, as a slow disk or a sync lock
 * would. + shows the new chat at once, the next message goes to it, and the old chat's saves land in
 * the old note; each chat keeps its own unsent words; while a chat opens the composer says so. A
 * cut reply's partial text survives reopening the chat, with Retry. Screenshots at 300 px and wide,
 * light and dark.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';
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

type HoldWindow = Window & { releaseHeld?: () => void; workbench: { app: { vault: Record<string, unknown> } } };

/**
 * Hold the vault's `methods` (for chat notes only, when `chatsOnly`) until releaseHeld() in the page:
 * calls wait, then run as they were; the originals are put back on release.
 */
async function hold(methods: string[], chatsOnly = false): Promise<void> {
  await page.evaluate(
    ([names, folder]) => {
      const w = window as unknown as HoldWindow;
      const vault = w.workbench.app.vault;
      let open = () => {};
      const gate = new Promise<void>((resolve) => (open = resolve));
      const originals = new Map<string, unknown>();
      for (const name of names) {
        const original = vault[name] as (...args: unknown[]) => Promise<unknown>;
        originals.set(name, original);
        vault[name] = async (...args: unknown[]) => {
          const target = args[0] as { path?: string } | string;
          const path = typeof target === 'string' ? target : (target?.path ?? '');
          if (folder === null || path.startsWith(folder)) await gate;
          return original.apply(vault, args);
        };
      }
      w.releaseHeld = () => {
        for (const [name, original] of originals) vault[name] = original;
        open();
      };
    },
    [methods, chatsOnly ? `${CHATS}/` : null] as const,
  );
}

const release = () => page.evaluate(() => (window as unknown as HoldWindow).releaseHeld?.());
const answered = () => page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (e) => e.length);
const replies = () => page.$$eval('.strata-message.is-assistant .strata-message-body', (els) => els.map((e) => (e.textContent ?? '').trim()));
const composerText = () => page.inputValue('.strata-composer textarea');
const noteTexts = () => readdirSync(join(wb.vaultDir, CHATS)).map((f) => readFileSync(join(wb.vaultDir, CHATS, f), 'utf8'));

async function send(text: string): Promise<void> {
  const before = await answered();
  await page.fill('.strata-composer textarea', text);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(([n]) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, [before]);
}

/** The sidebar at a width (px), or back to its own. */
let widthStyle: Awaited<ReturnType<Page['addStyleTag']>> | null = null;
async function sidebar(px: number | null): Promise<void> {
  await widthStyle?.evaluate((el) => (el as Element).remove());
  widthStyle = px ? await page.addStyleTag({ content: `.workspace-split.mod-right-split { width: ${px}px !important; }` }) : null;
}

/** Wide (560 px) and 300 px, light and dark. */
async function shoot(name: string): Promise<void> {
  for (const [label, px] of [
    ['wide', 560],
    ['300', 300],
  ] as const) {
    await sidebar(px);
    await wb.screenshot(`${name}-${label}-light`);
    await wb.setTheme('dark');
    await wb.screenshot(`${name}-${label}-dark`);
    await wb.setTheme('light');
  }
  await sidebar(null);
}

async function openFromHistory(title: string): Promise<void> {
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.locator('.strata-history-item', { hasText: title }).locator('.strata-history-main').click();
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
}

test('+ while the chat’s saves are held: the new chat at once, the next message goes to it, the old saves land in the old note', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-chip.is-active-note');
  await send('About the plan');
  await wb.flush();

  await hold(['create', 'process', 'modify']);
  await send('Second question about the plan');
  await page.fill('.strata-composer textarea', 'Unsent words for the plan chat');
  await page.click('.strata-new-chat');
  // Shown while the plan chat's last save is still held: + does not wait for it.
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  expect(await page.textContent('.strata-title')).toBe('New chat');
  expect(await composerText()).toBe('');
  expect(await page.isEnabled('.strata-composer textarea')).toBe(true);

  await wb.openNote(VENT);
  await page.waitForFunction(() => document.querySelector('.strata-chip.is-active-note .strata-chip-label')?.textContent === 'Ventilation');
  await send('Hello new chat');
  const shown = await replies();
  expect(shown).toEqual([`Seen context: ${VENT}. Question: Hello new chat.`]);
  await shoot('switch-new-while-saving');

  await release();
  await wb.flush();
  const notes = noteTexts();
  expect(notes).toHaveLength(2);
  const plan = notes.find((t) => t.includes('About the plan')) ?? '';
  const fresh = notes.find((t) => t.includes('Hello new chat')) ?? '';
  expect(plan).toContain('Second question about the plan');
  expect(plan).not.toContain('Hello new chat');
  expect(fresh).not.toContain('About the plan');

  // Back in the plan chat: its unsent words are back in the composer; the new chat's are its own.
  await openFromHistory('About the plan');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant').length === 2);
  expect(await composerText()).toBe('Unsent words for the plan chat');
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  expect(await composerText()).toBe('');
}, 120_000);

test('while a chat opens the composer says so and takes nothing; the opened chat’s own draft comes back', async () => {
  await page.fill('.strata-composer textarea', 'Words for the empty chat');
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  // The chat note's read is held: the chat stays opening until the test releases it.
  await hold(['read', 'cachedRead'], true);
  await page.locator('.strata-history-item', { hasText: 'About the plan' }).locator('.strata-history-main').click();
  // The history closes at once; the view says the chat is opening.
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForSelector('.strata-view.is-opening');
  expect(await page.isDisabled('.strata-composer textarea')).toBe(true);
  expect(await page.getAttribute('.strata-composer textarea', 'placeholder')).toBe('Opening the chat…');
  expect(await composerText()).toBe('');
  await shoot('switch-opening');
  await release();
  await page.waitForSelector('.strata-view:not(.is-opening)');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant').length === 2);
  expect(await composerText()).toBe('Unsent words for the plan chat');
  expect(await page.isEnabled('.strata-composer textarea')).toBe(true);
}, 120_000);

test('a cut reply keeps what arrived: reopened, the chat shows the same partial text with Retry, and Retry answers', async () => {
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  // The stream goes silent after a few words, the connection left open: the user stops it.
  wb.providerServer.injectFault({ kind: 'stall-stream', afterChunks: 4 });
  await page.fill('.strata-composer textarea', 'A question whose reply is cut');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(() => (document.querySelector('.strata-message.is-streaming .strata-streaming-text')?.textContent ?? '').length > 0);
  await page.click('.strata-stop');
  await page.waitForSelector('.strata-message.is-failed .strata-partial');
  const partial = (await page.textContent('.strata-message.is-failed .strata-partial')) ?? '';
  expect(partial.length).toBeGreaterThan(0);
  await wb.flush();
  expect(noteTexts().find((t) => t.includes('A question whose reply is cut'))).toContain('> [!strata-partial]- ');

  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  await openFromHistory('A question whose reply is cut');
  await page.waitForSelector('.strata-message.is-failed .strata-partial');
  expect(await page.textContent('.strata-message.is-failed .strata-partial')).toBe(partial);
  expect(await page.isVisible('.strata-message.is-failed .strata-retry')).toBe(true);
  await shoot('switch-partial-reopened');

  const before = wb.providerServer.requests.length;
  await page.click('.strata-message.is-failed .strata-retry');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  const sent = wb.providerServer.requests.slice(before).map((r) => JSON.stringify(r.body));
  expect(sent.some((b) => b.includes('A question whose reply is cut'))).toBe(true);
  expect(sent.some((b) => b.includes(partial))).toBe(false);
  expect(await page.$('.strata-partial')).toBeNull();
}, 120_000);
