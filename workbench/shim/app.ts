import type { FileEntry } from './api';
import { Commands } from './commands';
import { FileManager } from './fileManager';
import { MetadataCache } from './metadata';
import { Keymap, Scope } from './scope';
import { SecretStorage } from './secretStorage';
import { SettingsModal } from './settingsModal';
import { Vault } from './vault';
import { Workspace } from './workspace';
import { setDataview } from './dataview';

export interface AppBoot {
  vaultName: string;
  files: FileEntry[];
  secrets: Record<string, string>;
}

/** Obsidian's App: the vault, workspace, metadata cache, file manager and secret storage. */
export class App {
  vault: Vault;
  workspace: Workspace;
  metadataCache: MetadataCache;
  fileManager: FileManager;
  secretStorage: SecretStorage;
  keymap = new Keymap();
  scope = new Scope();
  lastEvent: UIEvent | null = null;
  /** Internal in Obsidian, used by plugins and tests: the command registry and the settings window. */
  commands: Commands;
  setting: SettingsModal;
  plugins: { plugins: Record<string, unknown>; getPlugin(id: string): unknown } = {
    plugins: {},
    getPlugin(id: string) {
      return this.plugins[id] ?? null;
    },
  };

  constructor(boot: AppBoot, workspaceEl: HTMLElement) {
    this.vault = new Vault(boot.vaultName, boot.files);
    this.metadataCache = new MetadataCache(this.vault);
    this.fileManager = new FileManager(this);
    this.secretStorage = new SecretStorage(boot.secrets);
    this.commands = new Commands(this);
    this.workspace = new Workspace(this, workspaceEl);
    this.setting = new SettingsModal(this);
    // Dataview is "enabled" in the workbench: its stand-in answers queries over this vault.
    setDataview(this, true);
    document.addEventListener('keydown', (evt) => {
      this.lastEvent = evt;
      this.keymap.handle(evt);
    });
  }

  loadLocalStorage(key: string): unknown {
    const raw = window.localStorage.getItem(`${this.vault.getName()}-${key}`);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  }

  saveLocalStorage(key: string, data: unknown): void {
    const k = `${this.vault.getName()}-${key}`;
    if (data === undefined || data === null) window.localStorage.removeItem(k);
    else window.localStorage.setItem(k, JSON.stringify(data));
  }

  isDarkMode(): boolean {
    return document.body.classList.contains('theme-dark');
  }
}
