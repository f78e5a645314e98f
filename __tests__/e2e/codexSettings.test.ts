/**
 * The Codex CLI provider in the settings, in the browser workbench (the real plugin bundle): its
 * fields (executable, working directory, optional base URL and key), no model refresh, the note on
 * temperature, by keyboard. Screenshots light and dark (the settings modal; the 300 px rule is the sidebar's).
 */
import { startWorkbench, type Workbench } from './harness';

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench({
    theme: 'light',
    viewport: { width: 1000, height: 800 },
    settings: {
      providers: [{ id: 'codex', kind: 'codex', name: 'Codex', models: ['gpt-5-codex', 'codex-mini-latest'] }],
      defaultProviderId: 'codex',
      defaultModel: 'gpt-5-codex',
    },
  });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

async function shots(name: string): Promise<void> {
  await wb.screenshot(`${name}-light`, { selector: '.modal' });
  await wb.setTheme('dark');
  await wb.screenshot(`${name}-dark`, { selector: '.modal' });
  await wb.setTheme('light');
}

test('a Codex provider: CLI fields, optional base URL and key, no model refresh, reached by keyboard', async () => {
  const { page } = wb;
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings-provider[data-provider="codex"]');
  const codex = page.locator('.strata-settings-provider[data-provider="codex"]');
  expect(await codex.locator('.strata-provider-facts > span').allTextContents()).toEqual(['Codex', '2 models', 'No key needed']);
  // Opened from the keyboard: the summary takes focus and Enter expands it.
  await codex.locator('.strata-provider-summary').focus();
  await page.keyboard.press('Enter');
  await codex.locator('.strata-provider-body').waitFor();
  const names = await codex.locator('.setting-item-name').allTextContents();
  expect(names).toEqual(expect.arrayContaining(['Kind', 'Base URL', 'API key', 'Executable', 'Working directory', 'Models', 'Connection']));
  expect(await codex.locator('select').first().inputValue()).toBe('codex');
  expect(await codex.locator('.setting-item:has(.setting-item-name:text-is("Base URL")) .setting-item-description').textContent()).toContain('Responses API endpoint');
  expect(await codex.locator('.setting-item:has(.setting-item-name:text-is("API key")) .setting-item-description').textContent()).toContain('Optional');
  expect(await codex.locator('button:text-is("Refresh models")').count()).toBe(0);
  expect(await codex.locator('.strata-settings-note').first().textContent()).toBe('Codex chooses its own temperature and reply length: Strata sends neither.');
  await codex.locator('.setting-item:has(.setting-item-name:text-is("Executable")) input').fill('/opt/codex/bin/codex');
  await wb.flush();
  await codex.locator('.strata-provider-summary').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shots('settings-codex');
  await wb.closeSettings();
  expect((await wb.errors()).filter((e) => !e.startsWith('Failed to load resource:'))).toEqual([]);
}, 120_000);
