/**
 * Importing a chat saved by the Copilot plugin, from the command palette, in the real bundle: the
 * source note stays as it is, a Strata chat note is written, and the imported chat opens and
 * continues with its notes resolved from the vault.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorkbench, type Workbench } from './harness';

const SOURCE = 'copilot-conversations/Greenhouse ventilation.md';
const COPILOT_CHAT = readFileSync(join(__dirname, '..', 'core', 'conversation', 'fixtures', 'copilot-paths.md'), 'utf8');

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light' });
  await wb.writeVaultFile(SOURCE, COPILOT_CHAT);
  await wb.openNote(SOURCE);
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

test('the import command turns the open Copilot note into a Strata chat that can be continued', async () => {
  expect(await wb.runCommand('strata:import-copilot-chat')).toBe(true);
  const { page } = wb;
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-user').length === 2);
  const users = await page.$$eval('.strata-message.is-user > .strata-message-body', (els) => els.map((e) => (e.textContent ?? '').trim()));
  expect(users).toEqual(['How big are the vents in the greenhouse plan?', 'And how are the seedlings doing?']);
  expect((await wb.notices()).some((n) => n.startsWith('Imported 2 messages into Strata/Chats/'))).toBe(true);

  const chats = readdirSync(join(wb.vaultDir, 'Strata', 'Chats'));
  expect(chats).toHaveLength(1);
  const note = readFileSync(join(wb.vaultDir, 'Strata', 'Chats', chats[0]), 'utf8');
  expect(note).toContain('[[Projects/Greenhouse/Plan.md]]');
  expect(note).not.toContain('We are building a 3 m × 4 m polycarbonate greenhouse'); // never note contents
  expect(await wb.readVaultFile(SOURCE)).toBe(COPILOT_CHAT);

  // The imported chat continues: its library (Plan, Ventilation) goes along by reference or in full.
  await page.fill('.strata-composer textarea', 'Are the vents enough?');
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 3);
  const last = await page.$$eval('.strata-message.is-assistant .strata-message-body', (els) => (els[els.length - 1].textContent ?? '').trim());
  expect(last).toContain('Projects/Greenhouse/Plan.md');
  expect(last).toContain('Question: Are the vents enough?');
  await wb.screenshot('import-copilot-light');

  // Importing the same note again makes a second chat; the continued one is untouched.
  await wb.openNote(SOURCE);
  expect(await wb.runCommand('strata:import-copilot-chat')).toBe(true);
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant').length === 2);
  await wb.flush();
  const after = readdirSync(join(wb.vaultDir, 'Strata', 'Chats')).sort();
  expect(after).toHaveLength(2);
  const continued = after.map((f) => readFileSync(join(wb.vaultDir, 'Strata', 'Chats', f), 'utf8')).filter((t) => t.includes('Are the vents enough?'));
  expect(continued).toHaveLength(1);
});
