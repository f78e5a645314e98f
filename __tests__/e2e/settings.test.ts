/**
 * The settings tab in the browser workbench: providers with keys in SecretStorage (never in
 * data.json), default model, prompts, chat folder and context settings; a chat uses what was set.
 */
import { readFileSync } from 'node:fs';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md' });
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

function settingByName(name: string): string {
  return `.setting-item:has(> .setting-item-info .setting-item-name:text-is("${name}"))`;
}

test('settings: providers, API key in secret storage, defaults, context; screenshots in both themes', async () => {
  const { page } = wb;
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings');
  const headings = await page.$$eval('.strata-settings .setting-item-heading .setting-item-name', (els) => els.map((e) => e.textContent));
  expect(headings).toEqual(['Providers', 'Chat', 'Context']);
  expect(await page.$$eval('.strata-settings-provider', (els) => els.length)).toBe(3);
  await wb.screenshot('settings-light');
  await wb.setTheme('dark');
  await wb.screenshot('settings-dark');
  await wb.setTheme('light');

  // A new key typed into the first provider's SecretComponent goes to SecretStorage only.
  const provider = page.locator('.strata-settings-provider').first();
  await provider.locator('.secret-component-id').fill('my-openai-key');
  await provider.locator('.secret-component-id').dispatchEvent('change');
  await provider.locator('.secret-component-value').fill('sk-secret-typed-in-settings');
  await provider.locator('.secret-component-value').dispatchEvent('change');
  // Default model, system prompt, memory and a context setting.
  await page.selectOption(`${settingByName('Default model')} select`, 'local-openai::gpt-4o-mini');
  await page.fill(`${settingByName('System prompt')} textarea`, 'You are a careful gardener.');
  await page.fill(`${settingByName('Model window sizes')} textarea`, 'gpt-4o-mini = 64000');
  await wb.flush();
  const data = readFileSync(wb.dataJsonPath, 'utf8');
  expect(data).not.toContain('sk-secret-typed-in-settings');
  const saved = JSON.parse(data) as { providers: { id: string; secretId?: string }[]; defaultModel: string; systemPrompt: string; contextWindows: Record<string, number> };
  expect(saved.providers[0].secretId).toBe('my-openai-key');
  expect(saved.defaultModel).toBe('gpt-4o-mini');
  expect(saved.systemPrompt).toBe('You are a careful gardener.');
  expect(saved.contextWindows).toEqual({ 'gpt-4o-mini': 64000 });
  await wb.closeSettings();

  // A new chat uses them: the model, the window override, the system prompt and the stored key.
  expect(await wb.runCommand('strata:new-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
  expect(await page.inputValue('select.strata-model-picker')).toBe('local-openai::gpt-4o-mini');
  await page.fill('.strata-composer textarea', 'Hello');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForSelector('.strata-message.is-assistant .strata-turn-meta');
  const request = wb.providerServer?.requests.at(-1);
  expect(request?.body.model).toBe('gpt-4o-mini');
  expect(JSON.stringify(request?.body.messages)).toContain('You are a careful gardener.');
  expect(request?.headers.authorization).toBeDefined();
  await page.click('.strata-context-summary');
  expect(await page.textContent('.strata-usage-total')).toMatch(/of 59,904 tokens/);
  // The chat note holds no key either.
  await wb.flush();
  const notes = await page.evaluate(() => (window as unknown as { workbench: { app: { vault: { getMarkdownFiles(): { path: string }[] } } } }).workbench.app.vault.getMarkdownFiles().map((f) => f.path));
  const chat = notes.find((p) => p.startsWith('Strata/Chats/'));
  expect(chat).toBeDefined();
  expect(await wb.readVaultFile(chat ?? '')).not.toContain('sk-');
});
