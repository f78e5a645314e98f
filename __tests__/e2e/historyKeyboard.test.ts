/**
 * The chat history from the keyboard (arrows select, Enter opens, F2 renames, Shift+Delete deletes,
 * Escape closes) and the narrow sidebar: at 300 px the context line's parts stay whole and a wide
 * table in a reply scrolls sideways in its own box instead of breaking words. Screenshots at 300 px
 * and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
let wb: Workbench;
let page: Page;

beforeAll(async () => {
  // This file counts and reads requests and titles as the first message gave them: no generated titles.
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 800 }, settings: { generateTitles: false } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

async function send(text: string): Promise<void> {
  const before = await page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (e) => e.length);
  await page.fill('.strata-composer textarea', text);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(([n]) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, [before]);
}

const narrow = (on: boolean) => wb.narrowSidebar(on);

const shoot = (name: string) => wb.screenshotThemes(name);

const titles = () => page.$$eval('.strata-history-item .strata-history-title', (els) => els.map((e) => e.textContent ?? ''));
const selectedTitle = () =>
  page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll('.strata-history-item[aria-selected="true"].is-selected'));
    return rows.length === 1 ? (rows[0].querySelector('.strata-history-title')?.textContent ?? '') : `${rows.length} selected`;
  });
const focusIsSearch = () => page.evaluate(() => document.activeElement?.classList.contains('strata-history-search') ?? false);

async function openHistory(rows: number): Promise<void> {
  await page.click('.strata-history-button');
  await page.waitForFunction((n) => document.querySelectorAll('.strata-history-item').length === n, rows);
}

describe('chat history from the keyboard', () => {
  test('arrows move the selection, Enter opens, F2 renames, Shift+Delete deletes, Escape closes', async () => {
    expect(await wb.runCommand('open-chat')).toBe(true);
    await page.waitForSelector('.strata-composer textarea');
    for (const word of ['Alpha', 'Beta', 'Gamma']) {
      if (word !== 'Alpha') {
        await page.click('.strata-new-chat');
        await page.waitForSelector('.strata-empty');
      }
      await send(`${word} question about the greenhouse`);
      await wb.flush();
    }

    await openHistory(3);
    const listed = await titles();
    expect(await focusIsSearch()).toBe(true);
    expect(await selectedTitle()).toBe(listed[0]);
    await page.keyboard.press('ArrowDown');
    expect(await selectedTitle()).toBe(listed[1]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown'); // wraps to the top
    expect(await selectedTitle()).toBe(listed[0]);
    await page.keyboard.press('ArrowUp'); // and from the top to the bottom
    expect(await selectedTitle()).toBe(listed[2]);
    await page.keyboard.press('ArrowUp');
    expect(await selectedTitle()).toBe(listed[1]);
    expect(await page.getAttribute('.strata-history-search', 'aria-activedescendant')).toBe(await page.getAttribute('.strata-history-item.is-selected', 'id'));
    await narrow(true);
    await shoot('history-keyboard-300');
    await narrow(false);
    await shoot('history-keyboard-wide');

    // F2 renames the selected row; Escape in the field leaves the rename, not the modal.
    await page.keyboard.press('F2');
    await page.waitForSelector('.strata-history-rename-input');
    // The field takes focus once rendered: an Escape before that would go to the modal (and close it).
    await page.waitForFunction(() => document.activeElement?.classList.contains('strata-history-rename-input'));
    await page.keyboard.press('Escape');
    await page.waitForSelector('.strata-history-rename-input', { state: 'detached' });
    expect(await page.$('.strata-history-modal')).not.toBeNull();
    expect(await focusIsSearch()).toBe(true);
    expect(await selectedTitle()).toBe(listed[1]);
    await page.keyboard.press('F2');
    await page.waitForSelector('.strata-history-rename-input');
    await page.waitForFunction(() => document.activeElement?.classList.contains('strata-history-rename-input'));
    await page.keyboard.type('Renamed by keyboard');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.strata-history-title')).some((e) => e.textContent === 'Renamed by keyboard'));
    expect(await page.$('.strata-history-modal')).not.toBeNull(); // Enter in the field did not open the chat
    expect(await selectedTitle()).toBe('Renamed by keyboard');
    expect(await focusIsSearch()).toBe(true);

    // Shift+Delete asks; Escape on the question keeps the chat and the modal.
    await page.keyboard.press('Shift+Delete');
    await page.waitForFunction(() => document.activeElement?.classList.contains('strata-history-confirm-delete'));
    await page.keyboard.press('Escape');
    await page.waitForSelector('.strata-history-confirm-delete', { state: 'detached' });
    expect(await page.$('.strata-history-modal')).not.toBeNull();
    expect(await page.$$('.strata-history-item')).toHaveLength(3);
    // Asked again, Enter on the focused "Move to trash" deletes it; the next row is selected.
    await page.keyboard.press('Shift+Delete');
    await page.waitForFunction(() => document.activeElement?.classList.contains('strata-history-confirm-delete'));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.strata-history-item').length === 2);
    expect(await titles()).toEqual([listed[0], listed[2]]);
    expect(await selectedTitle()).toBe(listed[2]);
    expect(await focusIsSearch()).toBe(true);

    await page.keyboard.press('Escape');
    await page.waitForSelector('.strata-history-modal', { state: 'detached' });

    // Typing filters; the top hit is selected and Enter opens it.
    await page.click('.strata-new-chat');
    await page.waitForSelector('.strata-empty');
    await openHistory(2);
    await page.keyboard.type('Alpha');
    await page.waitForFunction(() => document.querySelectorAll('.strata-history-item').length === 1 && !document.querySelector('.strata-history-progress'));
    expect(await selectedTitle()).toMatch(/Alpha/);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.strata-history-modal', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('.strata-message.is-user > .strata-message-body')?.textContent?.includes('Alpha question'));

    // Arrow down to the other chat and open it.
    await openHistory(2);
    const order = await titles();
    await page.keyboard.press('ArrowDown');
    expect(await selectedTitle()).toBe(order[1]);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.strata-history-modal', { state: 'detached' });
    const word = /Alpha/.test(order[1]) ? 'Alpha' : 'Gamma';
    await page.waitForFunction((w) => document.querySelector('.strata-message.is-user > .strata-message-body')?.textContent?.includes(`${w} question`), word);
  });
});

describe('a 300 px sidebar', () => {
  const TABLE = [
    'Compare these:',
    '',
    '| Component | Specification | Supplier | Maintenance |',
    '| --- | --- | --- | --- |',
    '| Polycarbonate glazing | Twinwall thermoinsulating sheets | Northernhorticultural | Quarterly inspection |',
    '| Thermostatically controlled louvres | Electromechanical actuators | Environmentalsystems | Biannual recalibration |',
  ].join('\n');

  test('the context line keeps each part whole and inside the line', async () => {
    await narrow(true);
    await page.click('.strata-new-chat');
    await page.waitForSelector('.strata-empty');
    await send('How warm should the greenhouse be at night?');
    await page.waitForSelector('.strata-context-summary .strata-context-cost');
    const problems = await page.evaluate(() => {
      const line = document.querySelector('.strata-context-summary') as HTMLElement;
      const box = line.getBoundingClientRect();
      const out: string[] = [];
      if (box.width > 320) out.push(`the line is ${Math.round(box.width)} px wide`);
      for (const part of Array.from(line.children) as HTMLElement[]) {
        const r = part.getBoundingClientRect();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`${part.className} sticks out by ${Math.round(Math.max(box.left - r.left, r.right - box.right))} px`);
        if (part.scrollWidth > part.clientWidth + 1) out.push(`${part.className} is cut ("${part.textContent}")`);
        if (part.tagName === 'SPAN' && part.getClientRects().length > 1) out.push(`${part.className} wraps ("${part.textContent}")`);
      }
      return out;
    });
    expect(problems).toEqual([]);
    const texts = await page.$$eval('.strata-context-summary > span', (els) => els.map((e) => e.textContent ?? ''));
    expect(texts).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+ attached$/), expect.stringMatching(/cached$/)]));
  });

  test('a wide table in a reply scrolls sideways in its own box, no word broken', async () => {
    await send(TABLE);
    const table = '.strata-message.is-assistant:last-child .strata-message-body table';
    await page.waitForSelector(table);
    const measured = await page.evaluate((sel) => {
      const tableEl = document.querySelector(sel) as HTMLElement;
      const body = tableEl.closest('.strata-message-body') as HTMLElement;
      // The box that scrolls: the table or a wrapper of it inside the reply.
      let scroller: HTMLElement | null = tableEl;
      while (scroller && scroller !== body && !/^(auto|scroll)$/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      const broken: string[] = [];
      for (const cell of Array.from(tableEl.querySelectorAll('th, td'))) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (const m of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index ?? 0);
            range.setEnd(node, (m.index ?? 0) + m[0].length);
            if (range.getClientRects().length > 1) broken.push(m[0]);
          }
        }
      }
      const view = document.querySelector('.strata-messages') as HTMLElement;
      return {
        scrolls: scroller !== null && scroller !== body,
        scrollWidth: scroller?.scrollWidth ?? 0,
        clientWidth: scroller?.clientWidth ?? 0,
        withinReply: scroller ? scroller.getBoundingClientRect().right <= body.getBoundingClientRect().right + 0.5 : false,
        broken,
        viewScrollsSideways: view.scrollWidth > view.clientWidth + 1,
      };
    }, table);
    expect(measured.scrolls).toBe(true);
    expect(measured.scrollWidth).toBeGreaterThan(measured.clientWidth);
    expect(measured.withinReply).toBe(true);
    expect(measured.broken).toEqual([]);
    expect(measured.viewScrollsSideways).toBe(false);
    await page.locator(table).scrollIntoViewIfNeeded();
    await shoot('reply-table-300');
    await narrow(false);
    await page.locator(table).scrollIntoViewIfNeeded();
    await shoot('reply-table-wide');
  });
});
