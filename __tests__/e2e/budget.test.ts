/**
 * Budgeted history in the browser: the usage line shows the next request against the budget and
 * the distance to the condense threshold; the Condense button (by keyboard) and the "Condense
 * chat" command condense the chat and say before → after; a compaction shows at its boundary with
 * its summary folded; a long chat with a small window condenses itself and keeps going in a 300 px
 * sidebar. Screenshots at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { overflowing, send, startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const ANSWERED = '.strata-message.is-assistant:not(.is-failed):not(.is-streaming)';

/** The usage line's exact figures (its aria-label: "Next request: 2,134 of 3,000 tokens"). */
async function nextRequest(page: Page): Promise<{ tokens: number; budget: number }> {
  await page.waitForFunction(() => /^Next request: [\d,]+ of [\d,]+ tokens$/.test(document.querySelector('.strata-context-tokens')?.getAttribute('aria-label') ?? ''));
  const label = (await page.getAttribute('.strata-context-tokens', 'aria-label')) ?? '';
  const [, tokens, budget] = /^Next request: ([\d,]+) of ([\d,]+) tokens$/.exec(label) ?? [];
  return { tokens: Number(tokens.replace(/,/g, '')), budget: Number(budget.replace(/,/g, '')) };
}

/** Light and dark screenshots; `show`: scroll this element into view first. */
async function shoot(wb: Workbench, name: string, show?: string): Promise<void> {
  if (show) await wb.page.locator(show).last().scrollIntoViewIfNeeded();
  await wb.screenshot(`${name}-light`);
  await wb.setTheme('dark');
  await wb.screenshot(`${name}-dark`);
  await wb.setTheme('light');
}

describe('condense by hand (wide sidebar)', () => {
  let wb: Workbench;
  let page: Page;

  beforeAll(async () => {
    wb = await startWorkbench({ theme: 'light', openNote: PLAN });
    page = wb.page;
  }, 120_000);
  afterAll(async () => {
    await wb?.close();
  });

  test('the usage line shows the next request before anything is sent, and the attached notes count', async () => {
    const commands = await wb.listCommands();
    const condense = commands.find((c) => c.id === 'strata:condense-chat');
    expect(condense).toMatchObject({ name: 'Strata: Condense chat', hotkeys: [] });
    expect(await wb.runCommand('strata:open-chat')).toBe(true);
    await page.waitForSelector('.strata-chip.is-active-note');
    const first = await nextRequest(page);
    // gpt-4o: min(100,000 max context tokens, 128,000 − 4,096).
    expect(first.budget).toBe(100_000);
    expect(first.tokens).toBeGreaterThan(0);
    expect(await page.textContent('.strata-context-condense')).toBe('condenses at 80k');
    // Leaving the active note out makes the next request smaller; attaching it again, larger.
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    await page.waitForFunction((n) => /Next request: ([\d,]+)/.exec(document.querySelector('.strata-context-tokens')?.getAttribute('aria-label') ?? '')?.[1] !== n, first.tokens.toLocaleString('en-US'));
    expect((await nextRequest(page)).tokens).toBeLessThan(first.tokens);
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    await page.waitForFunction((n) => /Next request: ([\d,]+)/.exec(document.querySelector('.strata-context-tokens')?.getAttribute('aria-label') ?? '')?.[1] === n, first.tokens.toLocaleString('en-US'));
    // Nothing answered yet: the button is there but disabled.
    await page.click('.strata-context-summary');
    expect(await page.isDisabled('.strata-condense-button')).toBe(true);
    await page.click('.strata-context-summary');
  }, 180_000);

  test('the Condense button (Tab, Enter) condenses; the divider shows before → after; the next send says condensed', async () => {
    // Questions long enough that two turns are worth a summary (a condense replacing under 200 tokens is declined).
    const lead = 'Thinking of the south bed, the late frosts we had last spring, the budget in the plan and the two rain barrels by the shed, and keeping it to a few practical sentences I can follow this weekend:';
    for (const q of ['What goes in the greenhouse first?', 'How warm must it stay at night?', 'When do the seedlings move?', 'What about watering?']) await send(page, `${lead} ${q}`);
    const before = await nextRequest(page);
    // Keyboard only: focus the usage line, open it with Enter, Tab to Condense, Enter.
    await page.focus('.strata-context-summary');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.strata-usage-total');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('strata-condense-button'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.strata-condense-result');
    const result = (await page.textContent('.strata-condense-result')) ?? '';
    // Four answered turns, the newest four messages (two turns) kept: turns 1–2 are summarized.
    const [, from, to] = /^Condensed: turns 1–2 summarized; the next request goes from ([\d,]+) to ([\d,]+) tokens\.$/.exec(result) ?? [];
    expect(from).toBeDefined();
    expect(Number(from.replace(/,/g, ''))).toBe(before.tokens);
    expect(await wb.notices()).toContain(result);
    // The focus stayed on the button.
    expect(await page.evaluate(() => document.activeElement?.classList.contains('strata-condense-button'))).toBe(true);

    // The divider sits after turn 2, the condensed messages stay above it.
    const divider = page.locator('.strata-compaction');
    expect(await divider.count()).toBe(1);
    expect(await divider.getAttribute('data-through')).toBe('2');
    expect(await divider.locator('.strata-compaction-label').textContent()).toMatch(/^Condensed · turns 1–2 summarized · [\d.]+k? → [\d.]+k? tokens$/);
    const order = await page.$$eval('.strata-messages > *', (els) => els.map((e) => (e.classList.contains('strata-compaction') ? 'divider' : e.classList.contains('is-user') ? 'user' : 'assistant')));
    expect(order).toEqual(['user', 'assistant', 'user', 'assistant', 'divider', 'user', 'assistant', 'user', 'assistant']);
    // The summary is folded; opening it shows what the model sees and who wrote it.
    expect(await page.isVisible('.strata-compaction-text')).toBe(false);
    await page.click('.strata-compaction-details > summary');
    expect(await page.textContent('.strata-compaction-meta')).toMatch(/^Condensed by hand · written by local-openai\/gpt-4o · [\d.]+k? in · [\d.]+k? out · (\$|<\$)/);
    expect((await page.textContent('.strata-compaction-text'))?.length).toBeGreaterThan(0);
    // The usage line now measures the condensed request.
    expect((await nextRequest(page)).tokens).toBe(Number(to.replace(/,/g, '')));
    // The layers in the user's words; "Notes in this chat" is the same figure as the library below it.
    expect(await page.$$eval('.strata-usage-layer .strata-usage-label', (els) => els.map((e) => e.textContent))).toEqual([
      'Instructions',
      'Notes in this chat',
      'New this turn',
      'Conversation',
      'Your message',
    ]);
    const notes = await page.textContent('.strata-usage-layer[data-layer="library"] .strata-usage-value');
    expect(await page.textContent('.strata-library .strata-panel-title')).toBe(`Notes in this chat · ${notes} tokens`);
    await shoot(wb, 'budget-panel-wide');
    await page.click('.strata-context-summary');
    await shoot(wb, 'budget-condensed-wide', '.strata-compaction');

    await send(page, 'And the vents?');
    const last = '.strata-messages > .strata-message.is-assistant:last-child';
    expect(await page.textContent(`${last} .strata-prefix-change`)).toMatch(/\(condensed\)/);
    expect(await page.textContent(`${last} .strata-turn-meta`)).toMatch(/\+ summary [\d.]+k? in · (\$|<\$)/);
    // What went out: the summary opens the first user message after the boundary; turns 1–2 are not sent.
    const request = wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).at(-1);
    const userMessages = (request?.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => String(m.content).trim());
    expect(userMessages.some((m) => m.endsWith('What goes in the greenhouse first?'))).toBe(false);
    expect(userMessages.some((m) => m.endsWith('When do the seedlings move?'))).toBe(true);
    expect(userMessages.at(-1)).toMatch(/And the vents\?$/);
    expect(await wb.errors()).toEqual([]);
  }, 180_000);

  test('while a summary is being written the chat says "Condensing…"; the stop button stops it and nothing changes', async () => {
    wb.providerServer.injectFault({ kind: 'hang', times: 1 });
    await page.click('.strata-context-summary');
    await page.click('.strata-condense-button');
    await page.waitForSelector('.strata-condensing');
    expect(await page.textContent('.strata-condense-button')).toBe('Condensing…');
    expect(await page.getAttribute('.strata-condense-button', 'aria-disabled')).toBe('true');
    expect(await page.textContent('.strata-context-condense')).toBe('condensing…');
    await shoot(wb, 'budget-condensing-wide');
    await page.click('.strata-stop');
    await page.waitForFunction(() => document.querySelector('.strata-condense-result')?.textContent === 'Condense stopped: nothing changed.');
    expect(await page.$('.strata-condensing')).toBeNull();
    expect(await page.$$eval('.strata-compaction', (els) => els.length)).toBe(1);
    expect(await page.textContent('.strata-condense-button')).toBe('Condense');
    await page.click('.strata-context-summary');
  }, 180_000);

  test('the "Condense chat" command; with summaries off it omits, says so in a warning and in the divider', async () => {
    await wb.openSettings('strata');
    await page.click('.setting-item:has(> .setting-item-info .setting-item-name:text-is("Summaries")) .checkbox-container');
    await wb.closeSettings();
    await send(page, 'One more, please.');
    expect(await wb.runCommand('strata:condense-chat')).toBe(true);
    await page.waitForFunction(() => document.querySelectorAll('.strata-compaction').length === 2);
    const label = await page.locator('.strata-compaction').last().locator('.strata-compaction-label').textContent();
    expect(label).toMatch(/^Condensed · turns 1–4 omitted \(summaries are off\) · /);
    expect(await page.textContent('.strata-warnings')).toMatch(/Condensed without a summary \(summaries are off\): 4 earlier messages are omitted/);
    expect((await wb.notices()).at(-1)).toMatch(/^Condensed: turns 1–4 omitted; the next request goes from [\d,]+ to [\d,]+ tokens\.$/);
    await shoot(wb, 'budget-omitted-wide', '.strata-compaction');
  }, 180_000);
});

describe('a long chat in a 300 px sidebar with a small window', () => {
  let wb: Workbench;
  let page: Page;

  beforeAll(async () => {
    // gpt-4o with a 6,000-token window: 3,000 kept for the reply (at most half), a 3,000-token budget, condensing at 2,400.
    wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1000, height: 800 }, settings: { contextWindows: { 'gpt-4o': 6000 } } });
    page = wb.page;
    await page.addStyleTag({ content: '.workspace-split.mod-right-split { width: 300px !important; }' });
  }, 120_000);
  afterAll(async () => {
    await wb?.close();
  });

  test('a long chat in the workbench condenses itself and keeps going', async () => {
    expect(await wb.runCommand('strata:open-chat')).toBe(true);
    await page.waitForSelector('.strata-chip.is-active-note');
    expect((await nextRequest(page)).budget).toBe(3_000);
    const question = (i: number) => `Question ${i}: how should bed ${i} be watered, shaded and ventilated in a week of late frost and strong afternoon sun?`;
    let sent = 0;
    let sawHigh = false;
    // Until it has condensed by itself, then six more.
    while ((await page.$$('.strata-compaction')).length === 0) {
      sent++;
      await send(page, question(sent));
      const next = await nextRequest(page);
      expect(next.tokens).toBeLessThanOrEqual(next.budget);
      if (next.tokens > 2_400) {
        sawHigh = true;
        expect(await page.textContent('.strata-context-condense')).toBe('condenses on next send');
      }
      expect(sent).toBeLessThan(60);
    }
    const firstCondense = sent;
    expect(sawHigh || firstCondense > 1).toBe(true);
    await page.locator('.strata-compaction-details > summary').first().click();
    await shoot(wb, 'budget-condensed-300', '.strata-compaction');
    for (let i = 0; i < 6; i++) {
      sent++;
      await send(page, question(sent));
      const next = await nextRequest(page);
      expect(next.tokens).toBeLessThanOrEqual(next.budget);
    }
    // Every message answered, none lost, the condensed ones still in the chat.
    expect(await page.$$eval(ANSWERED, (els) => els.length)).toBe(sent);
    expect(await page.$$eval('.strata-message.is-user', (els) => els.length)).toBe(sent);
    expect(await page.$('.strata-message.is-failed, .strata-message.is-unanswered')).toBeNull();
    // Each compaction is a divider; the turn after it names the break; every prompt the provider counted fits the budget.
    const dividers = await page.$$eval('.strata-compaction-label', (els) => els.map((e) => e.textContent ?? ''));
    expect(dividers.length).toBeGreaterThanOrEqual(1);
    for (const d of dividers) expect(d).toMatch(/^Condensed · turns 1–\d+ (summarized|omitted.*) · [\d.]+k? → [\d.]+k? tokens$/);
    const prompts = await page.$$eval('.strata-turn-meta', (els) => els.map((e) => Number(/Prompt: (\d+) tokens/.exec(e.getAttribute('aria-label') ?? '')?.[1])));
    expect(prompts).toHaveLength(sent);
    for (const p of prompts) expect(p).toBeLessThanOrEqual(3_000);
    expect(await page.$$eval('.strata-prefix-change', (els) => els.filter((e) => /\(condensed\)/.test(e.textContent ?? '')).length)).toBe(dividers.length);

    await page.click('.strata-context-summary');
    await page.waitForSelector('.strata-usage-total');
    expect(await page.textContent('.strata-usage-condensed .strata-usage-value')).toMatch(/^(once|\d+ times)$/);
    expect(await overflowing(page)).toEqual([]);
    await shoot(wb, 'budget-panel-300');
    expect(await wb.errors()).toEqual([]);
  }, 600_000);
});
