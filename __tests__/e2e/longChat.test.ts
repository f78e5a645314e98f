/**
 * A long chat in the view (issue 30): a saved chat of 1,000 turns (made through the engine and the
 * codec, as the bench's chats are) opens at its last page, the newest reply in view; scrolling to
 * the top, or Tab to "Show earlier messages" and Enter, brings the page before without moving the
 * message in view; a message sent goes on at the bottom; a narrower sidebar keeps the newest reply
 * in view. Screenshots at 300 px and wide, light and dark.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sampleChat } from '../../bench/chats/section';
import { encodeChatNote } from '../../src/core/conversation/codec';
import { PAGE_TURNS } from '../../src/obsidian/view/messageWindow';
import { PROJECT_ROOT } from '../../workbench/build';
import { startWorkbench, type Workbench } from './harness';

const TURNS = 1000;
const PAGE = PAGE_TURNS * 2;
let wb: Workbench;
let page: Page;

beforeAll(async () => {
  const conversation = await sampleChat(PROJECT_ROOT, TURNS);
  const dir = mkdtempSync(join(os.tmpdir(), 'strata-long-chat-'));
  try {
    cpSync(join(PROJECT_ROOT, 'examples', 'vault'), dir, { recursive: true });
    mkdirSync(join(dir, 'Strata', 'Chats'), { recursive: true });
    writeFileSync(join(dir, 'Strata', 'Chats', 'Long chat.md'), encodeChatNote({ ...conversation, title: 'Long chat', provider: 'local-openai' }));
    wb = await startWorkbench({ vault: dir, settings: { generateTitles: false } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  page = wb.page;
}, 180_000);
afterAll(async () => {
  await wb?.close();
});

const MESSAGES = '.strata-messages .strata-message';
const messageCount = () => page.$$eval(MESSAGES, (els) => els.length);
const firstQuestion = () => page.$eval(`${MESSAGES}.is-user .strata-message-body`, (el) => el.textContent ?? '');

/** Where the user message starting with `words` is, in pixels below the list's top edge. */
function offsetOf(words: string): Promise<number> {
  return page.evaluate((w) => {
    const list = document.querySelector('.strata-messages') as HTMLElement;
    const message = Array.from(list.querySelectorAll('.strata-message.is-user')).find((m) => (m.querySelector('.strata-message-body')?.textContent ?? '').startsWith(w));
    if (!message) throw new Error(`no message ${w}`);
    return message.getBoundingClientRect().top - list.getBoundingClientRect().top;
  }, words);
}

/** The newest reply's end is in the list's view. */
function newestInView(): Promise<boolean> {
  return page.evaluate(() => {
    const list = document.querySelector('.strata-messages') as HTMLElement;
    const replies = list.querySelectorAll('.strata-message.is-assistant');
    const last = replies[replies.length - 1].getBoundingClientRect();
    const box = list.getBoundingClientRect();
    return last.bottom <= box.bottom + 1 && last.bottom > box.top;
  });
}

/** Two animation frames with nothing added: a page being built over several frames is complete. */
async function settled(): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = -1;
        let same = 0;
        const tick = () => {
          const n = document.querySelectorAll('.strata-messages .strata-message').length;
          same = n === last ? same + 1 : 0;
          last = n;
          if (same >= 2) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/** Wide and 300 px, light and dark. */
async function shoot(name: string): Promise<void> {
  await wb.screenshotThemes(`${name}-wide`);
  await wb.narrowSidebar(true);
  await wb.screenshotThemes(`${name}-300`);
  await wb.narrowSidebar(false);
}

test('a chat of 1,000 turns opens at its last page, the newest reply in view', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.click('.strata-history-item .strata-history-main');
  await page.waitForFunction(() => {
    const replies = document.querySelectorAll('.strata-messages .strata-message.is-assistant');
    return (replies[replies.length - 1]?.textContent ?? '').includes('Answer 1000.');
  });
  await settled();
  const count = await messageCount();
  expect(count).toBeLessThanOrEqual(PAGE);
  expect(await firstQuestion()).toMatch(new RegExp(`^Question ${TURNS - PAGE_TURNS + 1}:`));
  expect(await page.textContent('.strata-earlier-count')).toBe(`${TURNS - PAGE_TURNS} earlier turns`);
  expect(await newestInView()).toBe(true);
  await shoot('long-chat-opened');
  // A narrower sidebar makes every message taller: the newest reply stays in view.
  await wb.narrowSidebar(true);
  await settled();
  expect(await newestInView()).toBe(true);
  await wb.narrowSidebar(false);
  expect(await wb.errors()).toEqual([]);
}, 180_000);

test('scrolling to the top brings the page before, the message in view stays where it was', async () => {
  const anchor = `Question ${TURNS - PAGE_TURNS + 1}:`;
  await page.evaluate(() => {
    (document.querySelector('.strata-messages') as HTMLElement).scrollTop = 0;
  });
  await settled();
  const before = await offsetOf(anchor);
  await page.waitForFunction((n) => document.querySelectorAll('.strata-messages .strata-message').length >= n, PAGE * 2);
  await settled();
  expect(await messageCount()).toBe(PAGE * 2);
  expect(await firstQuestion()).toMatch(new RegExp(`^Question ${TURNS - 2 * PAGE_TURNS + 1}:`));
  expect(Math.abs((await offsetOf(anchor)) - before)).toBeLessThanOrEqual(1);
});

test('Tab to Show earlier messages and Enter: the page before comes above, the message in view does not move, Tab goes on into it', async () => {
  const anchor = `Question ${TURNS - 2 * PAGE_TURNS + 1}:`;
  // Keyboard only: from the header's last button, Tab reaches the button at the top of the list.
  await page.focus('.strata-history-button');
  for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.classList.contains('strata-earlier-button'))); i++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Show earlier messages');
  await settled();
  // Reaching the button by Tab brings it into view, which is no request to show more.
  expect(await messageCount()).toBe(PAGE * 2);
  await shoot('long-chat-earlier-button');
  const before = await offsetOf(anchor);
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.strata-messages .strata-message').length >= n, PAGE * 3);
  await settled();
  expect(await messageCount()).toBe(PAGE * 3);
  expect(Math.abs((await offsetOf(anchor)) - before)).toBeLessThanOrEqual(1);
  expect(await page.evaluate(() => document.activeElement?.classList.contains('strata-earlier-button'))).toBe(true);
  // The next Tab is in the first message shown, which scrolls into view.
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.closest('.strata-message')?.querySelector('.strata-message-body')?.textContent ?? '');
  expect(focused).toMatch(new RegExp(`^Question ${TURNS - 3 * PAGE_TURNS + 1}:`));
});

test('a message sent in the long chat: its reply at the bottom, in view, the earlier pages kept', async () => {
  // The Tab before scrolled the first message shown into view, and with it the top: the page before
  // may be on its way (as scrolling up brings it). Counted once the list is still.
  await settled();
  const shown = await messageCount();
  await page.fill('.strata-composer textarea', 'And the very last question?');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(
    (n) => document.querySelectorAll('.strata-messages .strata-message.is-assistant:not(.is-streaming)').length > n || document.querySelector('.strata-message.is-failed') !== null,
    shown / 2,
  );
  expect(await page.$('.strata-message.is-failed')).toBeNull();
  await settled();
  expect(await messageCount()).toBe(shown + 2);
  const atEnd = await page.evaluate(() => {
    const list = document.querySelector('.strata-messages') as HTMLElement;
    return list.scrollHeight - list.scrollTop - list.clientHeight < 2;
  });
  expect(atEnd).toBe(true);
  expect(await wb.errors()).toEqual([]);
}, 180_000);
