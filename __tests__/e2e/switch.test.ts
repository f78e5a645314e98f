/**
 * Two chats with the same words: opening one from the history shows its own chips and reply, never
 * the other chat's (the message list reuses rendered elements only within one chat).
 */
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';
let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

async function send(text: string): Promise<void> {
  const { page } = wb;
  const before = await page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (e) => e.length);
  await page.fill('.strata-composer textarea', text);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(([n]) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, [before]);
}

const chips = () => wb.page.$$eval('.strata-message.is-user .strata-chip-label', (els) => els.map((e) => e.textContent));
const replies = () => wb.page.$$eval('.strata-message.is-assistant .strata-message-body', (els) => els.map((e) => (e.textContent ?? '').trim()));

test('opening a chat from the history shows that chat, even when another has the same words', async () => {
  const { page } = wb;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-chip.is-active-note');
  await send('Summarize this note');
  expect(await chips()).toEqual(['Plan']);
  await wb.flush();
  await page.click('.strata-new-chat');
  await wb.openNote(VENT);
  await page.waitForFunction(() => document.querySelector('.strata-chip.is-active-note .strata-chip-label')?.textContent === 'Ventilation');
  await send('Summarize this note');
  expect(await chips()).toEqual(['Ventilation']);
  await wb.flush();

  await page.click('.strata-history-button');
  await page.waitForFunction(() => document.querySelectorAll('.strata-history-item').length === 2);
  await page.click('.strata-history-item:last-child .strata-history-main'); // the older chat (Plan)
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  await page.waitForFunction(() => document.querySelector('.strata-message.is-user .strata-chip-label')?.textContent === 'Plan');
  expect(await chips()).toEqual(['Plan']);
  const shown = await replies();
  expect(shown).toHaveLength(1);
  expect(shown[0]).toContain('Projects/Greenhouse/Plan.md');
  expect(shown[0]).not.toContain('Ventilation');
}, 120_000);
