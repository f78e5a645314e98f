import { normalizePath, TFile, type Plugin, type TAbstractFile } from 'obsidian';
import type { SearchHit, SearchOptions, VaultSearch } from '../core/search/types';
import { VaultIndex, type BuildReport, type IndexSettings } from '../core/search/vaultIndex';
import { ObsidianVaultReader } from './obsidianVault';

/** Vaults with more notes than this to read show the build's progress in the status bar. */
const PROGRESS_FROM = 300;
const INDEX_FILE = 'search-index.json';
/** Notes indexed between two pauses of the build. */
const BATCH = 50;

/**
 * The vault search inside Obsidian: restored from the plugin folder, brought up to date in the
 * background once the layout is ready (batches with pauses, progress in the status bar), kept
 * current from vault events, and saved back a little after changes. Searches wait for the build.
 */
export class ObsidianVaultSearch implements VaultSearch {
  private index: VaultIndex;
  private ready: Promise<void> = Promise.resolve();
  /** Index updates run one after another (a build, then the events that came during it). */
  private queue: Promise<unknown> = Promise.resolve();
  private started = false;
  private readonly vault: ObsidianVaultReader;
  /** Saves a while after the last change, not on every keystroke's modify event. */
  private readonly saveSoon = quietFor(30_000, () => void this.save());
  /** The last build's figures, for a status or a test. */
  lastBuild: BuildReport | null = null;

  constructor(
    private readonly plugin: SearchHost,
    private readonly settings: () => IndexSettings,
    /** Vaults with at least this many notes show the build's progress in the status bar. */
    private readonly progressFrom = PROGRESS_FROM,
  ) {
    this.vault = new ObsidianVaultReader(plugin.app);
    this.index = new VaultIndex(this.vault, settings());
  }

  /** Call once the workspace layout is ready (Obsidian fires 'create' for every file while it loads). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const { vault } = this.plugin.app;
    this.plugin.registerEvent(vault.on('create', (file) => this.onChange(file)));
    this.plugin.registerEvent(vault.on('modify', (file) => this.onChange(file)));
    this.plugin.registerEvent(
      vault.on('delete', (file) =>
        void this.enqueue(() => {
          for (const path of this.notesAt(file.path)) this.index.remove(path);
        }),
      ),
    );
    // A folder's rename moves every note in it; a note's own event may follow, which is then a no-op.
    this.plugin.registerEvent(
      vault.on('rename', (file, oldPath) =>
        void this.enqueue(async () => {
          for (const from of this.notesAt(oldPath)) {
            const to = file.path + from.slice(oldPath.length);
            if (to.endsWith('.md')) await this.index.rename(from, to);
            else this.index.remove(from);
          }
          if (isMarkdown(file) && !this.index.has(file.path)) await this.index.rename(oldPath, file.path);
        }),
      ),
    );
    this.plugin.register(() => {
      this.saveSoon.cancel();
      this.settingsChanged.cancel();
    });
    this.ready = this.enqueue(() => this.restoreAndBuild());
  }

  /** Resolves once the build and every update received so far are in the index. */
  async settled(): Promise<void> {
    for (let seen = this.queue; ; seen = this.queue) {
      await seen;
      if (seen === this.queue) return;
    }
  }

  async search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    await this.ready;
    return this.index.search(query, options);
  }

  /** Settings changed: a different fingerprint (excluded folders, chunk sizes) means a new index. Waits for typing to stop. */
  readonly settingsChanged = quietFor(2000, () => this.applySettings());

  private applySettings(): void {
    const next = new VaultIndex(this.vault, this.settings());
    if (next.fingerprint === this.index.fingerprint) return;
    this.ready = this.enqueue(async () => {
      this.index = next;
      await this.build();
      await this.save();
    });
  }

  private onChange(file: TAbstractFile): void {
    // Chat notes change on every reply: not read at all (excluded folders).
    if (!isMarkdown(file) || this.index.isExcluded(file.path)) return;
    void this.enqueue(async () => {
      const text = await this.vault.read(file.path);
      if (text === null) return;
      this.index.upsert(file.path, text, { mtime: file.stat.mtime, size: file.stat.size });
    });
  }

  /** The indexed note at `path`, or every indexed note under it when it is a folder. */
  private notesAt(path: string): string[] {
    return this.index.paths().filter((p) => p === path || p.startsWith(`${path}/`));
  }

  private enqueue(task: () => Promise<void> | void): Promise<void> {
    const run = this.queue.then(task).then(
      () => {
        this.saveSoon();
      },
      (error: unknown) => console.error('Strata search index:', error),
    );
    this.queue = run;
    return run;
  }

  private async restoreAndBuild(): Promise<void> {
    const saved = await this.readSaved();
    const restored = saved !== null && this.index.restore(saved);
    const report = await this.build();
    if (!restored || report.indexed > 0 || report.removed > 0 || report.skipped > 0) await this.save();
  }

  private async build(): Promise<BuildReport> {
    const bar: { el: HTMLElement | null } = { el: null };
    try {
      this.lastBuild = await this.index.build({
        yieldEvery: BATCH,
        onProgress: (done, total) => {
          if (total < this.progressFrom || done >= total) return;
          bar.el ??= this.plugin.addStatusBarItem();
          bar.el.setText(`Indexing notes for search: ${done} of ${total}`);
        },
      });
      return this.lastBuild;
    } finally {
      bar.el?.remove();
    }
  }

  private indexPath(): string {
    return normalizePath(`${this.plugin.manifest.dir ?? `${this.plugin.app.vault.configDir}/plugins/${this.plugin.manifest.id}`}/${INDEX_FILE}`);
  }

  private async readSaved(): Promise<string | null> {
    const adapter = this.plugin.app.vault.adapter;
    const path = this.indexPath();
    try {
      return (await adapter.exists(path)) ? await adapter.read(path) : null;
    } catch {
      return null; // Unreadable: the build reads every note instead.
    }
  }

  private async save(): Promise<void> {
    try {
      await this.plugin.app.vault.adapter.write(this.indexPath(), await this.index.serialize());
    } catch (error) {
      console.error('Strata search index: could not save', error);
    }
  }
}

// The window's timers in Obsidian (popout-safe), Node's in tests.
const timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = typeof window !== 'undefined' ? window : { setTimeout, clearTimeout };

/** `run` once calls have stopped for `ms` (Obsidian's debounce with resetTimer, which the Node shim lacks). */
function quietFor(ms: number, run: () => void): { (): void; cancel(): void } {
  let handle: ReturnType<typeof setTimeout> | null = null;
  const call = (): void => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = timers.setTimeout(() => {
      handle = null;
      run();
    }, ms);
  };
  call.cancel = (): void => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
  return call;
}

/** What the search needs of the plugin (the whole Plugin in the app; a stand-in in Node tests). */
export type SearchHost = Pick<Plugin, 'app' | 'manifest' | 'registerEvent' | 'register' | 'addStatusBarItem'>;

function isMarkdown(file: TAbstractFile): file is TFile {
  return file instanceof TFile && file.extension === 'md';
}
