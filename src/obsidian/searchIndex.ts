import { relatedNotes, type RelatedNote, type RelatedOptions } from '../core/search/relatedNotes';
import { normalizePath, TFile, type Plugin, type TAbstractFile } from 'obsidian';
import { readPluginText } from '../core/pluginFiles';
import { DEFAULT_TIMERS } from '../core/timers';
import type { Embedder } from '../core/search/embedder';
import { ChunkVectors, type SemanticStatus } from '../core/search/semantic';
import type { SearchHit, SearchOptions, VaultSearch } from '../core/search/types';
import { VaultIndex, type BuildReport, type IndexSettings, type RestoreReport } from '../core/search/vaultIndex';
import { ObsidianVaultReader } from './obsidianVault';
import { withCanvasText } from '../core/context/canvas/canvasSearch';
import type { VaultReader } from '../core/ports/vault';

/** Vaults with more notes than this to read show the build's progress in the status bar. */
const PROGRESS_FROM = 300;
const INDEX_FILE = 'search-index.json';
const VECTORS_FILE = 'search-vectors.json';
/** Chunks to embed from which the status bar shows the progress. */
const EMBED_PROGRESS_FROM = 200;
/** Quiet time after the last note change before the changed sections are embedded. */
const EMBED_AFTER_MS = 10_000;

/** What semantic search should use now: off (null), a reason it cannot run, or an embedder. */
export type SemanticChoice =
  | null
  | { readonly problem: string }
  | {
      readonly embedder: Embedder;
      /** Identifies the provider, endpoint and model: a new key means new vectors. */
      readonly key: string;
      readonly batchSize: number;
    };

export interface SearchIndexOptions {
  /** Vaults with at least this many notes show the build's progress in the status bar. */
  readonly progressFrom?: number;
  /** Semantic search as the settings ask for it now (off when not given). */
  readonly semantic?: () => SemanticChoice;
  /** Tells the user something went wrong (a Notice in the app). */
  readonly notify?: (message: string) => void;
}

interface EmbeddingRun {
  readonly controller: AbortController;
  /** Notes changed during the run: sync once more. */
  again: boolean;
  done: Promise<void>;
}

/** What the settings show about semantic search. */
export type SemanticState =
  | { readonly state: 'off' }
  | { readonly state: 'problem'; readonly problem: string }
  | ({ readonly state: 'on'; readonly embedding: boolean } & SemanticStatus);
/** The build pauses after every this many notes (and whenever a slice has run SLICE_MS); progress shows at these. */
const BATCH = 50;
/** Work between two pauses: well under the 50 ms that users feel as a stall. */
const SLICE_MS = 12;

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
  private readonly vault: VaultReader;
  /** Saves a while after the last change, not on every keystroke's modify event. */
  private readonly saveSoon = quietFor(30_000, () => void this.save());
  /** The last build's figures, for a status or a test. */
  lastBuild: BuildReport | null = null;
  /** Semantic search, when on: the vectors fused into every search. */
  private vectors: ChunkVectors | null = null;
  private semanticKey: string | null = null;
  private semanticProblem: string | null = null;
  private batchSize = 64;
  /** The embedding run under way (one at a time). */
  private embedding: EmbeddingRun | null = null;
  /** Errors already shown in a notice, so a failing provider is not announced after every edit. */
  private readonly announced = new Set<string>();
  private readonly embedSoon = quietFor(EMBED_AFTER_MS, () => void this.embed());

  private readonly progressFrom: number;
  private readonly semantic: () => SemanticChoice;
  private readonly notify: (message: string) => void;

  constructor(
    private readonly plugin: SearchHost,
    private readonly settings: () => IndexSettings,
    options: SearchIndexOptions = {},
  ) {
    this.progressFrom = options.progressFrom ?? PROGRESS_FROM;
    this.semantic = options.semantic ?? (() => null);
    this.notify = options.notify ?? ((message) => console.warn(message));
    const reader = new ObsidianVaultReader(plugin.app);
    // Canvases are searched as their text (issue 31).
    this.vault = withCanvasText(reader, () => reader.listCanvases());
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
            if (to.endsWith('.md') || to.endsWith('.canvas')) await this.index.rename(from, to);
            else this.index.remove(from);
          }
          if (isMarkdown(file) && !this.index.has(file.path)) await this.index.rename(oldPath, file.path);
        }),
      ),
    );
    this.plugin.register(() => {
      this.saveSoon.cancel();
      this.settingsChanged.cancel();
      this.embedSoon.cancel();
      this.stopEmbedding();
    });
    this.ready = this.enqueue(async () => {
      await this.restoreAndBuild();
      await this.applySemantic();
    });
  }

  /** Semantic search as it stands, for the settings. */
  semanticState(): SemanticState {
    if (this.vectors) return { state: 'on', embedding: this.embedding !== null, ...this.vectors.status };
    if (this.semanticProblem) return { state: 'problem', problem: this.semanticProblem };
    return { state: 'off' };
  }

  /** Resolves once the sections waiting to be embedded are (tests; the plugin never waits for it). */
  async embedded(): Promise<void> {
    await this.settled();
    this.embedSoon.cancel();
    await this.embed();
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
    // A query's embedding cost is in the status at once and saved with the next embedded sections:
    // rewriting the whole vectors file (tens of MB on a big vault) for a few tokens is not worth it.
    return this.index.search(query, options);
  }

  /** The notes related to `path` (core/search/relatedNotes.ts), from the same index; waits for the build. */
  async related(path: string, text: string, options?: RelatedOptions): Promise<RelatedNote[]> {
    await this.ready;
    return relatedNotes(this.index, path, text, options);
  }

  /** Settings changed: a different fingerprint (excluded folders, chunk sizes) means a new index. Waits for typing to stop. */
  readonly settingsChanged = quietFor(2000, () => this.applySettings());

  private applySettings(): void {
    const next = new VaultIndex(this.vault, this.settings());
    if (next.fingerprint === this.index.fingerprint) {
      void this.enqueue(() => this.applySemantic());
      return;
    }
    this.stopEmbedding();
    this.ready = this.enqueue(async () => {
      this.index = next;
      await this.build();
      await this.save();
      this.semanticKey = null; // The new index's chunks get the vectors again (by hash: nothing is re-embedded).
      await this.applySemantic();
    });
  }

  /**
   * Follows the semantic settings: off drops the vectors from the search (the saved file stays, so
   * turning it back on costs nothing); a new provider or model restores that model's vectors when
   * the file holds them, or starts over, and embeds what is missing in the background.
   */
  private async applySemantic(): Promise<void> {
    const choice = this.semantic();
    if (choice === null || 'problem' in choice) {
      this.stopEmbedding();
      this.vectors = null;
      this.semanticKey = null;
      this.semanticProblem = choice?.problem ?? null;
      this.index.setSemantic(null);
      return;
    }
    this.semanticProblem = null;
    if (choice.key === this.semanticKey && this.vectors) {
      this.index.setSemantic(this.vectors);
      return;
    }
    this.stopEmbedding();
    const saved = await this.readJson(VECTORS_FILE);
    this.vectors = saved === null ? ChunkVectors.create(choice.embedder) : ChunkVectors.restore(saved, choice.embedder);
    this.semanticKey = choice.key;
    this.batchSize = choice.batchSize;
    this.index.setSemantic(this.vectors);
    this.embedSoon.cancel();
    void this.embed();
  }

  /**
   * Embeds the sections that have no current vector, outside the update queue (a first run over a
   * big vault takes minutes; searches and note events go on meanwhile, sections without a vector
   * are found by their words). A failure keeps what was embedded and is shown once.
   */
  private embed(): Promise<void> {
    if (!this.vectors) return Promise.resolve();
    if (this.embedding) {
      this.embedding.again = true;
      return this.embedding.done;
    }
    const run: EmbeddingRun = { controller: new AbortController(), again: false, done: Promise.resolve() };
    this.embedding = run;
    run.done = this.embedWhileChanged(this.vectors, run).finally(() => {
      if (this.embedding === run) this.embedding = null;
    });
    return run.done;
  }

  private stopEmbedding(): void {
    this.embedding?.controller.abort();
    this.embedding = null;
  }

  /** Syncs, and again while notes changed during the last pass. */
  private async embedWhileChanged(vectors: ChunkVectors, run: EmbeddingRun): Promise<void> {
    do {
      run.again = false;
      await this.embedOnce(vectors, run.controller.signal);
    } while (run.again && this.vectors === vectors && !run.controller.signal.aborted);
  }

  private async embedOnce(vectors: ChunkVectors, signal: AbortSignal): Promise<void> {
    const bar: { el: HTMLElement | null } = { el: null };
    try {
      const report = await vectors.sync(this.index, {
        batchSize: this.batchSize,
        signal,
        pause: macrotask,
        onProgress: (done, total) => {
          if (total < EMBED_PROGRESS_FROM || done >= total) return;
          bar.el ??= this.plugin.addStatusBarItem();
          bar.el.setText(`Embedding notes for semantic search: ${done} of ${total} sections`);
        },
      });
      if (report.embedded > 0 || report.reused > 0 || report.removed > 0) await this.saveVectors();
    } catch (error) {
      if (signal.aborted) return;
      await this.saveVectors(); // The batches that arrived are paid for.
      const message = error instanceof Error ? error.message : String(error);
      if (!this.announced.has(message)) {
        this.announced.add(message);
        this.notify(`Strata semantic search: ${message}\nSearch uses words only until this is fixed (Settings → Strata → Semantic search).`);
      }
    } finally {
      bar.el?.remove();
    }
  }

  private onChange(file: TAbstractFile): void {
    // Chat notes change on every reply: not read at all (excluded folders).
    if (!isMarkdown(file) || this.index.isExcluded(file.path)) return;
    void this.enqueue(async () => {
      let text: string | null;
      try {
        text = await this.vault.read(file.path);
      } catch {
        // A file that does not read (a canvas that is not valid JSON Canvas) is not searched.
        this.index.remove(file.path);
        return;
      }
      if (text === null) return;
      await this.index.update(file.path, text, { mtime: file.stat.mtime, size: file.stat.size }, SLICES);
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
        if (this.vectors) this.embedSoon();
      },
      (error: unknown) => console.error('Strata search index:', error),
    );
    this.queue = run;
    return run;
  }

  private async restoreAndBuild(): Promise<void> {
    const report = await this.restoreSaved();
    const restored = report === 'restored';
    // Damaged or another version's: rebuilt from the notes, said once (other settings are the user's change: no notice).
    if (report === 'damaged' || report === 'other-version') {
      this.tell(`Strata search: the saved index (${INDEX_FILE}) was ${report === 'damaged' ? 'damaged' : 'written by another version'}; it is rebuilt from your notes.`);
    }
    const built = await this.build();
    if (!restored || built.indexed > 0 || built.removed > 0 || built.skipped > 0) await this.save();
  }

  /**
   * The saved index restored in slices (null: no file). Its own call, so the file's text (tens of
   * MB on a big vault) is garbage once restored, not held by the build that follows.
   */
  private async restoreSaved(): Promise<RestoreReport | null> {
    const saved = await this.readSaved();
    return saved === null ? null : this.index.restoreReportAsync(saved, SLICES);
  }

  private async build(): Promise<BuildReport> {
    const bar: { el: HTMLElement | null } = { el: null };
    try {
      this.lastBuild = await this.index.build({
        ...SLICES,
        yieldEvery: BATCH,
        onProgress: (done, total) => {
          if (total < this.progressFrom || done >= total || done % BATCH !== 0) return;
          bar.el ??= this.plugin.addStatusBarItem();
          bar.el.setText(`Indexing notes for search: ${done} of ${total}`);
        },
      });
      return this.lastBuild;
    } finally {
      bar.el?.remove();
    }
  }

  private pluginFile(name: string): string {
    return normalizePath(`${this.plugin.manifest.dir ?? `${this.plugin.app.vault.configDir}/plugins/${this.plugin.manifest.id}`}/${name}`);
  }

  /** A plugin file's text; null when missing, unreadable or too big to read (said once), see src/core/pluginFiles.ts. */
  private async readSaved(name: typeof INDEX_FILE | typeof VECTORS_FILE = INDEX_FILE): Promise<string | null> {
    const adapter = this.plugin.app.vault.adapter;
    const path = this.pluginFile(name);
    const read = await readPluginText(name, {
      size: async () => (await adapter.stat(path))?.size ?? null,
      read: () => adapter.read(path),
    });
    if (read.problem !== null) this.tell(`Strata search: ${read.problem}; it is made again from your notes.`);
    return read.text;
  }

  private async readJson(name: typeof VECTORS_FILE): Promise<unknown> {
    const text = await this.readSaved(name);
    if (text === null) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      this.tell(`Strata semantic search: ${name} was damaged; the notes are embedded again.`);
      return null;
    }
  }

  /** A notice for a damaged plugin file, once per message. */
  private tell(message: string): void {
    if (this.announced.has(message)) return;
    this.announced.add(message);
    this.notify(message);
  }

  private async save(): Promise<void> {
    try {
      await this.plugin.app.vault.adapter.write(this.pluginFile(INDEX_FILE), await this.index.serialize(SLICES));
    } catch (error) {
      console.error('Strata search index: could not save', error);
    }
  }

  private async saveVectors(): Promise<void> {
    if (!this.vectors) return;
    try {
      await this.plugin.app.vault.adapter.write(this.pluginFile(VECTORS_FILE), JSON.stringify(this.vectors));
    } catch (error) {
      console.error('Strata semantic search: could not save the embeddings', error);
    }
  }
}

const timers = DEFAULT_TIMERS;
const macrotask = (): Promise<void> => new Promise((resolve) => timers.setTimeout(resolve, 0));

/**
 * A pause between slices: a message to ourselves is a macrotask (input and rendering run first)
 * without the 4 ms that nested timeouts are clamped to, which would add a third to a big build.
 */
function uiPause(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return macrotask();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** How the index's work is sliced in the app: timed by the monotonic clock, paused with uiPause. */
const SLICES = { sliceMs: SLICE_MS, now: () => performance.now(), pause: uiPause };

/** `run` once calls have stopped for `ms` (Obsidian's debounce with resetTimer, which the Node shim lacks). */
function quietFor(ms: number, run: () => void): { (): void; cancel(): void; flush(): void } {
  let handle: unknown = null;
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
  call.flush = (): void => {
    if (handle === null) return;
    call.cancel();
    run();
  };
  return call;
}

/** What the search needs of the plugin (the whole Plugin in the app; a stand-in in Node tests). */
export type SearchHost = Pick<Plugin, 'app' | 'manifest' | 'registerEvent' | 'register' | 'addStatusBarItem'>;

/** A note, or a canvas (indexed as its text). */
function isMarkdown(file: TAbstractFile): file is TFile {
  return file instanceof TFile && (file.extension === 'md' || file.extension === 'canvas');
}
