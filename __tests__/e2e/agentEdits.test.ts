/**
 * The issue 28 flow in the workbench, as a user runs it: the agent (scripted on the local provider
 * server by a `[[tool editNote …]]` line) proposes to restructure a note; the user reviews each
 * hunk from the keyboard in the chat, applies some and rejects one with a reason; the model is told;
 * the applied edit stays under the reply; after reopening the chat, Undo restores the note's bytes;
 * then a reply is applied to another note. Screenshots at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

let wb: Workbench;
let page: Page;
/** The plan as it was before the agent's edit. */
let original = '';

const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 1000 }, settings: { generateTitles: false } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? null);

const EDIT = {
  path: PLAN,
  edits: [
    { search: 'We are building a 3 m × 4 m polycarbonate greenhouse on the south side of the garden.', replace: 'We are building a 3 m × 4 m polycarbonate greenhouse against the south wall of the garden.' },
    { search: '## Open questions', replace: '## Timeline\n- March: foundation and frame.\n\n## Open questions' },
    { search: '- Do we need shade cloth in July? #question', replace: '- Do we need shade cloth in July and August? #question' },
  ],
};

test('the agent restructures a note: each hunk reviewed from the keyboard, some applied, one rejected with a reason; the model is told', async () => {
  const before = await wb.readVaultFile(PLAN);
  original = before;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
  await page.selectOption('select.strata-mode-picker', 'agent');
  await page.fill('.strata-composer textarea', `[[tool editNote ${JSON.stringify(EDIT)}]]\nRestructure the greenhouse plan.`);
  await page.press('.strata-composer textarea', 'Enter');

  const card = page.locator('.strata-review');
  await card.waitFor({ timeout: 30_000 });
  expect(await card.locator('.strata-review-title').textContent()).toBe(`Edit ${PLAN} · 3 changes`);
  // The review took the focus: the first change's Accept.
  expect(await focused()).toBe('h1:accept');
  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await wb.screenshotThemes(`agent-edit-review-${width}`, { selector: '.workspace-split.mod-right-split' });
  }
  await wb.narrowSidebar(false);
  await page.keyboard.press('Enter'); // h1 accepted
  await page.keyboard.press('r'); // h2 rejected
  expect(await focused()).toBe('h3:accept');
  await page.keyboard.press('a'); // h3 accepted
  expect(await focused()).toBe('submit');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.type('No timeline yet');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');

  const answer = page.locator('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').last();
  await answer.locator('.strata-applied-edit').waitFor({ timeout: 30_000 });
  const after = await wb.readVaultFile(PLAN);
  expect(after).toBe(before.replace(EDIT.edits[0].search, EDIT.edits[0].replace).replace(EDIT.edits[2].search, EDIT.edits[2].replace));
  expect(await answer.locator('.strata-applied-text').textContent()).toBe(`Edited ${PLAN} · 2 changes`);
  // The model read the outcome (the tool's result) and answered.
  const lastRequest = JSON.stringify(wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).at(-1)?.body);
  expect(lastRequest).toContain('Partly applied');
  expect(lastRequest).toContain('No timeline yet');
  expect(await answer.locator('.strata-message-body').textContent()).toContain('Tools used: editNote.');
});

test('after reopening the chat, Undo puts the note back byte for byte; the edit says Undone', async () => {
  await wb.flush();
  const id = await page.evaluate(() => {
    const view = (window as unknown as WorkbenchWindow).workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { controller: { chatId: string } };
    return view.controller.chatId;
  });
  await wb.reload();
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.evaluate((chatId) => {
    const view = (window as unknown as WorkbenchWindow).workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { openSavedChat(id: string): void };
    view.openSavedChat(chatId);
  }, id);
  const applied = page.locator('.strata-applied-edit');
  await applied.waitFor({ timeout: 15_000 });
  await applied.locator('.strata-applied-undo').focus();
  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    await applied.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await wb.screenshotThemes(`agent-edit-applied-${width}`, { selector: '.workspace-split.mod-right-split' });
  }
  await wb.narrowSidebar(false);
  await applied.locator('.strata-applied-undo').focus();
  await page.keyboard.press('Enter');
  await page.locator('.strata-applied-edit.is-undone').waitFor({ timeout: 15_000 });
  expect(await page.locator('.strata-applied-text').textContent()).toBe(`Undone: Edited ${PLAN} · 2 changes`);
  expect(await wb.readVaultFile(PLAN)).toBe(original);
  expect((await wb.notices()).some((n) => n.startsWith(`Undone: ${PLAN} is back as it was`))).toBe(true);
});

test('a reply applied to another note from its menu', async () => {
  await page.selectOption('select.strata-mode-picker', 'chat');
  await page.fill('.strata-composer textarea', 'Openers: replace "Two roof vents" with "Three roof vents".');
  await page.press('.strata-composer textarea', 'Enter');
  const answer = page.locator('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').last();
  await answer.locator('.strata-message-body:has-text("Three roof vents")').waitFor({ timeout: 30_000 });
  await page.hover('.strata-message.is-assistant:not(.is-failed)');
  await answer.locator('.strata-reply-more').click();
  await page.click('.menu .menu-item:has-text("Apply to note…")');
  await page.waitForSelector('.prompt .suggestion-item');
  await page.keyboard.type('ventilation');
  await page.waitForFunction(() => document.querySelector('.prompt .suggestion-item.is-selected')?.textContent === 'Projects/Greenhouse/Ventilation.md');
  await page.keyboard.press('Enter');
  await page.locator('.modal.strata-review-modal .strata-review').waitFor({ timeout: 30_000 });
  expect(await focused()).toBe('h1:accept');
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('submit');
  await page.keyboard.press('Enter');
  await page.locator('.modal.strata-review-modal').waitFor({ state: 'detached' });
  // The write follows the modal's close (Vault.process), then its notice.
  for (let i = 0; i < 50 && !(await wb.notices()).includes('Applied 1 change to Ventilation.'); i++) await page.waitForTimeout(100);
  expect(await wb.notices()).toContain('Applied 1 change to Ventilation.');
  const applied = await wb.readVaultFile(VENT);
  expect(applied).toContain('Three roof vents (0.6 m² each)');
  // Recorded in the chat under the reply it came from: undone from there, the note is as it was.
  const record = answer.locator('.strata-applied-edit');
  await record.waitFor();
  expect(await record.locator('.strata-applied-text').textContent()).toBe(`Edited ${VENT} · 1 change`);
  await record.locator('.strata-applied-undo').focus();
  await page.keyboard.press('Enter');
  await answer.locator('.strata-applied-edit.is-undone').waitFor({ timeout: 15_000 });
  expect(await wb.readVaultFile(VENT)).toBe(applied.replace('Three roof vents (0.6 m² each)', 'Two roof vents (0.6 m² each)'));
  expect(await wb.errors()).toEqual([]);
});
