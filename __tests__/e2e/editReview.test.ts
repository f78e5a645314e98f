/**
 * The review of a proposed edit in the chat (issue 28), in the workbench: a proposal the agent
 * waits on (given to the chat view's ProposalReviewer, as the agent loop does) shows as a diff with
 * the changed words marked; each hunk is accepted, rejected or edited from the keyboard alone, a
 * reason goes with a rejection, and the outcome is what the user decided; a stop takes the review
 * away with an AbortError. Screenshots at 300 px and wide, light and dark; nothing scrolls sideways.
 */
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { proposalOf } from '../../src/core/edits/lineDiff';
import type { EditProposal } from '../../src/core/edits/proposal';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

let wb: Workbench;
let page: Page;

const PATH = 'Projects/Greenhouse/Plan.md';

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PATH, viewport: { width: 1200, height: 1200 }, settings: { generateTitles: false } });
  page = wb.page;
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

/** The agent's restructure of the plan: a reworded sentence, a new section, a changed question. */
function restructure(): EditProposal {
  const base = readFileSync(join(wb.vaultDir, PATH), 'utf8');
  const proposed = base
    .replace('We are building a 3 m × 4 m polycarbonate greenhouse on the south side of the garden.', 'We are building a 3 m × 4 m polycarbonate greenhouse against the south wall of the garden, where it gets sun from morning until late afternoon.')
    .replace('## Open questions', '## Timeline\n- March: foundation and frame.\n- April: panels, vents and barrels.\n\n## Open questions')
    .replace('- Do we need shade cloth in July? #question', '- Do we need shade cloth in July and August? #question');
  return proposalOf({ id: 'call_1_1', kind: 'edit', path: PATH, baseText: base, proposedText: proposed, toolCallId: 'call_1_1' });
}

/**
 * Hands a proposal to the chat view's reviewer as a write tool does (submitProposal: the session's
 * onProposed puts it in the shown chat's waiting list, in the hub every view shares, then the reviewer is asked); the outcome (or
 * the error's name) lands on window.__review.
 */
async function propose(proposal: EditProposal): Promise<void> {
  await page.evaluate((p) => {
    const w = window as unknown as WorkbenchWindow & { __review?: unknown; __stop?: () => void };
    type Edits = { changeWaiting(chat: unknown, change: (list: unknown[]) => unknown[]): void };
    const view = w.workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as {
      reviews: { review(p: unknown, s: AbortSignal): Promise<unknown> };
      controller: { hub: { edits: Edits }; chat: unknown };
    };
    view.controller.hub.edits.changeWaiting(view.controller.chat, (list) => [...list, p]);
    const stop = new AbortController();
    w.__stop = () => stop.abort();
    w.__review = 'pending';
    view.reviews.review(p, stop.signal).then(
      (outcome) => (w.__review = outcome),
      (error: Error) => (w.__review = error.name),
    );
  }, proposal as unknown as Record<string, unknown>);
}

const outcome = () => page.evaluate(() => (window as unknown as { __review?: unknown }).__review);
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? document.activeElement?.className ?? null);

test('a proposal shows as a diff with its changed words marked, readable at 300 px and wide, light and dark', async () => {
  const proposal = restructure();
  expect(proposal.hunks.map((h) => h.id)).toEqual(['h1', 'h2', 'h3']);
  await propose(proposal);
  const card = page.locator('.strata-review[data-proposal="call_1_1"]');
  await card.waitFor();
  expect(await card.locator('.strata-review-title').textContent()).toBe(`Edit ${PATH} · 3 changes`);
  expect(await card.locator('.strata-hunk-where').allTextContents()).toEqual(['Line 7', 'After line 13', 'Line 16']);
  // Changed words inside the paired lines; a line of context around each hunk.
  expect(await card.locator('.strata-hunk[data-hunk="h1"] del.strata-diff-word').allTextContents()).toEqual(expect.arrayContaining(['on']));
  expect((await card.locator('.strata-hunk[data-hunk="h1"] ins.strata-diff-word').allTextContents()).join('')).toContain('against');
  expect(await card.locator('.strata-hunk[data-hunk="h3"] ins.strata-diff-word').allTextContents()).toEqual([' and August']);
  expect(await card.locator('.strata-hunk[data-hunk="h2"] .strata-diff-line.is-added').count()).toBe(4);
  expect(await card.locator('.strata-hunk[data-hunk="h1"] .strata-diff-line.is-context').count()).toBe(2);
  // The first change to decide has the focus; sending waits until all are decided.
  expect(await focused()).toBe('h1:accept');
  expect(await card.locator('.strata-review-apply').isDisabled()).toBe(true);
  expect(await card.locator('.strata-review-status').textContent()).toBe('0 of 3 decided');

  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const sideways = await page.$eval('.strata-messages', (el) => el.scrollWidth - el.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await wb.screenshotThemes(`edit-review-${width}`, { selector: '.workspace-split.mod-right-split' });
  }
  await wb.narrowSidebar(false);
});

test('keyboard only: accept, reject with a reason, edit the text (Escape cancels, Ctrl+Enter keeps), then send', async () => {
  const card = page.locator('.strata-review[data-proposal="call_1_1"]');
  await card.locator('[data-focus="h1:accept"]').focus();
  await page.keyboard.press('Enter');
  expect(await card.locator('.strata-hunk[data-hunk="h1"]').getAttribute('class')).toContain('is-accepted');
  expect(await focused()).toBe('h2:accept');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('h2:reject');
  await page.keyboard.press('Enter');
  expect(await card.locator('.strata-hunk[data-hunk="h2"]').getAttribute('class')).toContain('is-rejected');
  expect(await focused()).toBe('h3:accept');
  // E edits the hunk's text; Escape leaves it as it was.
  await page.keyboard.press('e');
  expect(await focused()).toBe('h3:input');
  await page.keyboard.type(' maybe');
  await page.keyboard.press('Escape');
  expect(await focused()).toBe('h3:edit');
  expect(await card.locator('.strata-hunk-input').count()).toBe(0);
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('h3:input');
  await page.keyboard.press('End');
  await page.keyboard.type(' Ask Jo.');
  await page.keyboard.press('Control+Enter');
  expect(await card.locator('.strata-hunk[data-hunk="h3"]').getAttribute('class')).toContain('is-edited');
  expect(await card.locator('.strata-hunk[data-hunk="h3"] .strata-diff-line.is-added').textContent()).toContain('Ask Jo.');
  // All decided: the send button has the focus; the reason box (a change was rejected) is just before it.
  expect(await focused()).toBe('submit');
  expect(await card.locator('.strata-review-status').textContent()).toBe('2 accepted, 1 rejected');
  expect(await card.locator('.strata-review-apply').textContent()).toBe('Apply 2 changes');
  await page.keyboard.press('Shift+Tab');
  expect(await focused()).toBe('reason');
  await page.keyboard.type('No timeline yet');
  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    await card.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await wb.screenshotThemes(`edit-review-decided-${width}`, { selector: '.workspace-split.mod-right-split' });
  }
  await wb.narrowSidebar(false);
  await card.locator('.strata-review-reason').focus();
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('submit');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (window as unknown as { __review?: unknown }).__review !== 'pending');
  expect(await outcome()).toEqual({
    decisions: [
      { hunkId: 'h1', action: 'accept' },
      { hunkId: 'h2', action: 'reject' },
      { hunkId: 'h3', action: 'edit', editedLines: ['- Do we need shade cloth in July and August? #question Ask Jo.'] },
    ],
    reason: 'No timeline yet',
  });
  await card.waitFor({ state: 'detached' });
});

test('accept all sends every hunk; a stop takes the review away with an AbortError; the same id again is shown as a conflict', async () => {
  const proposal = restructure();
  await propose(proposal);
  const card = page.locator('.strata-review[data-proposal="call_1_1"]');
  await card.waitFor();
  // Reviewed before under this id: the note changed meanwhile and these are shown again.
  expect(await card.locator('.strata-review-again').textContent()).toContain('The note changed while you were reviewing');
  await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await wb.narrowSidebar(true);
  await wb.screenshotThemes('edit-review-again-300', { selector: '.workspace-split.mod-right-split' });
  await wb.narrowSidebar(false);
  await page.evaluate(() => (window as unknown as { __stop: () => void }).__stop());
  await card.waitFor({ state: 'detached' });
  expect(await outcome()).toBe('AbortError');

  await propose({ ...proposal, id: 'call_2_1' });
  const next = page.locator('.strata-review[data-proposal="call_2_1"]');
  await next.waitFor();
  await next.locator('.strata-review-accept-all').focus();
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('submit');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (window as unknown as { __review?: unknown }).__review !== 'pending');
  expect(await outcome()).toEqual({ decisions: ['h1', 'h2', 'h3'].map((hunkId) => ({ hunkId, action: 'accept' })) });
  expect(await wb.errors()).toEqual([]);
});

test('accepted changes not written (the user changed those lines meanwhile) are shown again until dismissed, each with its proposed lines to copy', async () => {
  const proposal = restructure();
  await page.evaluate(
    ({ p, conflicts }) => {
      const w = window as unknown as WorkbenchWindow;
      const view = w.workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { reviews: { settled(p: unknown, r: unknown): void } };
      view.reviews.settled(p, { status: 'partly-applied', applied: ['h1', 'h2'], rejected: [], conflicts });
    },
    { p: proposal as unknown as Record<string, unknown>, conflicts: [proposal.hunks[2]] as unknown as Record<string, unknown>[] },
  );
  const box = page.locator('.strata-review-conflicts[data-proposal="call_1_1"]');
  await box.waitFor();
  expect(await box.locator('.strata-review-again').textContent()).toContain(`1 change to ${PATH} not written: you changed those lines while the edit waited.`);
  expect(await box.locator('.strata-hunk-where').allTextContents()).toEqual(['Line 16 (as it was)']);
  await box.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await wb.narrowSidebar(true);
  await wb.screenshotThemes('edit-review-unwritten-300', { selector: '.workspace-split.mod-right-split' });
  await wb.narrowSidebar(false);
  await box.locator('.strata-conflict-dismiss').focus();
  await page.keyboard.press('Enter');
  await box.waitFor({ state: 'detached' });
});

test('edits the chat applied, read from the chat note, show under the turn they were applied in, after reopening the chat', async () => {
  await page.fill('.strata-composer textarea', 'Restructure the plan, please.');
  await page.press('.strata-composer textarea', 'Enter');
  await page.locator('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').last().waitFor({ timeout: 30_000 });
  await wb.flush();
  const proposal = restructure();
  // The record the edit session keeps in the chat note (records/edits.ts), written as a save would.
  const id = await page.evaluate(async (hunks) => {
    const { app } = (window as unknown as WorkbenchWindow).workbench;
    const view = app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { controller: { chatId: string }; openSavedChat(id: string): void; newChat(): void };
    const chatId = view.controller.chatId;
    const file = app.vault.getMarkdownFiles().find((f) => f.path.startsWith('Strata/Chats/') && (app.metadataCache.getFileCache(f)?.frontmatter?.strata as { id?: string } | undefined)?.id === chatId);
    if (!file) throw new Error('no chat note');
    const at = new Date(Date.now() + 1000).toISOString();
    await app.fileManager.processFrontMatter(file, (fm: Record<string, unknown>) => {
      (fm.strata as Record<string, unknown>).edits = [
        { proposalId: 'call_1_1', kind: 'edit', path: 'Projects/Greenhouse/Plan.md', beforeHash: 'b'.repeat(64), afterHash: 'a'.repeat(64), hunks: hunks.slice(0, 2), at, summary: 'Edit Projects/Greenhouse/Plan.md: 2 hunks' },
        { proposalId: 'call_2_1', kind: 'rename', path: 'Notes/Ideas.md', newPath: 'Notes/Archive/Ideas.md', beforeHash: 'c'.repeat(64), afterHash: 'c'.repeat(64), hunks: [], at, summary: 'Move', undone: true },
      ];
    });
    return chatId;
  }, proposal.hunks as unknown as Record<string, unknown>[]);
  await page.click('.strata-new-chat');
  await page.waitForSelector('.strata-empty');
  await page.evaluate((chatId) => {
    const view = (window as unknown as WorkbenchWindow).workbench.app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { openSavedChat(id: string): void };
    view.openSavedChat(chatId);
  }, id);
  const applied = page.locator('.strata-message.is-assistant .strata-applied-edit');
  await applied.first().waitFor({ timeout: 15_000 });
  expect(await applied.locator('.strata-applied-text').allTextContents()).toEqual(['Edited Projects/Greenhouse/Plan.md · 2 changes', 'Undone: Moved to Notes/Archive/Ideas.md']);
  expect(await page.locator('.strata-applied-edit.is-undone').count()).toBe(1);
  // The changes as written, folded until opened (from the keyboard).
  await applied.first().locator('.strata-applied-details > summary').focus();
  await page.keyboard.press('Enter');
  await applied.first().locator('.strata-diff').first().waitFor();
  expect(await applied.first().locator('.strata-diff').count()).toBe(2);
  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    await applied.first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await wb.screenshotThemes(`edit-applied-${width}`, { selector: '.workspace-split.mod-right-split' });
  }
  await wb.narrowSidebar(false);
  expect(await wb.errors()).toEqual([]);
});
