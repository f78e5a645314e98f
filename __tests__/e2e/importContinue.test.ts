/**
 * Continuing an imported Copilot chat in the real bundle (issue 12, bug 9): the Copilot note the
 * chat came from is not attached to the next message (its active-note chip starts off), imported
 * replies say "imported" instead of "0 in · 0 out", and the first message after the import is an
 * ordinary request: no note-edited break, no reopen warning, the Copilot transcript not in it.
 * Screenshots at 300 px and wide, light and dark.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

const SOURCE = 'copilot-conversations/Greenhouse ventilation.md';
const COPILOT_CHAT = readFileSync(join(__dirname, '..', 'core', 'conversation', 'fixtures', 'copilot-paths.md'), 'utf8');
let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light' });
  page = wb.page;
  await wb.writeVaultFile(SOURCE, COPILOT_CHAT);
  await wb.openNote(SOURCE);
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

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

test('an imported Copilot chat continues without its source note, says its replies were imported, and breaks nothing', async () => {
  expect(await wb.runCommand('strata:import-copilot-chat')).toBe(true);
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-user').length === 2);
  // The Copilot note is still the open note, but not attached: its chip is off.
  const chip = page.locator('.strata-composer .strata-chip.is-active-note');
  await expect(chip.locator('.strata-chip-label').textContent()).resolves.toBe('Greenhouse ventilation');
  await expect(chip.getAttribute('class')).resolves.toContain('is-off');
  expect(await page.$$eval('.strata-turn-meta', (els) => els.map((e) => (e.textContent ?? '').trim()))).toEqual(['imported', 'imported']);
  expect(await page.$$eval('.strata-warning', (els) => els.map((e) => e.textContent))).toEqual([]);
  await shoot('import-continue-imported');

  await page.fill('.strata-composer textarea', 'Are the vents enough?');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 3);
  const chips = await page.$$eval('.strata-message.is-user', (els) => Array.from(els.at(-1)?.querySelectorAll('.strata-chip-label') ?? []).map((e) => e.textContent));
  expect(chips).toEqual([]);
  expect(await page.$$('.strata-prefix-change')).toHaveLength(0);
  const meta = await page.$$eval('.strata-turn-meta', (els) => els.map((e) => (e.textContent ?? '').trim()));
  expect(meta.slice(0, 2)).toEqual(['imported', 'imported']);
  expect(meta[2]).toMatch(/^[\d.,k]+ in · [\d.,k]+ out · /);
  const last = await page.$$eval('.strata-message.is-assistant .strata-message-body', (els) => (els.at(-1)?.textContent ?? '').trim());
  expect(last).toContain('Projects/Greenhouse/Plan.md');
  expect(last).not.toContain('copilot-conversations');
  const sent = JSON.stringify(wb.providerServer.requests.at(-1)?.body ?? {});
  expect(sent).toContain('Are the vents enough?');
  expect(sent).not.toContain('copilot-conversations/Greenhouse ventilation.md');
  expect(await page.$$eval('.strata-warning', (els) => els.map((e) => e.textContent))).toEqual([]);
  await shoot('import-continue-next');
}, 120_000);
