import type { EventRef, TAbstractFile, Vault } from 'obsidian';
import { EMPTY_LIBRARY, isPromptNotePath, loadPrompts, normalizePromptsFolder, promptCommandIds, type PromptLibrary, type PromptNoteFile } from '../core/slashPrompts/library';
import type { CustomPrompt } from '../core/slashPrompts/promptNote';

/** Where the "Run prompt: name" commands go (the plugin's addCommand/removeCommand). */
export interface PromptCommands {
  add(id: string, name: string, run: () => void): void;
  remove(id: string): void;
}

/**
 * The prompts folder's notes as prompts, kept current: a note created, edited, renamed or deleted
 * there (or the folder itself moved) reloads the folder, and each usable prompt has a command
 * "Run prompt: name" (no default hotkey), added and removed as prompts come and go.
 */
export class PromptRegistry {
  private library: PromptLibrary = EMPTY_LIBRARY;
  /** Registered commands: id → the command's name. */
  private readonly registered = new Map<string, string>();
  private loading: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly vault: Vault,
    private readonly folder: () => string,
    private readonly commands: PromptCommands,
    private readonly run: (name: string) => void,
  ) {}

  get current(): PromptLibrary {
    return this.library;
  }

  /** The normalized folder ('' when the setting names none: then there are no prompts). */
  folderPath(): string {
    return normalizePromptsFolder(this.folder());
  }

  find(name: string): CustomPrompt | null {
    const key = name.toLowerCase();
    return this.library.prompts.find((p) => p.name.toLowerCase() === key) ?? null;
  }

  /** Reload on the vault's changes under the folder; `register` keeps the refs (plugin.registerEvent). */
  watch(register: (ref: EventRef) => void): void {
    const changed = (file: TAbstractFile, oldPath?: string): void => {
      if (this.concerns(file.path) || (oldPath !== undefined && this.concerns(oldPath))) void this.reload();
    };
    register(this.vault.on('create', (file) => changed(file)));
    register(this.vault.on('modify', (file) => changed(file)));
    register(this.vault.on('delete', (file) => changed(file)));
    register(this.vault.on('rename', (file, oldPath) => changed(file, oldPath)));
  }

  /** A path inside the folder, the folder itself, or one of its parents (moving it moves the prompts). */
  private concerns(path: string): boolean {
    const folder = this.folderPath();
    if (!folder) return false;
    return isPromptNotePath(folder, path) || folder === path || folder.startsWith(`${path}/`);
  }

  /** Resolves once the load in progress (if any) is done. */
  settled(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  /** Read the folder again. Calls while a load runs are folded into one more load after it. */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          await this.load();
        } while (this.again);
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private async load(): Promise<void> {
    const folder = this.folderPath();
    const notes = folder ? this.vault.getMarkdownFiles().filter((f) => isPromptNotePath(folder, f.path)) : [];
    const files: PromptNoteFile[] = [];
    const unreadable: { path: string; error: string }[] = [];
    for (const note of notes) {
      try {
        files.push({ path: note.path, text: await this.vault.cachedRead(note) });
      } catch (error) {
        unreadable.push({ path: note.path, error: error instanceof Error ? error.message : String(error) });
      }
    }
    const library = loadPrompts(files);
    this.library = {
      ...library,
      problems: [...library.problems, ...unreadable.map((u) => ({ name: u.path.replace(/^.*\//, '').replace(/\.md$/i, ''), path: u.path, problem: `it could not be read (${u.error})` }))],
    };
    this.syncCommands();
  }

  private syncCommands(): void {
    const ids = promptCommandIds(this.library.prompts);
    const wanted = new Map<string, { name: string; prompt: string }>();
    for (const prompt of this.library.prompts) wanted.set(ids.get(prompt.name) ?? '', { name: `Run prompt: ${prompt.name}`, prompt: prompt.name });
    for (const [id, name] of [...this.registered]) {
      if (wanted.get(id)?.name !== name) {
        this.commands.remove(id);
        this.registered.delete(id);
      }
    }
    for (const [id, command] of wanted) {
      if (this.registered.has(id)) continue;
      this.commands.add(id, command.name, () => this.run(command.prompt));
      this.registered.set(id, command.name);
    }
  }

  /** The registered commands (id → name), in id order: for tests and the settings' summary. */
  commandList(): [string, string][] {
    return [...this.registered].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
