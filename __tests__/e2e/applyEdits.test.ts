/**
 * "Apply to note…" and "Edit with Strata…" in the workbench (issue 28), against the local provider
 * server's scripted apply model: a reply is applied to another note (picked in the note picker) as
 * a reviewed edit, a selection is edited by an instruction, each from the keyboard, with the call's
 * model and cost shown; only what was accepted is written. Screenshots wide and narrow, light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;
let page: Page;

const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';
const MODAL = '.modal.strata-review-modal';

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 900 }, settings: { generateTitles: false } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? document.activeElement?.className ?? null);
const editorText = () => page.$eval('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor', (el) => (el as HTMLTextAreaElement).value);

test('a reply applied to another note: picked from the keyboard, reviewed in a modal with its model and cost, the accepted change written', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.fill('.strata-composer textarea', 'Our openers: replace "Two roof vents (0.6 m² each)" with "Three roof vents (0.6 m² each)" and replace "push the roof vent" with "push each roof vent".');
  await page.press('.strata-composer textarea', 'Enter');
  const answer = page.locator('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').last();
  await answer.waitFor({ timeout: 30_000 });
  const before = await wb.readVaultFile(VENT);

  await page.hover('.strata-message.is-assistant:not(.is-failed)');
  await answer.locator('.strata-reply-more').click();
  await page.click('.menu .menu-item:has-text("Apply to note…")');
  // The picker lists the note being edited first; typing finds another.
  await page.waitForSelector('.prompt .suggestion-item');
  expect(await page.locator('.prompt .suggestion-item').first().textContent()).toBe(PLAN);
  expect(await page.locator('.prompt .suggestion-item').allTextContents()).not.toContain(expect.stringMatching(/^Strata\//));
  await page.keyboard.type('ventilation');
  await page.waitForFunction(() => document.querySelector('.prompt .suggestion-item.is-selected')?.textContent === 'Projects/Greenhouse/Ventilation.md');
  await page.keyboard.press('Enter');

  const modal = page.locator(MODAL);
  await modal.locator('.strata-review').waitFor({ timeout: 30_000 });
  expect(await modal.locator('.modal-title').textContent()).toBe('Apply the reply to Ventilation');
  expect(await modal.locator('.strata-review-meta').textContent()).toMatch(/^gpt-4o \(local-openai\) · [\d.]+k? in · [\d.]+k? out · .+ · predicted output$/);
  expect(await modal.locator('.strata-hunk').count()).toBe(2);
  expect(await focused()).toBe('h1:accept');
  await wb.screenshotThemes('apply-reply-modal-wide', { selector: MODAL });
  await page.setViewportSize({ width: 360, height: 800 });
  const sideways = await modal.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(sideways).toBeLessThanOrEqual(0);
  await wb.screenshotThemes('apply-reply-modal-360', { selector: MODAL });
  await page.setViewportSize({ width: 1200, height: 900 });

  // Keyboard only: the first change accepted, the second rejected, then sent.
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('h2:accept');
  await page.keyboard.press('r');
  expect(await focused()).toBe('submit');
  await page.keyboard.press('Enter');
  await modal.waitFor({ state: 'detached' });
  // The write follows the modal's close (Vault.process), then its notice.
  for (let i = 0; i < 50 && !(await wb.notices()).includes('Applied 1 change to Ventilation.'); i++) await page.waitForTimeout(100);
  const after = await wb.readVaultFile(VENT);
  expect(after).toBe(before.replace('push the roof vent', 'push each roof vent'));
  expect(await wb.notices()).toContain('Applied 1 change to Ventilation.');
  const applyRequest = wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).at(-1)?.body as { prediction?: { content: string } };
  expect(applyRequest.prediction?.content).toBe(before);
});

test('closing the modal while the model works writes nothing; a failed apply says why in the modal', async () => {
  const before = await wb.readVaultFile(PLAN);
  await page.hover('.strata-message.is-assistant:not(.is-failed)');
  await page.locator('.strata-message.is-assistant .strata-reply-more').last().click();
  await page.click('.menu .menu-item:has-text("Apply to note…")');
  await page.waitForSelector('.prompt .suggestion-item');
  wb.providerServer.injectFault({ kind: 'status', status: 500, times: 10 });
  await page.keyboard.press('Enter');
  const modal = page.locator(MODAL);
  await modal.locator('.strata-error-text').waitFor({ timeout: 30_000 });
  expect(await modal.locator('.strata-error-text').textContent()).toMatch(/^The apply model failed: /);
  wb.providerServer.clearFaults();
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
  expect(await wb.readVaultFile(PLAN)).toBe(before);
});

test('Edit with Strata: the editor menu and the command over a selection, an instruction, the change reviewed and written over the selection', async () => {
  await wb.openNote(PLAN);
  await wb.selectText('Keep the night temperature above 8 °C without a heater until November.');
  // The editor's context menu offers it with a selection.
  await page.dispatchEvent('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor', 'contextmenu');
  await page.waitForSelector('.menu .menu-item');
  expect(await page.locator('.menu .menu-item').allTextContents()).toContain('Edit with Strata…');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.menu', { state: 'detached' });
  const commands = await wb.listCommands();
  expect(commands.find((c) => c.id === 'strata:edit-selection')).toMatchObject({ name: 'Strata: Edit selection…', hotkeys: [] });

  await wb.selectText('Keep the night temperature above 8 °C without a heater until November.');
  const before = await editorText();
  expect(await wb.runCommand('edit-selection')).toBe(true);
  await page.waitForSelector('.strata-instruction-input');
  await page.keyboard.type('replace "8 °C" with "10 °C" and replace "November" with "December"');
  await wb.screenshotThemes('edit-selection-instruction', { selector: '.modal.strata-instruction-modal' });
  await page.keyboard.press('Enter');
  const modal = page.locator(MODAL);
  await modal.locator('.strata-review').waitFor({ timeout: 30_000 });
  expect(await modal.locator('.strata-hunk-where').allTextContents()).toEqual(['Line 11']);
  expect(await modal.locator('ins.strata-diff-word').allTextContents()).toEqual(['10', 'December']);
  expect(await modal.locator('.strata-review-meta').textContent()).toMatch(/^gpt-4o \(local-openai\) · /);
  await wb.screenshotThemes('edit-selection-review', { selector: MODAL });
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('submit');
  expect(await modal.locator('.strata-review-apply').textContent()).toBe('Replace the selection');
  await page.keyboard.press('Enter');
  await modal.waitFor({ state: 'detached' });
  expect(await editorText()).toBe(before.replace('above 8 °C without a heater until November.', 'above 10 °C without a heater until December.'));
  await wb.flush();
  expect(await wb.readVaultFile(PLAN)).toContain('above 10 °C without a heater until December.');
  expect((await wb.errors()).filter((e) => !e.includes('500'))).toEqual([]);
});
