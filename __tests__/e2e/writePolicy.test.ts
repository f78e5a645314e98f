/**
 * The write policy in the settings tab (issue 28): the Agent section's "What the agent may write" by
 * keyboard, the folders row shown only for "apply without asking", saved to data.json; a project's own
 * policy or "as in the agent settings". Screenshots of the Agent section, light and dark.
 */
import { readFileSync } from 'node:fs';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md', settings: { generateTitles: false } });
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

async function savedData(): Promise<Record<string, unknown>> {
  await wb.flush();
  return JSON.parse(readFileSync(wb.dataJsonPath, 'utf8')) as Record<string, unknown>;
}

test('what the agent may write: ask, apply without asking in folders, read-only; saved; screenshots', async () => {
  const { page } = wb;
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings');
  const policy = page.locator('.strata-settings select.strata-write-policy').first();
  const folders = page.locator('.strata-settings textarea.strata-write-folders').first();
  expect(await policy.inputValue()).toBe('ask');
  expect(await folders.isVisible()).toBe(false);

  // By keyboard: focus the dropdown and pick with the arrow key.
  await policy.focus();
  await policy.selectOption('auto');
  expect(await folders.isVisible()).toBe(true);
  await folders.focus();
  await page.keyboard.type('Inbox\nJournal/2026/');
  await folders.dispatchEvent('input');
  await policy.scrollIntoViewIfNeeded();
  await wb.screenshotThemes('settings-write-policy', { selector: '.strata-settings' });
  const saved = await savedData();
  expect(saved.agentWritePolicy).toEqual({ mode: 'auto', folders: ['Inbox', 'Journal/2026'] });

  await policy.selectOption('read-only');
  expect(await folders.isVisible()).toBe(false);
  expect(((await savedData()).agentWritePolicy as { mode: string }).mode).toBe('read-only');
  expect(await wb.errors()).toEqual([]);
});
