import { call } from './api';
import type { App } from './app';
import type { Command } from './commands';
import { Component } from './component';
import { setIcon } from './icons';
import type { PluginSettingTab } from './setting';
import { setTooltip } from './util';
import type { ViewCreator } from './workspace';

export interface PluginManifest {
  id: string;
  name: string;
  version: string;
  minAppVersion: string;
  description: string;
  author: string;
  authorUrl?: string;
  isDesktopOnly?: boolean;
  dir?: string;
}

/** Obsidian's Plugin. Data lives in `<vault>/.obsidian/plugins/<id>/data.json` on disk. */
export abstract class Plugin extends Component {
  app: App;
  manifest: PluginManifest;
  /** Not Obsidian API: what the plugin registered, for the workbench's own pages. */
  readonly settingTabs: PluginSettingTab[] = [];
  readonly viewTypes: string[] = [];

  constructor(app: App, manifest: PluginManifest) {
    super();
    this.app = app;
    this.manifest = { dir: `${app.vault.configDir}/plugins/${manifest.id}`, ...manifest };
  }

  private get dataPath(): string {
    return `${this.manifest.dir ?? ''}/data.json`;
  }

  async loadData(): Promise<unknown> {
    const stat = await this.app.vault.adapter.stat(this.dataPath);
    if (!stat) return null;
    return JSON.parse(await this.app.vault.adapter.read(this.dataPath)) as unknown;
  }

  async saveData(data: unknown): Promise<void> {
    await call('PUT', 'fs/write', { path: this.dataPath, mode: 'overwrite' }, JSON.stringify(data, null, 2));
  }

  onExternalSettingsChange(): void | Promise<void> {}

  addCommand(command: Command): Command {
    const full: Command = { ...command, id: `${this.manifest.id}:${command.id}`, name: `${this.manifest.name}: ${command.name}` };
    this.app.commands.addCommand(full);
    this.register(() => this.app.commands.removeCommand(full.id));
    return full;
  }

  removeCommand(commandId: string): void {
    this.app.commands.removeCommand(`${this.manifest.id}:${commandId}`);
  }

  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.app.workspace.leftRibbon.containerEl.createDiv({ cls: 'side-dock-ribbon-action clickable-icon', attr: { 'aria-label': title } });
    setIcon(el, icon);
    setTooltip(el, title);
    el.addEventListener('click', (evt) => void callback(evt));
    this.register(() => el.remove());
    return el;
  }

  addStatusBarItem(): HTMLElement {
    const bar = document.body.querySelector<HTMLElement>('.status-bar') ?? document.body.createDiv('status-bar');
    const el = bar.createDiv('status-bar-item plugin-' + this.manifest.id);
    this.register(() => el.remove());
    return el;
  }

  addSettingTab(settingTab: PluginSettingTab): void {
    this.settingTabs.push(settingTab);
    this.app.setting.addTab(settingTab);
    this.register(() => this.app.setting.removeTab(settingTab));
  }

  registerView(type: string, viewCreator: ViewCreator): void {
    this.app.workspace.registerViewCreator(type, viewCreator);
    this.viewTypes.push(type);
    this.register(() => {
      this.app.workspace.detachLeavesOfType(type);
      this.app.workspace.unregisterViewCreator(type);
    });
  }

  registerExtensions(_extensions: string[], _viewType: string): void {}
  registerHoverLinkSource(_id: string, _info: unknown): void {}
  registerMarkdownPostProcessor(postProcessor: unknown): unknown {
    return postProcessor;
  }
  registerMarkdownCodeBlockProcessor(_language: string, handler: unknown): unknown {
    return handler;
  }
  registerEditorExtension(_extension: unknown): void {}
  registerEditorSuggest(_editorSuggest: unknown): void {}
  registerObsidianProtocolHandler(_action: string, _handler: unknown): void {}
  registerBasesView(): boolean {
    return false;
  }
  registerCliHandler(): void {}
}
