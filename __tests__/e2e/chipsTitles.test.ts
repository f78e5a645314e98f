/**
 * Issue 12's surface in the browser: 26 attached notes fold into one row ("+ N more", which opens and
 * folds again), Clear all with Undo, Backspace in an empty composer removes the last chip (said in an
 * aria-live line), all from the keyboard at 300 px and wide; the generated title in the header with
 * its rename pencil; a prefix break said in plain words with the technical reason as its tooltip.
 * Screenshots at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const TEXTAREA = '.strata-composer textarea';
const TITLE_SYSTEM = 'You name conversations between a user and an assistant';

let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 800 } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const narrow = (on: boolean) => wb.narrowSidebar(on);

const shoot = (name: string, selector?: string) => wb.screenshotThemes(name, selector ? { selector } : {});

/** The chips row: how many chips are shown and hidden, on how many rows, and what the "more" button says. */
const row = () =>
  page.evaluate(() => {
    const chips = Array.from(document.querySelectorAll<HTMLElement>('.strata-chips > .strata-chip'));
    const shown = chips.filter((c) => c.offsetParent !== null);
    const more = document.querySelector<HTMLElement>('.strata-chips-more');
    const clear = document.querySelector<HTMLElement>('.strata-chips-clear');
    const parts = [...shown, ...[more, clear].filter((e): e is HTMLElement => !!e && e.offsetParent !== null)];
    const rows = new Set(parts.map((e) => Math.round(e.getBoundingClientRect().top / 8))).size;
    const box = document.querySelector('.strata-view')!.getBoundingClientRect();
    const inside = parts.every((e) => e.getBoundingClientRect().right <= box.right + 0.5);
    return {
      total: chips.length,
      shown: shown.length,
      rows,
      inside,
      more: more && more.offsetParent !== null ? (more.textContent ?? '') : null,
      expanded: more?.getAttribute('aria-expanded') ?? null,
      userChips: chips.filter((c) => !c.classList.contains('is-active-note')).length,
      activeOn: chips.some((c) => c.classList.contains('is-active-note') && !c.classList.contains('is-off')),
    };
  });

const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.className ?? '');
const outline = () => page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);

describe('many chips', () => {
  test('26 attached notes fold into one row; "+ N more" opens and folds them, from the mouse and the keyboard', async () => {
    expect(await wb.runCommand('open-chat')).toBe(true);
    await page.waitForSelector('.strata-chip.is-active-note');
    const extra = Array.from({ length: 6 }, (_, i) => `Attached/Extra note ${i + 1}.md`);
    for (const path of extra) await wb.writeVaultFile(path, `# ${path}\n\nText.\n`);
    const paths = await page.evaluate((added) => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const all = app.vault
        .getMarkdownFiles()
        .map((f) => f.path)
        .filter((p) => p !== 'Projects/Greenhouse/Plan.md');
      const chosen = [...new Set([...added, ...all])].slice(0, 26);
      const view = app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { addChip(c: unknown): void };
      for (const path of chosen) view.addChip({ kind: 'note', path });
      return chosen;
    }, extra);
    expect(paths).toHaveLength(26);
    await page.waitForSelector('.strata-chips-more');
    const wide = await row();
    expect(wide.total).toBe(27);
    expect(wide.rows).toBe(1);
    expect(wide.shown).toBeGreaterThan(1);
    expect(wide.shown).toBeLessThan(27);
    expect(wide.more).toBe(`+ ${27 - wide.shown} more`);
    await shoot('chips-26-wide', '.strata-composer');

    await page.click('.strata-chips-more');
    const open = await row();
    expect(open.shown).toBe(27);
    expect(open.rows).toBeGreaterThan(1);
    expect(open).toMatchObject({ more: 'Show less', expanded: 'true' });
    await shoot('chips-26-wide-open', '.strata-composer');
    // The focus stayed on the button: Enter folds them again.
    expect(await focused()).toContain('strata-chips-more');
    await page.keyboard.press('Enter');
    expect(await row()).toMatchObject({ shown: wide.shown, rows: 1, expanded: 'false' });

    await narrow(true);
    await page.waitForFunction((n) => document.querySelector('.strata-chips-more')?.textContent !== `+ ${n} more`, 27 - wide.shown);
    const small = await row();
    expect(small.rows).toBe(1);
    expect(small.inside).toBe(true);
    expect(small.shown).toBeLessThan(wide.shown);
    expect(small.more).toBe(`+ ${27 - small.shown} more`);
    await shoot('chips-26-300', '.strata-composer');
    await page.click('.strata-chips-more');
    expect((await row()).shown).toBe(27);
    expect((await row()).inside).toBe(true);
    await shoot('chips-26-300-open', '.strata-composer');
    await page.click('.strata-chips-more');
    await narrow(false);
  });

  test('keyboard: Shift+Tab from the composer reaches Clear all and "+ N more", with a visible focus ring', async () => {
    await page.focus(TEXTAREA);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toContain('strata-chips-clear');
    expect(await outline()).not.toBe('none');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toContain('strata-chips-more');
    expect(await outline()).not.toBe('none');
    await page.keyboard.press('Shift+Tab');
    // Then the last shown chip's remove button; hidden chips are out of the tab order.
    expect(await focused()).toContain('strata-chip-remove');
    const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    const lastShown = await page.evaluate(() => {
      const shown = Array.from(document.querySelectorAll<HTMLElement>('.strata-chips > .strata-chip')).filter((c) => c.offsetParent !== null);
      return shown[shown.length - 1].querySelector('.strata-chip-label')?.textContent ?? '';
    });
    expect(label).toBe(`Remove ${lastShown}`);
  });

  test('Backspace in the empty composer removes the last chip and says so; Ctrl+Z puts it back', async () => {
    await page.fill(TEXTAREA, '');
    await page.focus(TEXTAREA);
    const last = await page.$$eval('.strata-chips > .strata-chip:not(.is-active-note)', (els) => els[els.length - 1].querySelector('.strata-chip-label')?.textContent ?? '');
    await page.keyboard.press('Backspace');
    expect((await row()).userChips).toBe(25);
    expect(await page.getAttribute('.strata-chips-note', 'aria-live')).toBe('polite');
    expect(await page.textContent('.strata-chips-note-text')).toBe(`Removed “${last}”.`);
    // Typing is untouched: Backspace in a composer with text deletes text, not chips.
    await page.keyboard.type('ab');
    await page.keyboard.press('Backspace');
    expect(await page.inputValue(TEXTAREA)).toBe('a');
    expect((await row()).userChips).toBe(25);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+z');
    expect((await row()).userChips).toBe(26);
    expect(await page.textContent('.strata-chips-note-text')).toBe('');
  });

  test('Clear all takes every chip off, says so, and Undo (focused, Enter) brings them back', async () => {
    await page.click('.strata-chips-clear');
    expect(await row()).toMatchObject({ userChips: 0, activeOn: false, more: null });
    expect(await page.textContent('.strata-chips-note-text')).toBe('Removed all 27 attachments.');
    expect(await focused()).toContain('strata-chips-undo');
    await shoot('chips-cleared-wide', '.strata-composer');
    await narrow(true);
    await shoot('chips-cleared-300', '.strata-composer');
    await narrow(false);
    await page.keyboard.press('Enter');
    expect(await row()).toMatchObject({ userChips: 26, activeOn: true, total: 27 });
    expect(await focused()).toContain('strata-input');
    // Cleared again, for the chat below: the active note only.
    await page.click('.strata-chips-clear');
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    expect(await row()).toMatchObject({ userChips: 0, activeOn: true });
  });
});

describe('title and break notes', () => {
  test('after the first answer the header shows a generated title; the pencil renames it from the keyboard', async () => {
    await page.fill(TEXTAREA, 'How warm should the greenhouse stay at night?');
    await page.press(TEXTAREA, 'Enter');
    await page.waitForSelector('.strata-message.is-assistant:not(.is-streaming):not(.is-failed)');
    await page.waitForFunction(() => document.querySelector('.strata-title')?.textContent !== 'How warm should the greenhouse stay at night?');
    const titleRequest = wb.providerServer.requests.find((r) => JSON.stringify(r.body).includes(TITLE_SYSTEM));
    expect(titleRequest).toBeDefined();
    const title = (await page.textContent('.strata-title')) ?? '';
    expect(title.length).toBeGreaterThan(0);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).not.toMatch(/\.$/);
    expect(await page.getAttribute('.strata-title-edit', 'aria-label')).toBe('Rename chat');
    expect(await page.isVisible('.strata-title-edit')).toBe(true);
    await shoot('title-pencil-wide', '.strata-header');
    await narrow(true);
    expect(await page.isVisible('.strata-title-edit')).toBe(true);
    await shoot('title-pencil-300', '.strata-header');

    // Keyboard: Tab from the title reaches the pencil; Enter renames; Enter keeps; the focus comes back.
    await page.focus('.strata-title');
    await page.keyboard.press('Tab');
    expect(await focused()).toContain('strata-title-edit');
    expect(await outline()).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.strata-title-input');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Night temperatures');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.strata-title')?.textContent === 'Night temperatures');
    expect(await focused()).toContain('strata-title-edit');
    await wb.flush();
    const notes = await page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.app.vault.getMarkdownFiles().map((f) => f.path).filter((p) => p.startsWith('Strata/Chats/')));
    expect(notes).toHaveLength(1);
    expect(await wb.readVaultFile(notes[0])).toMatch(/^title: Night temperatures$/m);
    await narrow(false);
  });

  test('a model switch is said in plain words, the technical reason in the tooltip and the description', async () => {
    await page.selectOption('select.strata-model-picker', 'local-openai::gpt-4o-mini');
    const before = await page.$$eval('.strata-message.is-assistant:not(.is-streaming):not(.is-failed)', (e) => e.length);
    await page.fill(TEXTAREA, 'And in the daytime?');
    await page.press(TEXTAREA, 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('.strata-message.is-assistant:not(.is-streaming):not(.is-failed)').length > n, before);
    const note = '.strata-messages > .strata-message.is-assistant:last-child .strata-prefix-change';
    expect(await page.textContent(`${note} .strata-prefix-change-text`)).toBe("The provider's cache restarts because you switched model");
    expect(await page.getAttribute(note, 'title')).toMatch(/^Prefix break \(model-switch\) in the whole request .*: gpt-4o → gpt-4o-mini/);
    const described = await page.evaluate((sel) => {
      const el = document.querySelector(sel)!;
      return document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
    }, note);
    expect(described).toBe(await page.getAttribute(note, 'title'));
    expect(await page.isVisible(`${note} .strata-prefix-change-detail`)).toBe(false);
    await shoot('break-note-wide', '.strata-messages > .strata-message.is-assistant:last-child');
    await narrow(true);
    await shoot('break-note-300', '.strata-messages > .strata-message.is-assistant:last-child');
    // "Cached" explained where the panel shows the share.
    await page.click('.strata-context-summary');
    await page.waitForSelector('.strata-usage-explain');
    expect(await page.textContent('.strata-usage-explain')).toBe('Cached: tokens the provider reused from the previous request, billed at a discount.');
    expect(await page.textContent('.strata-usage-title .strata-usage-label')).toBe('Chat title');
    await page.$eval('.strata-usage-explain', (el) => el.scrollIntoView({ block: 'end' }));
    await shoot('cached-explained-300', '.strata-bottom');
    await page.click('.strata-context-summary');
    await narrow(false);
    expect(await wb.errors()).toEqual([]);
  });
});
