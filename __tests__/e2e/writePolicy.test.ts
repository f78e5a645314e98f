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

test("one chat's own policy from the header, in Agent mode only: shown, picked by keyboard, kept in the chat", async () => {
  const { page } = wb;
  await page.keyboard.press('Escape');
  await page.waitForSelector('.strata-settings', { state: 'detached' });
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
  const button = page.locator('.strata-header .strata-chat-write-policy');
  await page.selectOption('select.strata-mode-picker', 'chat');
  expect(await button.isVisible()).toBe(false);
  await page.selectOption('select.strata-mode-picker', 'agent');
  expect(await button.isVisible()).toBe(true);
  // The settings say read-only (the test above): the chat follows them until it has its own.
  expect(await button.getAttribute('aria-label')).toBe('Note edits: Read-only (set by the settings)');
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('.menu');
  const items = await page.$$eval('.menu .menu-item', (els) => els.map((e) => e.textContent?.trim() ?? ''));
  expect(items).toEqual(['As set elsewhere: Read-only', 'Ask before every change', 'Read-only: the agent writes nothing']);
  await page.click('.menu .menu-item:has-text("Ask before every change")');
  await page.waitForSelector('.menu', { state: 'detached' });
  expect(await button.getAttribute('aria-label')).toBe('Note edits: Ask each time (set by this chat)');
  expect(await button.evaluate((el) => el.classList.contains('is-own'))).toBe(true);
  const policy = await page.evaluate(() => {
    const view = (window as unknown as { workbench: { app: { workspace: { getLeavesOfType(t: string): Array<{ view: unknown }> } } } }).workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as {
      controller: { edits: { policy(): { policy: { mode: string }; source: string } } };
    };
    return view.controller.edits.policy();
  });
  expect(policy).toEqual({ policy: { mode: 'ask', folders: [] }, source: 'chat' });
  await wb.screenshotThemes('chat-write-policy', { selector: '.strata-header' });
  expect(await wb.errors()).toEqual([]);
});
