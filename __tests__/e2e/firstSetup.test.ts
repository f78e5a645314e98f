/**
 * Issue 29 item 1, a first setup in the browser: the default names a provider nobody added; the
 * first provider the user adds becomes the default, the Default model list offers its models at
 * once, and the empty chat (its notice and model picker) follows without reopening anything.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', settings: { providers: [], defaultProviderId: 'local-openai', defaultModel: 'gpt-4o', generateTitles: false } });
  page = wb.page;
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

test('the first provider added becomes the default; the empty chat and the pickers update at once', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-empty .strata-setup-notice');
  expect(await page.textContent('.strata-setup-notice-text')).toBe('No provider is set up: add one in settings.');

  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings');
  await page.click('.strata-settings button:text-is("Add provider")');
  const added = page.locator('.strata-settings-provider').first();
  await added.waitFor();
  await added.locator('.setting-item:has(.setting-item-name:text-is("Base URL")) input').fill(`${wb.providerUrl}/v1`);
  await added.locator('.setting-item:has(.setting-item-name:text-is("Models")) textarea').fill('gpt-4o-mini\ngpt-4o');
  // Offered and chosen in Default model without reopening the settings.
  const options = await page.$$eval('select.strata-default-model option', (els) => els.map((e) => (e as HTMLOptionElement).value));
  expect(options).toEqual(['provider-1::gpt-4o-mini', 'provider-1::gpt-4o']);
  expect(await page.inputValue('select.strata-default-model')).toBe('provider-1::gpt-4o-mini');
  await wb.screenshot('first-setup-settings');

  await wb.closeSettings();
  // The empty chat took the new default: no notice, the picker names the new provider, it can send.
  await page.waitForSelector('.strata-setup-notice', { state: 'detached' });
  expect(await page.inputValue('select.strata-model-picker')).toBe('provider-1::gpt-4o-mini');
  expect(await page.$eval('select.strata-model-picker', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('gpt-4o-mini · New provider');
  expect(await page.isDisabled('.strata-composer textarea')).toBe(false);
  const saved = JSON.parse(await wb.readVaultFile(`.obsidian/plugins/${wb.pluginId}/data.json`)) as { defaultProviderId: string; defaultModel: string };
  expect([saved.defaultProviderId, saved.defaultModel]).toEqual(['provider-1', 'gpt-4o-mini']);
  await wb.screenshotThemes('first-setup-chat');
});
