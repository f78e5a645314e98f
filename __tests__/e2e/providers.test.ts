/**
 * Providers in the browser workbench (the real plugin bundle, the local provider server behind the
 * workbench's proxy): a retry-after wait shown in the message being answered, counting down, with
 * Cancel; the model picker naming the provider; the empty chat saying a key is missing, with a
 * button to settings; providers in settings collapsed to one line, Refresh models, Test connection,
 * temperature and max output tokens reaching the request. Screenshots at 300 px and wide, light and dark.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { ElementHandle } from 'playwright-core';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
let wb: Workbench;
let widthStyle: ElementHandle | null = null;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1000, height: 800 } });
  widthStyle = await wb.page.addStyleTag({ content: '.workspace-split.mod-right-split { width: 300px !important; }' });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

/** The right sidebar's width (300 px: the narrowest people use; 560: wide). */
async function sidebar(width: number): Promise<void> {
  await widthStyle?.evaluate((el: Element, w: number) => {
    el.textContent = `.workspace-split.mod-right-split { width: ${w}px !important; }`;
  }, width);
}

/** Screenshots in both themes at the current width. */
async function shots(name: string, selector?: string): Promise<void> {
  await wb.screenshot(`${name}-light`, selector ? { selector } : {});
  await wb.setTheme('dark');
  await wb.screenshot(`${name}-dark`, selector ? { selector } : {});
  await wb.setTheme('light');
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function send(text: string): Promise<void> {
  await wb.page.fill('.strata-composer textarea', text);
  await wb.page.press('.strata-composer textarea', 'Enter');
}

test('a retry-after wait: the message being answered says "retrying (2/3) in N s", counts down, and Cancel stops the send', async () => {
  const { page } = wb;
  const server = wb.providerServer;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-chip.is-active-note');
  server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 50 });
  await send('What is the plan?');
  const status = page.locator('.strata-message.is-streaming .strata-retry-status');
  await status.waitFor();
  const first = (await status.locator('.strata-retry-status-text').textContent()) ?? '';
  expect(first).toMatch(/^Rate limited: retrying \(2\/3\) in (50|49|48|47) s$/);
  expect(await status.getAttribute('title')).toBe('The provider asked to wait 50 s before trying again.');
  // It counts down (the view's own timer, from the wait's end).
  await page.waitForFunction((before) => {
    const text = document.querySelector('.strata-retry-status-text')?.textContent ?? before;
    return text !== before && /in \d+ s$/.test(text);
  }, first);
  await shots('retry-status-300');
  await sidebar(560);
  await shots('retry-status-wide');
  await sidebar(300);
  expect(server.requests).toHaveLength(1);

  await status.locator('.strata-retry-cancel').click();
  await page.waitForSelector('.strata-message.is-stopped');
  expect(await page.$('.strata-retry-status')).toBeNull();
  expect(await page.textContent('.strata-message.is-stopped .strata-error-text')).toBe('Stopped. Your message is kept: retry to send it again.');
  expect(await page.isVisible('.strata-message.is-stopped .strata-retry')).toBe(true);
  expect(server.requests).toHaveLength(1);
  // Sending something else keeps it as not answered.
  await send('Something else');
  await page.waitForSelector('.strata-message.is-unanswered');
  expect(await page.textContent('.strata-unanswered-note')).toBe('Not answered: you stopped the reply.');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
}, 180_000);

test('the model picker names the provider when closed and groups models by provider when open, at 300 px too', async () => {
  const { page } = wb;
  const picker = 'select.strata-model-picker';
  const read = () =>
    page.$eval(picker, (s) => {
      const select = s as HTMLSelectElement;
      return {
        chosen: select.selectedOptions[0]?.textContent,
        groups: [...select.querySelectorAll('optgroup')].map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.textContent)]),
      };
    });
  expect(await read()).toEqual({
    chosen: 'gpt-4o · Local OpenAI',
    groups: [
      ['Local OpenAI', ['gpt-4o · Local OpenAI', 'gpt-4o-mini']],
      ['Local OpenAI Responses', ['gpt-4o']],
      ['Local Anthropic', ['claude-sonnet-4-5']],
    ],
  });
  await page.selectOption(picker, 'local-anthropic::claude-sonnet-4-5');
  await page.waitForFunction(() => (document.querySelector('select.strata-model-picker') as HTMLSelectElement).selectedOptions[0]?.textContent === 'claude-sonnet-4-5 · Local Anthropic');
  expect((await read()).groups[0]).toEqual(['Local OpenAI', ['gpt-4o', 'gpt-4o-mini']]);
  // At 300 px the picker stays inside the header (it shrinks; the text is cut, not the layout).
  const fits = await page.$eval(picker, (s) => {
    const header = s.closest('.strata-header')?.getBoundingClientRect();
    const box = s.getBoundingClientRect();
    return header !== undefined && box.right <= header.right + 0.5 && box.left >= header.left - 0.5;
  });
  expect(fits).toBe(true);
  // …and shows the provider whole: the label is not cut (the mode picker goes to the next row instead).
  const whole = await page.$eval(picker, (s) => {
    const select = s as HTMLSelectElement;
    const style = getComputedStyle(select);
    const context = new OffscreenCanvas(1, 1).getContext('2d');
    if (!context) return false;
    context.font = style.font;
    const text = context.measureText(select.selectedOptions[0]?.textContent ?? '').width;
    return text + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) <= select.clientWidth;
  });
  expect(whole).toBe(true);
  await shots('model-picker-300', '.strata-header');
  await sidebar(560);
  await shots('model-picker-wide', '.strata-header');
  await sidebar(300);
  await page.selectOption(picker, 'local-openai::gpt-4o');
});

test('no API key: the empty chat says so, the composer waits, and the button opens Strata\'s settings', async () => {
  const { page } = wb;
  await page.click('.strata-new-chat');
  await page.waitForSelector('.strata-empty');
  expect(await page.$('.strata-setup-notice')).toBeNull();
  // The default provider's key is gone (a secret id nothing is stored under).
  await page.evaluate(async () => {
    const plugin = (window as unknown as WorkbenchWindow).workbench.plugin as unknown as { config: { providers: { secretId?: string }[] }; saveSettings(): Promise<void> };
    plugin.config.providers[0].secretId = 'nothing-stored-here';
    await plugin.saveSettings();
  });
  await page.waitForSelector('.strata-empty .strata-setup-notice');
  expect(await page.textContent('.strata-setup-notice-text')).toBe('No API key for Local OpenAI: add one in settings.');
  expect(await page.isDisabled('.strata-composer textarea')).toBe(true);
  expect(await page.getAttribute('.strata-composer textarea', 'placeholder')).toBe('No API key for Local OpenAI: add one in settings.');
  await shots('no-key-300');
  await sidebar(560);
  await shots('no-key-wide');
  await sidebar(300);

  // Another model on a provider with a key: the chat can send again.
  await page.selectOption('select.strata-model-picker', 'local-anthropic::claude-sonnet-4-5');
  await page.waitForSelector('.strata-setup-notice', { state: 'detached' });
  expect(await page.isDisabled('.strata-composer textarea')).toBe(false);
  await page.selectOption('select.strata-model-picker', 'local-openai::gpt-4o');
  await page.waitForSelector('.strata-setup-notice');

  await page.click('.strata-open-settings');
  await page.waitForSelector('.modal.mod-settings .strata-settings');
  expect(await page.textContent('.vertical-tab-nav-item.is-active')).toBe('Strata');
  expect(await page.textContent('.strata-settings-provider[data-provider="local-openai"] .strata-provider-key')).toBe('No key');
  await wb.closeSettings();
  await page.evaluate(async () => {
    const plugin = (window as unknown as WorkbenchWindow).workbench.plugin as unknown as { config: { providers: { secretId?: string }[] }; saveSettings(): Promise<void> };
    plugin.config.providers[0].secretId = 'workbench-openai-key';
    await plugin.saveSettings();
  });
  await page.waitForSelector('.strata-setup-notice', { state: 'detached' });
  expect(await page.isDisabled('.strata-composer textarea')).toBe(false);
});

test('settings: providers on one line each; expanded, Refresh models, Test connection, temperature and max output reach the request', async () => {
  const { page } = wb;
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings');
  expect(await page.$$eval('.strata-settings-provider[open]', (els) => els.length)).toBe(0);
  const summaries = await page.$$eval('.strata-provider-summary', (els) =>
    els.map((e) => [e.querySelector('.strata-provider-name')?.textContent, ...[...e.querySelectorAll('.strata-provider-facts > span')].map((s) => s.textContent)]),
  );
  expect(summaries).toEqual([
    ['Local OpenAI', 'OpenAI', '2 models', 'Key set'],
    ['Local OpenAI Responses', 'OpenAI Responses', '1 model', 'Key set'],
    ['Local Anthropic', 'Anthropic', '1 model', 'Key set'],
  ]);
  // Collapsed, a provider's fields are hidden.
  expect(await page.isVisible('.strata-settings-provider[data-provider="local-openai"] .secret-component-id')).toBe(false);
  await shots('settings-providers-collapsed', '.modal');

  const openai = page.locator('.strata-settings-provider[data-provider="local-openai"]');
  await openai.locator('.strata-provider-summary').click();
  await openai.locator('button:text-is("Refresh models")').click();
  await openai.locator('.strata-provider-status:text-matches("^2 new models added")').waitFor();
  expect(await openai.locator('.strata-provider-status').textContent()).toBe(
    '2 new models added: the provider lists 4 chat models; 8 others (embeddings, speech, images…) left out.',
  );
  expect(await openai.locator('.strata-provider-models').textContent()).toBe('4 models');
  await openai.locator('button:text-is("Test connection")').click();
  await openai.locator('.strata-provider-test-result.is-ok').waitFor();
  expect(await openai.locator('.strata-provider-test-result').textContent()).toMatch(/^Connected: gpt-4o answered in \d+ ms \(key set\)\.$|^Connected: gpt-4o answered in \d+\.\d s \(key set\)\.$/);
  await openai.locator('.strata-provider-summary').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shots('settings-provider-expanded', '.modal');
  await openai.locator('input[aria-label="Temperature"]').fill('0.4');
  await openai.locator('input[aria-label="Max output tokens"]').fill('3000');
  await openai.locator('input[aria-label="Max output tokens"]').fill('lots');
  expect(await openai.locator('.strata-settings-number:has(input[aria-label="Max output tokens"]) .strata-settings-error').textContent()).toMatch(/^Not saved: "lots" is not a token count/);
  await openai.locator('input[aria-label="Max output tokens"]').fill('3000');

  // An unreachable provider, in plain words.
  const anthropic = page.locator('.strata-settings-provider[data-provider="local-anthropic"]');
  await anthropic.locator('.strata-provider-summary').click();
  await anthropic.locator('.setting-item:has(.setting-item-name:text-is("Base URL")) input').fill(`http://127.0.0.1:${await closedPort()}`);
  await anthropic.locator('button:text-is("Test connection")').click();
  await anthropic.locator('.strata-provider-test-result.is-error').waitFor();
  expect(await anthropic.locator('.strata-provider-test-result').textContent()).toMatch(/^Unreachable: /);
  await anthropic.locator('.strata-provider-test-result').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shots('settings-provider-unreachable', '.modal');
  await anthropic.locator('.setting-item:has(.setting-item-name:text-is("Base URL")) input').fill(wb.providerUrl);

  await wb.flush();
  const saved = JSON.parse(readFileSync(wb.dataJsonPath, 'utf8')) as { providers: { id: string; models: string[]; temperature?: number; maxOutputTokens?: number }[] };
  expect(saved.providers[0]).toMatchObject({ id: 'local-openai', models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o4-mini'], temperature: 0.4, maxOutputTokens: 3000 });
  await wb.closeSettings();

  // The next chat sends them, and the picker lists the new models.
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => [...(document.querySelector('select.strata-model-picker') as HTMLSelectElement).options].some((o) => o.value === 'local-openai::o4-mini'));
  await send('Hello again');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  const body = wb.providerServer.requests.at(-1)?.body as Record<string, unknown>;
  expect(body).toMatchObject({ model: 'gpt-4o', temperature: 0.4, max_tokens: 3000 });
  const missing = await page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.missingIcons());
  expect(missing.filter((icon) => icon === 'timer' || icon === 'key-round')).toEqual([]);
  // The browser logs each failed request (the 429, the closed port); nothing else went wrong.
  expect((await wb.errors()).filter((e) => !e.startsWith('Failed to load resource:'))).toEqual([]);
}, 180_000);
