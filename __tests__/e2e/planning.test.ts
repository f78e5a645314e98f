/**
 * Artifact planning in the browser (issue 15): a handbook far larger than a 16k window's budget is
 * attached; the chat plans it (deterministically, then with the planner model on the local server),
 * the library panel shows it as an extract with its tokens and reason, the reply's "Context plan"
 * says why and how, and the user's overrides (send in full, use the plan, exclude: confirmed, as a
 * prefix break) work from the keyboard. Screenshots at 300 px and wide, light and dark.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { handbook, handbookFact } from '../helpers/handbook';
import { overflowing, send, startWorkbench, type Workbench } from './harness';

const HANDBOOK = 'Handbook.md';
const LAST_REPLY = '.strata-messages > .strata-message.is-assistant:last-child';
const ROW = `.strata-library-item[data-id="${HANDBOOK}"]`;
// gpt-4o with a 16,000-token window: about 12k tokens of budget; the handbook is about 50k.
const SETTINGS = { contextWindows: { 'gpt-4o': 16_000 }, generateTitles: false };
// Beekeeping is section 6 of 12: the answer is in the middle of the handbook.
const BEES = handbookFact(5);
const BEES_CODE = /BE-\d+/.exec(BEES)?.[0] ?? '';

async function openPanel(page: Page): Promise<void> {
  if (!(await page.$('.strata-context-panel.is-open'))) await page.click('.strata-context-summary');
  await page.waitForSelector('.strata-library');
}

async function closePanel(page: Page): Promise<void> {
  if (await page.$('.strata-context-panel.is-open')) await page.click('.strata-context-summary');
}

/** Attach the handbook as the active note and open the chat. */
async function attachHandbook(wb: Workbench, text: string, path = HANDBOOK): Promise<void> {
  await wb.writeVaultFile(path, text);
  await wb.openNote(path);
  if (!(await wb.page.$('.strata-view'))) expect(await wb.runCommand('strata:open-chat')).toBe(true);
  await wb.page.waitForFunction((p) => document.querySelector('.strata-chip.is-active-note')?.textContent?.includes(p.replace(/\.md$/, '')) ?? false, path);
}

/** Opens a reply's context plan (a click on its summary toggles it: only when folded). */
async function openPlan(page: Page): Promise<void> {
  const plan = page.locator(`${LAST_REPLY} details.strata-plan`);
  if ((await plan.getAttribute('open')) === null) await plan.locator('summary').click();
}

async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return `${el?.closest('[data-id]')?.getAttribute('data-id') ?? ''}|${el?.getAttribute('data-action') ?? el?.className ?? ''}`;
  });
}

/** Light and dark screenshots of the chat view; `show`: scroll this element into view first. */
async function shoot(wb: Workbench, name: string, show?: string): Promise<void> {
  if (show) await wb.page.locator(show).last().scrollIntoViewIfNeeded();
  await wb.screenshotThemes(name, { selector: '.workspace-leaf-content[data-type="strata-chat"]' });
}

describe('deterministic planning (Deterministic only)', () => {
  let wb: Workbench;
  let page: Page;

  beforeAll(async () => {
    wb = await startWorkbench({ theme: 'light', viewport: { width: 1400, height: 1000 }, settings: { ...SETTINGS, contextPlanning: 'heuristic' } });
    page = wb.page;
  }, 120_000);
  afterAll(async () => {
    await wb?.close();
  });

  test('a handbook over the budget is sent as an extract: the library panel and the reply say so', async () => {
    const text = handbook(130);
    expect(text.length).toBeGreaterThan(150_000);
    await attachHandbook(wb, text);
    await send(page, 'What is the beekeeping access code for the hives?');

    // What went out: the section that answers, not the whole handbook.
    const request = wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).at(-1);
    const sent = JSON.stringify(request?.body.messages);
    expect(sent).toContain(BEES_CODE);
    expect(sent.length).toBeLessThan(text.length / 2);

    await openPanel(page);
    const row = page.locator(ROW);
    expect(await row.getAttribute('data-strategy')).toBe('rag_extract');
    expect(await row.locator('.strata-plan-badge').allTextContents()).toEqual(['Extract']);
    expect(await row.locator('.strata-library-tokens').textContent()).toMatch(/^[\d.]+k? of [\d.]+k tokens$/);
    const why = (await row.locator('.strata-library-rationale').textContent()) ?? '';
    expect(why).toMatch(/rank 1 for the question/);
    expect(await row.locator('.strata-library-rationale').getAttribute('title')).toBe(why);
    // No planner model: nothing to count apart.
    expect(await page.$('.strata-usage-planning')).toBeNull();

    // The reply's context plan: folded to one line, opened from the keyboard.
    const plan = page.locator(`${LAST_REPLY} details.strata-plan`);
    expect(await plan.locator('summary').textContent()).toBe('Context plan · 1 extract · deterministic');
    await plan.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await plan.getAttribute('open')).not.toBeNull();
    expect(await plan.locator('.strata-plan-reason').textContent()).toMatch(/^Planned because with everything in full the request would be [\d,]+ tokens, over the [\d,]+-token budget\.$/);
    expect(await plan.locator('.strata-plan-by').textContent()).toMatch(/^Planned deterministically/);
    expect(await plan.locator('.strata-plan-room').textContent()).toMatch(/^Room for attachments: [\d,]+ tokens$/);
    const decision = plan.locator(`.strata-plan-decision[data-id="${HANDBOOK}"]`);
    expect(await decision.locator('.strata-plan-badge').textContent()).toBe('Extract');
    expect(await decision.locator('.strata-plan-decision-why').textContent()).toMatch(/rank 1 for the question; the sections that match it · looked for: “What is the beekeeping/);
    expect(await page.$(`${LAST_REPLY} .strata-plan-warning`)).toBeNull();
    expect(await overflowing(page)).toEqual([]);
    await shoot(wb, 'planning-panel-wide', ROW);
    await closePanel(page);
    await shoot(wb, 'planning-turn-wide', `${LAST_REPLY} details.strata-plan`);
    expect(await wb.errors()).toEqual([]);
  }, 300_000);

  test('the next question keeps the decision (sticky): the handbook marked kept, the same extract', async () => {
    await send(page, 'And where is the beekeeping log kept?');
    const plan = page.locator(`${LAST_REPLY} details.strata-plan`);
    // The kept extract, and (when it does not hold the new question's sections) an extract for this question beside it.
    expect(await plan.locator('summary').textContent()).toMatch(/^Context plan · (1 extract|2 extracts) · kept$/);
    await openPlan(page);
    const kept = plan.locator(`.strata-plan-decision[data-id="${HANDBOOK}"]`);
    expect(await kept.locator('.strata-plan-kept').textContent()).toBe('kept');
    expect(await kept.locator('.strata-plan-badge').textContent()).toBe('Extract');
    expect(await plan.locator('.strata-plan-reason').textContent()).toMatch(/^No new plan: every item keeps its decision/);
    await openPanel(page);
    // The library still holds the one handbook, as the extract it was sent as.
    expect(await page.$$eval('.strata-library-item', (els) => els.map((e) => e.getAttribute('data-id')))).toEqual([HANDBOOK]);
    await shoot(wb, 'planning-kept-wide', `${LAST_REPLY} details.strata-plan`);
    await closePanel(page);
  }, 180_000);

  test('overrides from the keyboard: send in full, back to the plan, exclude (confirmed as a prefix break)', async () => {
    await openPanel(page);
    // Send in full: pinned, said in the warning, the focus moves to "Use the plan".
    await page.focus(`${ROW} .strata-library-full`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${ROW} .strata-plan-badge.is-override`);
    expect(await page.locator(`${ROW} .strata-plan-badge`).allTextContents()).toEqual(['Extract', 'Pinned: full']);
    expect(await page.textContent('.strata-warnings')).toContain('Plan: "Handbook" will be sent in full from the next request.');
    expect(await page.textContent('.strata-library-status')).toContain('will be sent in full');
    expect(await focused(page)).toBe(`${HANDBOOK}|plan`);
    await shoot(wb, 'planning-pinned-wide', ROW);

    // Use the plan: the override goes, the plan decides again next time.
    await page.keyboard.press('Enter');
    await page.waitForFunction((row) => !document.querySelector(`${row} .strata-plan-badge.is-override`), ROW);
    expect(await page.textContent('.strata-warnings')).toContain("goes back to the planner's choice");
    expect(await page.textContent(`${ROW} .strata-library-rationale`)).toBe('The plan decides again on the next request.');
    expect(await focused(page)).toBe(`${HANDBOOK}|full`);

    // Exclude: the item was sent, so it asks first; Escape keeps it.
    await page.focus(`${ROW} .strata-library-exclude`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${ROW} .strata-library-confirm`);
    expect(await page.textContent(`${ROW} .strata-library-confirm`)).toContain('the next request starts a new cached prefix');
    expect(await focused(page)).toBe(`${HANDBOOK}|confirm-exclude`);
    await page.keyboard.press('Escape');
    await page.waitForFunction((row) => !document.querySelector(`${row} .strata-library-confirm`), ROW);
    expect(await focused(page)).toBe(`${HANDBOOK}|exclude`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${ROW} .strata-library-confirm`);
    await shoot(wb, 'planning-confirm-wide', ROW);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${ROW}.is-excluded`);
    expect(await page.locator(`${ROW} .strata-plan-badge`).allTextContents()).toEqual(['Excluded', 'Excluded by you']);
    expect(await page.textContent('.strata-warnings')).toContain('Plan: "Handbook" is excluded. It leaves the notes this chat sends, so the next request starts a new cached prefix');
    expect(await focused(page)).toBe(`${HANDBOOK}|plan`);
    expect(await page.$(`${ROW} .strata-library-remove`)).toBeNull();

    // At 300 px: the rows wrap, nothing scrolls sideways.
    await wb.narrowSidebar(true);
    expect(await overflowing(page)).toEqual([]);
    await shoot(wb, 'planning-excluded-300', ROW);
    await closePanel(page);
    await openPlan(page);
    expect(await overflowing(page)).toEqual([]);
    await shoot(wb, 'planning-turn-300', `${LAST_REPLY} details.strata-plan`);
    await wb.narrowSidebar(false);

    // The next request leaves the handbook out, and its plan says the user excluded it.
    await send(page, 'Anything else about the hives?');
    const request = wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).at(-1);
    expect(JSON.stringify(request?.body.messages)).not.toContain(BEES_CODE);
    const plan = page.locator(`${LAST_REPLY} details.strata-plan`);
    expect(await plan.locator('summary').textContent()).toBe('Context plan · 1 excluded · your choice');
    await openPlan(page);
    expect(await plan.locator('.strata-plan-decision-why').textContent()).toBe('you excluded it');
    expect(await wb.errors()).toEqual([]);
  }, 300_000);
});

describe('planning with the planner model (Auto)', () => {
  let wb: Workbench;
  let page: Page;

  beforeAll(async () => {
    wb = await startWorkbench({ theme: 'light', viewport: { width: 1400, height: 1000 }, settings: { ...SETTINGS, contextPlanning: 'auto' } });
    page = wb.page;
  }, 120_000);
  afterAll(async () => {
    await wb?.close();
  });

  test('the local server plans: the reply names the planner model and its cost, apart; so does the panel', async () => {
    await attachHandbook(wb, handbook(130));
    await send(page, 'What is the beekeeping access code for the hives?');
    const planner = wb.providerServer.requests.filter((r) => r.path.includes('chat/completions') && r.body.model === 'gpt-4o-mini');
    expect(planner).toHaveLength(1);

    const plan = page.locator(`${LAST_REPLY} details.strata-plan`);
    expect(await plan.locator('summary').textContent()).toMatch(/^Context plan · 1 extract · by gpt-4o-mini · planning (\$|<\$)[\d.]+$/);
    await openPlan(page);
    expect(await plan.locator('.strata-plan-by').textContent()).toBe('Planned by the planner model, local-openai/gpt-4o-mini.');
    expect(await plan.locator('.strata-plan-decision-why').textContent()).toMatch(/^Its headings name the question's subject; too large to include whole/);
    expect(await plan.locator('.strata-plan-cost').textContent()).toMatch(/^Planner: 1 call, [\d.]+k? tokens, (\$|<\$)[\d.]+/);

    await openPanel(page);
    expect(await page.locator(`${ROW} .strata-plan-badge`).allTextContents()).toEqual(['Extract']);
    expect(await page.textContent('.strata-usage-planning .strata-usage-value')).toMatch(/^1 call, [\d.]+k? tokens, (\$|<\$)[\d.]+$/);
    await shoot(wb, 'planning-auto-panel-wide', '.strata-library');
    await closePanel(page);
    expect(await wb.errors()).toEqual([]);
  }, 300_000);

  test('a failing planner falls back to the deterministic plan, with the warning in sight', async () => {
    // A second large note, new this turn: planned; the scripted planner answers HTTP 500.
    await attachHandbook(wb, handbook(60, 'Second handbook'), 'Second handbook.md');
    await send(page, '[[plan error]] What is the kayaking access code?');
    const warning = page.locator(`${LAST_REPLY} .strata-plan-warning`);
    expect(await warning.textContent()).toMatch(/^The planner failed \(.+\); the deterministic plan was used\.$/);
    const plan = page.locator(`${LAST_REPLY} details.strata-plan`);
    expect(await plan.locator('summary').textContent()).toMatch(/· fallback plan/);
    await openPlan(page);
    expect(await plan.locator('.strata-plan-by').textContent()).toMatch(/^The planner model failed/);
    await shoot(wb, 'planning-fallback-wide', `${LAST_REPLY} details.strata-plan`);
    await wb.narrowSidebar(true);
    expect(await overflowing(page)).toEqual([]);
    await shoot(wb, 'planning-fallback-300', `${LAST_REPLY} details.strata-plan`);
    await wb.narrowSidebar(false);
  }, 300_000);
});

describe('the Context planning settings', () => {
  let wb: Workbench;

  beforeAll(async () => {
    wb = await startWorkbench({ theme: 'light', settings: { generateTitles: false } });
  }, 120_000);
  afterAll(async () => {
    await wb?.close();
  });

  const setting = (name: string) => `.setting-item:has(> .setting-item-info .setting-item-name:text-is("${name}"))`;
  const saved = () => JSON.parse(readFileSync(wb.dataJsonPath, 'utf8')) as Record<string, unknown>;

  test('mode, planner model (with its default per provider), and where summaries come from; saved', async () => {
    const { page } = wb;
    await wb.openSettings('strata');
    await page.waitForSelector('.strata-settings');
    const mode = page.locator(`${setting('Planning')} select`);
    expect(await mode.locator('option').allTextContents()).toEqual(['Auto', 'Deterministic only', 'Off']);
    expect(await mode.inputValue()).toBe('auto');
    const planner = page.locator(`${setting('Planner model')} input`);
    expect(await planner.getAttribute('placeholder')).toBe("Default: a cheap model of the chat's provider");
    // The defaults as the planner picks them for the workbench's providers.
    expect(await page.locator(`${setting('Planner model')} .setting-item-description code`).allTextContents()).toEqual(['gpt-4o-mini', 'gpt-4o-mini', 'claude-haiku-4-5']);
    expect(await page.textContent('.strata-settings')).toContain('Artifact summaries are written by the summary model');

    // A provider ID nobody has: said under the field (it would be a model name on the chat's provider).
    await planner.fill('nowhere/some-model');
    await page.waitForSelector(`${setting('Planner model')} .strata-settings-error:text("No provider has the ID")`);
    await planner.fill('local-openai/gpt-4o-mini');
    await page.locator(`${setting('Planner model')} .strata-settings-error`).waitFor({ state: 'hidden' });
    await page.locator('.strata-settings-note:has-text("Artifact summaries")').scrollIntoViewIfNeeded();
    await wb.screenshotThemes('planning-settings', { selector: '.modal.mod-settings, .modal' });

    // Off: no planner to set.
    await mode.selectOption('off');
    expect(await planner.isDisabled()).toBe(true);
    await wb.flush();
    expect(saved()).toMatchObject({ contextPlanning: 'off', plannerModel: 'local-openai/gpt-4o-mini' });
    await mode.selectOption('heuristic');
    await wb.flush();
    expect(saved().contextPlanning).toBe('heuristic');
    await wb.closeSettings();
    expect(await wb.errors()).toEqual([]);
  }, 180_000);
});
