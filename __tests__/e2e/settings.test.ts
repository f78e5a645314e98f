/**
 * The settings tab in the browser workbench: providers with keys in SecretStorage (never in
 * data.json), default model, prompts, chat folder and context settings; a chat uses what was set.
 */
import { readFileSync } from 'node:fs';
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  // This file counts and reads requests and titles as the first message gave them: no generated titles.
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md', settings: { generateTitles: false } });
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
  expect(headings).toEqual(['Providers', 'Chat', 'Projects', 'Context', 'Semantic search', 'Agent', 'Context budget', 'Context planning']);
  expect(await page.$$eval('.strata-settings-provider', (els) => els.length)).toBe(3);
  await wb.screenshot('settings-light');
  await wb.setTheme('dark');
  await wb.screenshot('settings-dark');
  await wb.setTheme('light');

  // A new key typed into the first provider's SecretComponent goes to SecretStorage only.
  const provider = page.locator('.strata-settings-provider').first();
  // Providers are one line each: expand the first to edit it.
  await provider.locator('.strata-provider-summary').click();
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
  expect(await wb.readVaultFile(chat ?? '')).not.toContain('sk-secret-typed-in-settings'); // the key itself: a random chat id may well contain 'sk-'
});

/** data.json as saved (after every write the page started). */
async function savedData(): Promise<Record<string, unknown>> {
  await wb.flush();
  return JSON.parse(readFileSync(wb.dataJsonPath, 'utf8')) as Record<string, unknown>;
}

test('context budget settings: numbers are checked (refused with a visible message, not saved), the rest saved; screenshots', async () => {
  const { page } = wb;
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings');
  const names = await page.$$eval('.strata-settings .setting-item:not(.setting-item-heading) .setting-item-name', (els) => els.map((e) => e.textContent));
  const budget = names.slice(names.indexOf('Max context tokens'));
  expect(budget).toEqual([
    'Max context tokens',
    'Reserved output tokens',
    'Newest messages always kept',
    'Auto-condense',
    'Condense threshold',
    'Max code lines',
    'Max output lines',
    'Summaries',
    'Summary model',
    // The context planning section follows (issue 15).
    'Planning',
    'Planner model',
  ]);
  // Each says what it does and its default.
  const descriptions = await page.$$eval('.strata-settings .setting-item', (els) =>
    Object.fromEntries(els.map((e) => [e.querySelector('.setting-item-name')?.textContent ?? '', e.querySelector('.setting-item-description')?.textContent ?? ''])),
  );
  expect(descriptions['Max context tokens']).toMatch(/Default 100,000\.$/);
  expect(descriptions['Reserved output tokens']).toMatch(/Default 4,096\.$/);
  expect(descriptions['Newest messages always kept']).toMatch(/Default 4\.$/);
  expect(descriptions['Condense threshold']).toMatch(/Default 80 %\.$/);
  expect(descriptions['Max code lines']).toMatch(/Default 500\.$/);
  expect(descriptions['Max output lines']).toMatch(/Default 200\.$/);
  expect(descriptions['Summary model']).toMatch(/Default: the chat's own model\.$/);

  const input = (name: string) => `${settingByName(name)} input[type="text"]`;
  const error = (name: string) => `${settingByName(name)} .strata-settings-error`;
  const before = await savedData();
  // Text, zero and a negative number are refused, said under the setting, and not saved.
  for (const [value, message] of [
    ['lots', /^Not saved: "lots" is not a whole number\. Enter a whole number, 1,000 or more\.$/],
    ['0', /^Not saved: 0 is out of range\. Enter a whole number, 1,000 or more\.$/],
    ['-5000', /^Not saved: -5000 is out of range\./],
    ['12.5', /^Not saved: "12\.5" is not a whole number\./],
  ] as const) {
    await page.fill(input('Max context tokens'), value);
    await page.waitForSelector(error('Max context tokens'), { state: 'visible' });
    expect(await page.textContent(error('Max context tokens'))).toMatch(message);
    expect(await page.getAttribute(input('Max context tokens'), 'aria-invalid')).toBe('true');
    expect((await savedData()).maxContextTokens).toBe(before.maxContextTokens);
  }
  await page.fill(input('Reserved output tokens'), '0');
  expect(await page.textContent(error('Reserved output tokens'))).toMatch(/^Not saved: 0 is out of range\. Enter a whole number, 1 or more\.$/);
  await page.fill(input('Max code lines'), 'ten');
  expect(await page.isVisible(error('Max code lines'))).toBe(true);
  await page.fill(input('Newest messages always kept'), '201');
  expect(await page.textContent(error('Newest messages always kept'))).toMatch(/from 0 to 200/);
  await wb.screenshot('settings-budget-invalid-light', { selector: '.modal' });
  let saved = await savedData();
  for (const key of ['reservedOutputTokens', 'maxCodeLines', 'keepMessages']) expect(saved[key]).toBe(before[key]);

  // Valid numbers (grouped digits too) are saved and the message goes away.
  await page.fill(input('Max context tokens'), '12,000');
  await page.fill(input('Reserved output tokens'), '2048');
  await page.fill(input('Newest messages always kept'), '6');
  await page.fill(input('Max code lines'), '300');
  await page.fill(input('Max output lines'), '150');
  for (const name of ['Max context tokens', 'Reserved output tokens', 'Newest messages always kept', 'Max code lines']) expect(await page.isVisible(error(name))).toBe(false);
  // The threshold slider (50–95 %), the summary model, and the toggles that disable what depends on them.
  await page.fill(`${settingByName('Condense threshold')} input[type="range"]`, '70');
  await page.selectOption(`${settingByName('Summary model')} select`, 'local-openai/gpt-4o-mini');
  const options = await page.$$eval(`${settingByName('Summary model')} option`, (els) => els.map((e) => [e.getAttribute('value'), e.textContent]));
  expect(options[0]).toEqual(['', "The chat's model"]);
  expect(options.map(([v]) => v)).toEqual(expect.arrayContaining(['local-openai/gpt-4o', 'local-responses/gpt-4o', 'local-anthropic/claude-sonnet-4-5']));
  saved = await savedData();
  expect(saved).toMatchObject({ maxContextTokens: 12_000, reservedOutputTokens: 2048, keepMessages: 6, maxCodeLines: 300, maxOutputLines: 150, condenseThreshold: 0.7, summaryModel: 'local-openai/gpt-4o-mini' });
  await page.click(`${settingByName('Auto-condense')} .checkbox-container`);
  expect(await page.isDisabled(`${settingByName('Condense threshold')} input[type="range"]`)).toBe(true);
  await page.click(`${settingByName('Summaries')} .checkbox-container`);
  expect(await page.isDisabled(`${settingByName('Summary model')} select`)).toBe(true);
  expect(await savedData()).toMatchObject({ autoCondense: false, summarize: false });
  await page.locator(settingByName('Context budget')).scrollIntoViewIfNeeded();
  await wb.screenshot('settings-budget-light', { selector: '.modal' });
  await wb.setTheme('dark');
  await wb.screenshot('settings-budget-dark', { selector: '.modal' });
  await wb.setTheme('light');

  // Reopened, the tab shows what was saved.
  await wb.closeSettings();
  await wb.openSettings('strata');
  expect(await page.inputValue(input('Max context tokens'))).toBe('12000');
  expect(await page.inputValue(`${settingByName('Condense threshold')} input[type="range"]`)).toBe('70');
  await wb.closeSettings();
  // The chat uses the new budget: gpt-4o-mini (64,000 window) is capped at 12,000 tokens; auto-condense off.
  await page.waitForFunction(() => /of 12,000 tokens$/.test(document.querySelector('.strata-context-tokens')?.getAttribute('aria-label') ?? ''));
  expect(await page.textContent('.strata-context-condense')).toBe('auto-condense off');
}, 180_000);

test('semantic search: off by default with its cost said plainly; turned on, the vault is embedded and the status says so; both saved', async () => {
  const { page } = wb;
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings');
  const toggle = `${settingByName('Use semantic search')} .checkbox-container`;
  expect(await page.locator(toggle).evaluate((el) => el.classList.contains('is-enabled'))).toBe(false);
  const model = `${settingByName('Embedding model')} input`;
  expect(await page.inputValue(model)).toBe('openai/text-embedding-3-small');
  expect(await page.isDisabled(model)).toBe(true);
  const note = await page.locator('.strata-settings-note', { hasText: 'by meaning' }).textContent();
  expect(note).toMatch(/\$0\.02 per million tokens/);
  expect(note).toMatch(/Ollama costs nothing/);
  await page.click(toggle);
  expect(await page.isDisabled(model)).toBe(false);
  const status = '.strata-semantic-status';
  await page.fill(model, ' local-openai/text-embedding-3-large ');
  expect(await savedData()).toMatchObject({ semanticSearch: true, embeddingModel: 'local-openai/text-embedding-3-large' });
  // The local provider server embeds every section in the background; the status follows while the tab is open.
  await page.waitForFunction(
    (sel) => /^(\d+) of \1 sections embedded with text-embedding-3-large\. So far: [\d,]+ embedding tokens, [^ ]+/.test(document.querySelector(sel)?.textContent ?? ''),
    status,
    { timeout: 30_000 },
  );
  await page.locator(settingByName('Status')).scrollIntoViewIfNeeded();
  await wb.screenshot('settings-semantic-light', { selector: '.modal' });
  await wb.setTheme('dark');
  await wb.screenshot('settings-semantic-dark', { selector: '.modal' });
  await wb.setTheme('light');
  await page.click(toggle);
  expect(await savedData()).toMatchObject({ semanticSearch: false });
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === 'Off: search ranks by words only.', status, { timeout: 10_000 });
  await wb.closeSettings();
}, 120_000);
