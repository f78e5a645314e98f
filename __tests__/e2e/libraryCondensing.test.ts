/**
 * The library under the budget in the browser (issue 27): a chat attaching a new note each turn on a
 * small window is never refused; older notes are condensed, the library panel marks them Condensed
 * with their form, and Send in full (from the keyboard) brings one back whole on the next request.
 * Screenshots at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { overflowing, send, startWorkbench, type Workbench } from './harness';

// gpt-4o with a 5,000-token window: 2,500 tokens of budget (half the window is kept for the reply).
const SETTINGS = { contextWindows: { 'gpt-4o': 5_000 }, generateTitles: false };
const NOTES = 9;

const sentence = (i: number, k: number) => `Entry ${k} of project ${i}: the team checks the vent motor every ${k + 2} days and logs the soil probe reading.`;
function noteText(i: number): string {
  const para = (k: number) => Array.from({ length: 4 }, (_, j) => sentence(i, k * 4 + j)).join(' ');
  return [`# Project ${i}`, '', '## Overview', para(0), '', '## Facts', `The codename of project ${i} is Falcon${100 + i}.`, '', '## Risks', para(1), ''].join('\n');
}

async function openPanel(page: Page): Promise<void> {
  if (!(await page.$('.strata-context-panel.is-open'))) await page.click('.strata-context-summary');
  await page.waitForSelector('.strata-library');
}

describe('library condensing', () => {
  let wb: Workbench;
  let page: Page;

  beforeAll(async () => {
    wb = await startWorkbench({ theme: 'light', viewport: { width: 1400, height: 1000 }, settings: SETTINGS });
    page = wb.page;
  }, 120_000);
  afterAll(async () => {
    await wb?.close();
  });

  test('a new note every turn is never refused; older ones show as Condensed; Send in full brings one back', async () => {
    for (let i = 1; i <= NOTES; i++) {
      const path = `Projects/Project ${i}.md`;
      await wb.writeVaultFile(path, noteText(i));
      await wb.openNote(path);
      if (!(await page.$('.strata-view'))) expect(await wb.runCommand('strata:open-chat')).toBe(true);
      await page.waitForFunction((p) => document.querySelector('.strata-chip.is-active-note')?.textContent?.includes(p) ?? false, `Project ${i}`);
      await send(page, `What is the codename of project ${i}?`);
      expect(await page.$('.strata-message.is-failed')).toBeNull();
    }
    const requests = wb.providerServer.requests.filter((r) => r.path.includes('chat/completions'));
    const system = JSON.stringify(requests.at(-1)?.body.messages[0]);
    expect(system).toContain('<condensed_library>');

    await openPanel(page);
    const condensed = page.locator('.strata-library-item:has(.strata-plan-badge.is-condensed)');
    expect(await condensed.count()).toBeGreaterThan(0);
    const first = condensed.first();
    const id = (await first.getAttribute('data-id')) ?? '';
    expect(await first.locator('.strata-library-rationale').textContent()).toMatch(/^Condensed to (its heading outline|a short summary|its path) to keep the chat in its budget/);
    expect(await first.locator('.strata-library-tokens').textContent()).toMatch(/^(outline|summary|listed), [\d.]+k? in full$/);
    expect(await overflowing(page)).toEqual([]);
    await first.scrollIntoViewIfNeeded();
    await wb.screenshotThemes('library-condensed-wide', { selector: '.workspace-leaf-content[data-type="strata-chat"]' });
    await wb.narrowSidebar(true);
    await first.scrollIntoViewIfNeeded();
    expect(await overflowing(page)).toEqual([]);
    await wb.screenshotThemes('library-condensed-300', { selector: '.workspace-leaf-content[data-type="strata-chat"]' });
    await wb.narrowSidebar(false);

    // Send in full from the keyboard: said, and the next request carries the note whole as a new version.
    const row = page.locator(`.strata-library-item[data-id="${id}"]`);
    await row.locator('.strata-library-full').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.strata-library-status')?.textContent?.includes('in full again') ?? false);
    expect(await page.textContent('.strata-library-status')).toContain('it will be sent in full again from the next request');
    await send(page, 'Thanks. And the first project again?');
    const last = JSON.stringify(wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).at(-1)?.body.messages);
    expect(last).toContain(`<note_context id=\\"${id}\\"`);
    expect(last).toMatch(/version=\\"2\\"/);
    expect(await wb.errors()).toEqual([]);
  }, 400_000);
});
