/**
 * A failed message the user moved on from stays in the chat as "not answered" (shown, saved, never
 * sent again), in a 300 px sidebar; reopened from the history, it is still there. Screenshots at
 * 300 px, light and dark.
 */
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
let wb: Workbench;

beforeAll(async () => {
  // This file counts and reads requests and titles as the first message gave them: no generated titles.
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1000, height: 800 }, settings: { generateTitles: false } });
  // The narrowest sidebar people use.
  await wb.page.addStyleTag({ content: '.workspace-split.mod-right-split { width: 300px !important; }' });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const answered = () => wb.page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (e) => e.length);

async function send(text: string): Promise<void> {
  await wb.page.fill('.strata-composer textarea', text);
  await wb.page.press('.strata-composer textarea', 'Enter');
}

test('a failed message followed by another stays as not answered, also after reopening the chat', async () => {
  const { page } = wb;
  const server = wb.providerServer;
  if (!server) throw new Error('no provider server');
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-chip.is-active-note');
  await send('First, what is the plan?');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
  server.injectFault({ kind: 'status', status: 500, times: 3 });
  await send('This one will fail');
  await page.waitForSelector('.strata-message.is-error .strata-retry');
  await send('Something else instead');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 2);
  const unanswered = page.locator('.strata-message.is-unanswered');
  await expect(unanswered.count()).resolves.toBe(1);
  expect(await unanswered.locator('.strata-message-body').textContent()).toBe('This one will fail');
  expect(await page.textContent('.strata-unanswered-note')).toMatch(/^Not answered: .*500/);
  expect(await page.$('.strata-retry')).toBeNull();
  await wb.screenshot('unanswered-300-light');
  await wb.setTheme('dark');
  await wb.screenshot('unanswered-300-dark');
  await wb.setTheme('light');
  const sent = JSON.stringify(server.requests.at(-1)?.body ?? {});
  expect(sent).not.toContain('This one will fail');
  await wb.flush();

  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.click('.strata-history-item .strata-history-main');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForSelector('.strata-message.is-unanswered');
  expect(await answered()).toBe(2);
  expect(await page.locator('.strata-message.is-unanswered .strata-message-body').textContent()).toBe('This one will fail');
  expect(await page.$('.strata-composer textarea[disabled]')).toBeNull();
}, 120_000);
