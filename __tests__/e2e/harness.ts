/**
 * End-to-end harness: the real plugin bundle running in Debian's Chromium inside the browser
 * workbench (workbench/), against the local provider server. Each startWorkbench() opens its own
 * browser context in the run's one Chromium (./browser.ts; launched once by ./globalSetup.ts).
 *
 * ```ts
 * import { startWorkbench, type Workbench } from './harness';
 * let wb: Workbench;
 * beforeAll(async () => { wb = await startWorkbench({ theme: 'light' }); });
 * afterAll(() => wb?.close());
 * test('…', async () => {
 *   expect(await wb.runCommand('open-chat')).toBe(true);          // 'strata:open-chat' works too
 *   await wb.page.locator('.workspace-leaf-content[data-type="strata-chat"] textarea').fill('Hello');
 *   await wb.screenshot('chat-open');                                // test-output/screenshots/chat-open.png
 *   expect(wb.providerServer.requests.length).toBe(1);
 * });
 * ```
 *
 * startWorkbench(options) → Workbench. Options (all optional):
 *   vault     folder to copy as the vault (default examples/vault); the copy is what the page edits
 *   copyVault false to work on `vault` in place (default true: shared fixtures stay untouched)
 *   theme     'light' | 'dark' (default 'light'); switch later with setTheme()
 *   settings  merged into the plugin's data.json before the page loads, over providerSettings():
 *             providers 'local-openai' (default, Chat Completions), 'local-responses', 'local-anthropic',
 *             all pointing at providerUrl; defaultModel 'gpt-4o'
 *   secrets   merged over WORKBENCH_SECRETS ('workbench-openai-key', 'workbench-anthropic-key') in
 *             app.secretStorage (the local server accepts any key)
 *   openNote  vault path opened in the note pane at start (default: first note by path)
 *   viewport  default 1400×900
 *
 * Workbench:
 *   page            playwright Page; the plugin's onload() has finished; `window.workbench` is the
 *                   page API (type WorkbenchApi in workbench/page/api.ts: app, plugin, obsidian shim…)
 *   baseUrl         the workbench server, e.g. http://127.0.0.1:PORT
 *   providerUrl     `${baseUrl}/provider`: same-origin proxy to providerServer (OpenAI base URL:
 *                   `${providerUrl}/v1`; Anthropic: providerUrl)
 *   providerServer  the local provider server (requests, injectFault, clearFaults, reset)
 *   vaultDir        the vault on disk; dataJsonPath is the plugin's data.json in it
 *   runCommand(id)  palette-style run; false when missing or unavailable (editor commands need the
 *                   note pane active: call selectText() or openNote() first)
 *   listCommands()  [{ id, name, hotkeys, available }]
 *   screenshot(name, { selector?, fullPage? }) → file path under test-output/screenshots/
 *   setTheme(theme), openNote(path), selectText(text, occurrence?)
 *   openSettings(tabId?), closeSettings()
 *   setNoteMode('source' | 'preview')  the note pane as a plain-text editor (default) or rendered
 *   flush()         waits until every write the page started is on disk, and the saves a view (the chat) has queued
 *   readVaultFile(path), writeVaultFile(path, text) (an outside edit: the page is told, 'modify' fires)
 *   notices()       every Notice message shown so far
 *   errors()        page errors + console errors seen so far (the smoke test expects none)
 *   reload()        reloads the page (same vault, same servers) and waits for onload again
 *   close()         closes the browser and both servers, removes the temporary vault
 *
 * In page.evaluate callbacks, `(window as unknown as WorkbenchWindow).workbench` is the page API
 * (app, plugin, the obsidian shim, handlerCounts(), missingIcons()…; workbench/page/api.ts).
 *
 * What the shim does and does not do like Obsidian: workbench/README.md. In short: editor commands
 * run only when the note pane is the active leaf (select text or open a note first); links in
 * MarkdownRenderer output open notes through workspace.openLinkText unless the plugin handled the
 * click (preventDefault) itself; the note pane is a plain textarea.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startProviderServer, type ProviderServer } from '../../testing/providerServer';
import { buildPage, buildPlugin, PROJECT_ROOT, type BundleResult } from '../../workbench/build';
import { startWorkbenchServer, type WorkbenchServer } from '../../workbench/server';
import { copyVault, dataJsonPath, pluginId, providerSettings, WORKBENCH_SECRETS, writePluginData } from '../../workbench/vaultCopy';
import type { Theme, WorkbenchApi } from '../../workbench/page/api';
import { openBrowser } from './browser';

export type { WorkbenchApi } from '../../workbench/page/api';

export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-output', 'screenshots');


export interface WorkbenchOptions {
  vault?: string;
  copyVault?: boolean;
  theme?: Theme;
  settings?: Record<string, unknown>;
  secrets?: Record<string, string>;
  openNote?: string;
  viewport?: { width: number; height: number };
  /**
   * Obsidian on a phone: 390×844, touch, the `is-mobile is-phone` body classes and Platform's
   * mobile flags (the plugin sees no desktop app), the chat sidebar as a full-width drawer.
   */
  phone?: boolean;
}

export interface Command {
  id: string;
  name: string;
  hotkeys: { modifiers: string[]; key: string }[];
  available: boolean;
}

export interface Workbench {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  providerUrl: string;
  providerServer: ProviderServer;
  vaultDir: string;
  dataJsonPath: string;
  pluginId: string;
  runCommand(id: string): Promise<boolean>;
  listCommands(): Promise<Command[]>;
  screenshot(name: string, options?: { selector?: string; fullPage?: boolean }): Promise<string>;
  setTheme(theme: Theme): Promise<void>;
  /** `name-light` and `name-dark` screenshots, the theme back to light after. */
  screenshotThemes(name: string, options?: { selector?: string }): Promise<void>;
  /** The right sidebar held at 300 px (true), or back to its own width (false). */
  narrowSidebar(on: boolean): Promise<void>;
  openNote(path: string): Promise<void>;
  selectText(text: string, occurrence?: number): Promise<void>;
  openSettings(tabId?: string): Promise<void>;
  closeSettings(): Promise<void>;
  setNoteMode(mode: 'source' | 'preview'): Promise<void>;
  flush(): Promise<void>;
  readVaultFile(path: string): Promise<string>;
  writeVaultFile(path: string, text: string): Promise<void>;
  notices(): Promise<string[]>;
  errors(): Promise<string[]>;
  reload(): Promise<void>;
  close(): Promise<void>;
}

/** The window of the workbench page, for page.evaluate callbacks: `(window as WorkbenchWindow).workbench`. */
export interface WorkbenchWindow {
  workbench: WorkbenchApi;
}

let builds: Promise<[BundleResult, BundleResult]> | null = null;

/** Builds the page and the plugin once per process (and reuses the on-disk cache across files). */
export async function ensureBundles(): Promise<void> {
  builds ??= Promise.all([buildPage(), buildPlugin()]);
  const [page, plugin] = await builds;
  if (page.error) throw new Error(`The workbench page did not build:\n${page.error}`);
  if (plugin.error) throw new Error(`The plugin (src/main.ts) did not build:\n${plugin.error}`);
}

function safeName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  if (!clean) throw new Error(`Unusable screenshot name: ${name}`);
  return clean;
}

export async function startWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  await ensureBundles();
  const copied = options.copyVault !== false;
  const vaultDir = copied ? copyVault(options.vault ? resolve(options.vault) : undefined) : resolve(options.vault ?? '');
  const providerServer = await startProviderServer();
  let server: WorkbenchServer | null = null;
  let browser: Browser | null = null;
  let context: BrowserContext | null = null;
  const consoleErrors: string[] = [];

  const cleanup = async (): Promise<void> => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.close();
    await providerServer.close();
    if (copied) rmSync(dirname(vaultDir), { recursive: true, force: true });
  };

  try {
    server = await startWorkbenchServer({ vaultDir, providerUrl: providerServer.url, openNote: options.openNote, secrets: { ...WORKBENCH_SECRETS, ...(options.secrets ?? {}) } });
    const providerUrl = `${server.url}/provider`;
    writePluginData(vaultDir, { ...providerSettings(providerUrl), ...(options.settings ?? {}) });

    browser = await openBrowser();
    context = await browser.newContext(
      options.phone
        ? { viewport: options.viewport ?? { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 }
        : { viewport: options.viewport ?? { width: 1400, height: 900 } },
    );
    const page = await context.newPage();
    let narrowStyle: Awaited<ReturnType<typeof page.addStyleTag>> | null = null;
    // Waits are for events (a reply rendered, a modal closed), not timings: on a loaded 2-core machine
    // the first reply (which parses the tokenizer's rank tables) can take longer than Playwright's 30 s.
    page.setDefaultTimeout(90_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(err.stack ?? err.message));

    const baseUrl = server.url;
    const load = async (): Promise<void> => {
      await page.goto(`${baseUrl}/?theme=${options.theme ?? 'light'}${options.phone ? '&platform=phone' : ''}`);
      await page.waitForFunction(() => (window as unknown as Partial<WorkbenchWindow>).workbench?.ready === true, null, { timeout: 45_000 });
      const bootError = await page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.bootError);
      if (bootError) throw new Error(`The plugin failed to load in the workbench:\n${bootError}`);
    };
    await load();

    const id = pluginId();
    const workbench: Workbench = {
      page,
      context,
      baseUrl,
      providerUrl,
      providerServer,
      vaultDir,
      dataJsonPath: dataJsonPath(vaultDir),
      pluginId: id,
      runCommand: (commandId) =>
        page.evaluate((full) => (window as unknown as WorkbenchWindow).workbench.runCommand(full), commandId.includes(':') ? commandId : `${id}:${commandId}`),
      listCommands: () => page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.listCommands(), null),
      screenshot: async (name, opts = {}) => {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const path = join(SCREENSHOT_DIR, `${safeName(name)}.png`);
        // Let layout and fonts settle (no timing involved: two animation frames).
        await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
        if (opts.selector) await page.locator(opts.selector).first().screenshot({ path });
        else await page.screenshot({ path, fullPage: opts.fullPage ?? false });
        return path;
      },
      setTheme: (theme) => page.evaluate((t) => (window as unknown as WorkbenchWindow).workbench.setTheme(t), theme),
      async screenshotThemes(name, options = {}) {
        await this.screenshot(`${name}-light`, options);
        await this.setTheme('dark');
        await this.screenshot(`${name}-dark`, options);
        await this.setTheme('light');
      },
      async narrowSidebar(on) {
        await narrowStyle?.evaluate((el) => (el as Element).remove());
        narrowStyle = on ? await page.addStyleTag({ content: '.workspace-split.mod-right-split { width: 300px !important; }' }) : null;
      },
      openNote: (path) => page.evaluate((p) => (window as unknown as WorkbenchWindow).workbench.openFile(p), path),
      selectText: (text, occurrence = 0) =>
        page.evaluate(({ t, n }) => (window as unknown as WorkbenchWindow).workbench.selectText(t, n), { t: text, n: occurrence }),
      openSettings: (tabId) => page.evaluate((tab) => (window as unknown as WorkbenchWindow).workbench.openSettings(tab ?? undefined), tabId ?? null),
      closeSettings: () => page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.closeSettings(), null),
      setNoteMode: (mode) => page.evaluate((m) => (window as unknown as WorkbenchWindow).workbench.setNoteMode(m), mode),
      flush: () => page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.flush(), null).then(() => undefined),
      readVaultFile: async (path) => {
        await workbench.flush();
        return readFileSync(join(vaultDir, path), 'utf8');
      },
      writeVaultFile: async (path, text) => {
        const abs = join(vaultDir, path);
        mkdirSync(dirname(abs), { recursive: true });
        writeFileSync(abs, text);
        await page.evaluate((p) => (window as unknown as WorkbenchWindow).workbench.reloadFromDisk(p), path);
      },
      notices: () => page.evaluate(() => [...(window as unknown as WorkbenchWindow).workbench.notices], null),
      errors: async () => {
        const pageErrors = await page.evaluate(() => [...(window as unknown as WorkbenchWindow).workbench.errors], null);
        return [...new Set([...pageErrors, ...consoleErrors])];
      },
      reload: load,
      close: cleanup,
    };
    return workbench;
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/** Nothing in the chat view is wider than the view (a 300 px sidebar must not scroll sideways). */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const view = document.querySelector('.strata-view') as HTMLElement;
    const right = view.getBoundingClientRect().right + 0.5;
    const out: string[] = [];
    for (const el of Array.from(view.querySelectorAll<HTMLElement>('*'))) {
      if (el.closest('.strata-messages') && el.closest('pre, table')) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > right) out.push(`${el.className || el.tagName}: ${Math.round(box.right - right)} px`);
    }
    return out;
  });
}

/** Answered replies (not failed, not streaming). */
const ANSWERED_REPLY = '.strata-message.is-assistant:not(.is-failed):not(.is-streaming)';

/** Sends a message from the composer and waits for its reply; a failed reply fails the test. */
export async function send(page: Page, text: string): Promise<void> {
  const before = await page.$$eval(ANSWERED_REPLY, (els) => els.length);
  await page.fill('.strata-composer textarea', text);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(
    ([selector, n]) => document.querySelectorAll(selector).length > n || document.querySelector('.strata-message.is-failed') !== null,
    [ANSWERED_REPLY, before] as const,
  );
  expect(await page.$('.strata-message.is-failed')).toBeNull();
}
