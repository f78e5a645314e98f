/**
 * The workbench page: installs the DOM helpers, builds the Obsidian-like layout over the served
 * vault, evaluates the real plugin bundle with `require('obsidian')` bound to the shim, loads the
 * plugin and exposes `window.workbench` for people (devtools) and for the e2e harness.
 */
import { installDomHelpers } from '../shim/dom';
installDomHelpers();

import * as obsidian from '../shim/obsidian';
import { App, type AppBoot } from '../shim/app';
import type { Plugin, PluginManifest } from '../shim/plugin';
import { MarkdownView } from '../shim/workspace';
import { WebViewerView } from '../shim/webViewer';
import { setIcon } from '../shim/icons';
import { mountExplorer } from './explorer';
import { CommandPalette } from './palette';
import { makeWorkbenchApi, setTheme, type WorkbenchApi } from './api';

interface Boot extends AppBoot {
  manifest: PluginManifest;
  openNote: string | null;
}

type PluginClass = new (app: App, manifest: PluginManifest) => Plugin;
type Factory = (require: (id: string) => unknown, module: { exports: Record<string, unknown> }, exports: Record<string, unknown>) => void;

const errors: string[] = [];
window.addEventListener('error', (e) => errors.push(String(e.error instanceof Error ? (e.error.stack ?? e.error.message) : e.message)));
window.addEventListener('unhandledrejection', (e) => {
  const r: unknown = e.reason;
  errors.push(`Unhandled rejection: ${r instanceof Error ? (r.stack ?? r.message) : String(r)}`);
});

/** Module ids the plugin asked for, in order (window.workbench.requiredModules). */
const requiredModules: string[] = [];

function pluginRequire(id: string): unknown {
  requiredModules.push(id);
  if (id === 'obsidian') return obsidian;
  // The desktop app would hand out Node and Electron modules; the browser (like mobile) cannot.
  throw new Error(`The workbench cannot provide module "${id}" to the plugin (not available in a browser or on mobile)`);
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createEl('script', { attr: { src } });
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`Could not load ${src}`));
    document.head.appendChild(s);
  });
}

function buildChrome(app: App, titlebar: HTMLElement, vaultName: string): void {
  titlebar.createSpan({ cls: 'workbench-title', text: 'Strata workbench' });
  titlebar.createSpan({ cls: 'workbench-vault', text: `Vault: ${vaultName}` });
  const button = (label: string, icon: string, action: () => void): void => {
    const b = titlebar.createEl('button', { cls: 'clickable-icon', attr: { 'aria-label': label, title: label } });
    setIcon(b, icon);
    b.addEventListener('click', action);
  };
  button('Command palette', 'search', () => new CommandPalette(app).open());
  button('Settings', 'settings', () => app.setting.open());
  button('Toggle theme', 'lucide-moon', () => setTheme(app, app.isDarkMode() ? 'light' : 'dark'));
  document.addEventListener('keydown', (evt) => {
    if ((evt.ctrlKey || evt.metaKey) && evt.key.toLowerCase() === 'p') {
      evt.preventDefault();
      new CommandPalette(app).open();
    } else if ((evt.ctrlKey || evt.metaKey) && evt.key === ',') {
      evt.preventDefault();
      app.setting.open();
    }
  });
}

/** Clicks on links in rendered markdown: notes open in the pane, nothing navigates the page away. */
function handleLinks(app: App): void {
  document.addEventListener('click', (evt) => {
    const a = evt.target instanceof Element ? evt.target.closest('a') : null;
    if (!a || evt.defaultPrevented) return;
    if (a.classList.contains('internal-link')) {
      evt.preventDefault();
      const target = a.getAttribute('data-href') ?? a.getAttribute('href') ?? '';
      void app.workspace.openLinkText(target, app.workspace.getActiveFile()?.path ?? '');
    } else if (a.closest('.markdown-rendered, .workspace-leaf-content') && a.getAttribute('href')) {
      evt.preventDefault();
      window.open(a.href, '_blank', 'noopener');
    }
  });
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  setTheme(null, params.get('theme') === 'dark' ? 'dark' : 'light');
  MarkdownView.defaultMode = params.get('view') === 'reading' ? 'preview' : 'source';
  const boot = (await (await fetch('/api/boot')).json()) as Boot;
  document.title = `${boot.vaultName} - Strata workbench`;

  // `?platform=phone`: Obsidian on a phone (issue 29): its body classes and Platform flags, set
  // before the plugin loads; the sidebars become full-width drawers (workbench.css).
  if (params.get('platform') === 'phone') {
    document.body.addClass('is-mobile', 'is-phone');
    Object.assign(obsidian.Platform, { isDesktop: false, isMobile: true, isMobileApp: true, isAndroidApp: true, isPhone: true });
  }
  const container = document.body.createDiv('app-container');
  const titlebar = container.createDiv('workbench-titlebar');
  const workspaceEl = container.createDiv('workspace');
  container.createDiv('status-bar');
  const app = new App(boot, workspaceEl);
  // Obsidian's core Web viewer (1.8+), faked: tabs of type `webviewer` (window.workbench.openWebViewer).
  app.workspace.registerViewCreator('webviewer', (leaf) => new WebViewerView(leaf));
  buildChrome(app, titlebar, boot.vaultName);
  mountExplorer(app, app.workspace.leftSplit.leavesEl);
  handleLinks(app);

  const api = makeWorkbenchApi(app, obsidian, errors);
  api.requiredModules = requiredModules;
  (window as unknown as { workbench: WorkbenchApi }).workbench = api;

  const first = boot.openNote ?? boot.files.filter((f) => f.kind === 'file' && f.path.endsWith('.md')).map((f) => f.path).sort()[0];
  const initial = first ? app.vault.getFileByPath(first) : null;
  if (initial) await app.workspace.getLeaf(false).openFile(initial);

  try {
    const loadStart = performance.now();
    await loadScript('/plugin/main.js');
    const w = window as unknown as { __workbenchPluginFactory?: Factory; __workbenchPluginBuildError?: string };
    if (w.__workbenchPluginBuildError) throw new Error(`The plugin bundle did not build:\n${w.__workbenchPluginBuildError}`);
    if (!w.__workbenchPluginFactory) throw new Error('The plugin bundle did not load');
    const module = { exports: {} as Record<string, unknown> };
    w.__workbenchPluginFactory(pluginRequire, module, module.exports);
    const loaded = performance.now();
    const PluginCtor = (module.exports.default ?? module.exports) as PluginClass;
    api.handlersBeforeLoad = api.handlerCounts();
    const plugin = new PluginCtor(app, boot.manifest);
    api.plugin = plugin;
    app.plugins.plugins[boot.manifest.id] = plugin;
    // Obsidian awaits an async onload before the layout is ready.
    plugin._loaded = true;
    await plugin.onload();
    // Resource Timing splits the load into the download from the workbench server and the rest.
    const download = performance.getEntriesByName(new URL('/plugin/main.js', location.href).href)[0];
    const fetchMs = download ? download.duration : null;
    api.pluginLoad = { fetchMs, loadMs: loaded - loadStart, onloadMs: performance.now() - loaded };
  } catch (e) {
    api.bootError = e instanceof Error ? (e.stack ?? e.message) : String(e);
    errors.push(api.bootError);
    console.error(e);
    new obsidian.Notice(`Workbench: the plugin failed to load. ${e instanceof Error ? e.message : String(e)}`, 0);
  }
  app.workspace.markLayoutReady();
  api.ready = true;
}

void main();
