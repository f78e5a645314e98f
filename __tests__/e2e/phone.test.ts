/**
 * Obsidian on a phone (issue 29): the manifest says isDesktopOnly false. The real bundle loads and
 * its onload runs where no Node module exists: every `require` but 'obsidian' throws (the
 * workbench's obsidian shim, Platform's mobile flags, the `is-mobile is-phone` body classes), and
 * the plugin asks for none. The chat is usable at 390×844 with touch: taps of at least 44 px, a
 * reply's actions shown without hover, the composer in view when the keyboard takes half the
 * screen, the history by touch. Screenshots light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, phone: true, settings: { generateTitles: false } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

/** Visible interactive controls in `root` smaller than 44 px either way: "class text WxH". */
function smallTargets(root: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(`${sel} button, ${sel} select, ${sel} summary, ${sel} .clickable-icon, ${sel} [role="button"]`))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (box.width < 44 || box.height < 44) out.push(`${el.className} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 20)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    return out;
  }, root);
}

test('the bundle loads and onload runs with no Node module: the plugin requires only obsidian', async () => {
  const loaded = await page.evaluate(() => {
    const w = (window as unknown as WorkbenchWindow).workbench;
    return { bootError: w.bootError, modules: [...new Set(w.requiredModules)], classes: document.body.className, mobile: w.obsidian.Platform.isMobile, desktopApp: w.obsidian.Platform.isDesktopApp };
  });
  expect(loaded.bootError).toBeNull();
  expect(loaded.modules).toEqual(['obsidian']);
  expect(loaded.classes).toContain('is-mobile');
  expect(loaded.classes).toContain('is-phone');
  expect(loaded).toMatchObject({ mobile: true, desktopApp: false });
}, 60_000);

test('at 390 px with touch: tap targets of 44 px, a reply by tapping Send, its actions without hover, nothing wider than the screen', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-view .strata-composer textarea');
  await wb.screenshotThemes('phone-empty-chat');
  expect(await smallTargets('.strata-view')).toEqual([]);
  await page.tap('.strata-composer textarea');
  await page.fill('.strata-composer textarea', 'What is the plan for the greenhouse?');
  await page.tap('.strata-send');
  await page.waitForSelector('.strata-message.is-assistant:not(.is-streaming):not(.is-failed)');
  await wb.flush();
  // A reply's actions (copy, regenerate…) are there without a hover.
  const opacity = await page.$eval('.strata-message.is-assistant .strata-message-actions', (el) => getComputedStyle(el).opacity);
  expect(opacity).toBe('1');
  expect(await smallTargets('.strata-view')).toEqual([]);
  const width = await page.evaluate(() => document.querySelector('.strata-view')?.getBoundingClientRect().width ?? 0);
  expect(width).toBeLessThanOrEqual(390);
  const wide = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.strata-view *'))) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > 390.5 && !el.closest('pre, table')) out.push(`${el.className || el.tagName}`);
    }
    return out;
  });
  expect(wide).toEqual([]);
  await wb.screenshotThemes('phone-answered');
}, 180_000);

test('the keyboard taking half the screen leaves the composer in view', async () => {
  await page.setViewportSize({ width: 390, height: 420 });
  await page.tap('.strata-composer textarea');
  const box = await page.$eval('.strata-composer textarea', (el) => el.getBoundingClientRect().toJSON() as DOMRect);
  expect(box.top).toBeGreaterThanOrEqual(0);
  expect(box.bottom).toBeLessThanOrEqual(420);
  const send = await page.$eval('.strata-send', (el) => el.getBoundingClientRect().toJSON() as DOMRect);
  expect(send.bottom).toBeLessThanOrEqual(420);
  await wb.screenshot('phone-keyboard-half');
  await page.setViewportSize({ width: 390, height: 844 });
}, 60_000);

test('the history by touch: rows and their buttons of 44 px, a chat opened by a tap', async () => {
  await page.tap('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  expect(await smallTargets('.strata-history-modal')).toEqual([]);
  await wb.screenshotThemes('phone-history');
  await page.tap('.strata-history-item .strata-history-main');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
  expect(await wb.errors()).toEqual([]);
}, 60_000);

test('settings on a phone: Claude Code and Codex are not offered, and the kind says why', async () => {
  await wb.openSettings();
  await page.waitForSelector('.strata-settings-provider');
  await page.$eval('.strata-settings-provider', (el) => ((el as HTMLDetailsElement).open = true));
  const kinds = await page.$$eval('.strata-settings-provider select option', (els) => els.map((e) => (e as HTMLOptionElement).value));
  expect(kinds).not.toContain('claude-code');
  expect(kinds).not.toContain('codex');
  expect(await page.locator('.strata-settings-provider').first().innerText()).toContain('Claude Code is not offered here');
  expect(await page.locator('.strata-settings-provider').first().innerText()).toContain('nor the Codex CLI');
  await wb.closeSettings();
}, 60_000);
