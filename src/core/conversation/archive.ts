import type { ChatArchivePort, ChatListRow, LoadedChat, SaveResult, SearchOptions } from '../ports/chatArchive';
import { withFlags, type ChatFlags } from './chatFlags';
import { encodeChatNote } from './codec';
import { decodeChatNoteKept, forgetDecodedNote, keepSavedNote } from './decodedNotes';
import { noteFormat } from './lineEndings';
import { mergeChatNote } from './merge';
import { searchableText, chatListRowOf } from './chatListRow';
import type { Clock } from '../ports/clock';
import type { Conversation } from './model';
import type { ChatNoteStore } from '../ports/chatNoteStore';
import { isoFromEpoch } from './time';
import { projectChatsFolder } from '../projects/folders';
import { DEFAULT_CHAT_FOLDER, normalizeChatFolder } from '../vaultFolders';
import { noteTitleName } from './noteName';

/** What the archive needs of a project: where its chats go (src/core/projects). */
export interface ProjectFolder {
  readonly id: string;
  readonly folder: string;
}

/**
 * The chats folder: save (create, or update atomically, merging a concurrent edit), load, list,
 * search, rename, delete. It remembers what it last wrote or read per path, which is the base of
 * the three-way merge when a save finds the note changed.
 */
export class ChatArchive implements ChatArchivePort {
  private readonly lastText = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  /**
   * The title each chat's file was named for (or read with), by id: the file is renamed when the
   * title changes, never because its name differs (a note the user renamed by hand keeps its name
   * until the chat's title changes).
   */
  private readonly named = new Map<string, string>();
  readonly folder: string;

  /**
   * `projects`: read at each call. A chat of a project is created in the project's chats folder
   * (`<folder>/Chats`), and those folders are listed too (only notes that carry a chat id there: the
   * folder may hold the user's own notes).
   */
  constructor(
    private readonly store: ChatNoteStore,
    private readonly clock: Clock,
    folder: string = DEFAULT_CHAT_FOLDER,
    private readonly projects: () => readonly ProjectFolder[] = () => [],
  ) {
    this.folder = normalizeChatFolder(folder);
  }

  /** The project chats folders, besides the chat folder. */
  private projectFolders(): string[] {
    const out: string[] = [];
    for (const project of this.projects()) {
      const folder = projectChatsFolder(project.folder);
      if (folder !== null && folder !== this.folder && !out.includes(folder)) out.push(folder);
    }
    return out;
  }

  /** Where a new chat is created: its project's chats folder, else the chat folder. */
  private folderFor(conversation: Conversation): string {
    const project = conversation.project ? this.projects().find((p) => p.id === conversation.project) : undefined;
    return (project && projectChatsFolder(project.folder)) ?? this.folder;
  }

  /** Where a chat is saved: from the id index, or found by listing the folder when it is not known yet. */
  async pathOf(id: string): Promise<string> {
    const known = this.paths.get(id);
    if (known !== undefined) return known;
    await this.list();
    const found = this.paths.get(id);
    if (found === undefined) throw new Error(`No saved chat with id ${id} in ${this.folder}`);
    return found;
  }

  async save(conversation: Conversation): Promise<SaveResult> {
    let known = this.paths.get(conversation.id);
    // Is the note there? Asked without reading it where the store can (process() reads it to merge).
    const there = async (path: string): Promise<boolean> => (this.store.exists ? this.store.exists(path) : (await this.store.read(path)) !== null);
    let exists = known !== undefined && (await there(known));
    if (known !== undefined && !exists) {
      // The note was renamed or moved inside the folder while the chat was open: find it by id
      // instead of writing a duplicate.
      const previous = known;
      await this.list();
      known = this.paths.get(conversation.id);
      if (known !== undefined && known !== previous) {
        const base = this.lastText.get(previous);
        if (base !== undefined) this.lastText.set(known, base);
      }
      exists = known !== undefined && (await there(known));
    }
    if (known !== undefined && exists) {
      let result: SaveResult = { path: known, conversation, edited: [], warnings: [] };
      const written = await this.store.process(known, (current) => {
        const base = this.lastText.get(known);
        if (base === undefined || base === current) {
          result = { path: known, conversation, edited: [], warnings: [] };
          return encodeChatNote(conversation, noteFormat(current));
        }
        const merged = mergeChatNote(base, current, conversation);
        result = { path: known, ...merged };
        return encodeChatNote(merged.conversation, noteFormat(current));
      });
      this.lastText.set(known, written);
      keepSavedNote(known, written, result.conversation);
      const path = await this.followTitle(result.conversation, known);
      return path === known ? result : { ...result, path };
    }
    const text = encodeChatNote(conversation);
    const path = await this.freePath(conversation.created, conversation.title, this.folderFor(conversation));
    await this.store.create(path, text);
    this.lastText.set(path, text);
    keepSavedNote(path, text, conversation);
    this.paths.set(conversation.id, path);
    this.named.set(conversation.id, conversation.title);
    return { path, conversation, edited: [], warnings: [] };
  }

  /**
   * The chat's title changed since its file was named (a generated title arrived, the user renamed
   * it): the file takes the new title's name in its folder (Obsidian's renameFile updates links to
   * it). A chat still titled by its first words keeps the name it was created with. A failed rename
   * leaves the name: the chat is saved either way. Returns where the note is now.
   */
  private async followTitle(conversation: Conversation, path: string): Promise<string> {
    const id = conversation.id;
    const was = this.named.get(id);
    if (!this.store.rename || was === undefined || was === conversation.title || conversation.titleSource === 'first-message') return path;
    this.named.set(id, conversation.title);
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const target = await this.freePath(conversation.created, conversation.title, folder, path);
    if (target === path) return path;
    try {
      await this.store.rename(path, target);
    } catch {
      return path;
    }
    const text = this.lastText.get(path);
    this.lastText.delete(path);
    // Kept by path (a note without an id reads it from its name): read again at the new one.
    forgetDecodedNote(path);
    if (text !== undefined) this.lastText.set(target, text);
    this.paths.set(id, target);
    return target;
  }

  /** Open a saved chat by id (one note read and decoded; the folder is listed again only if it moved). */
  async load(id: string): Promise<LoadedChat> {
    const known = this.paths.get(id);
    if (known !== undefined) {
      const loaded = await this.tryLoad(known);
      if (loaded && loaded.conversation.id === id) return loaded;
      this.paths.delete(id);
    }
    // Not known yet (a fresh archive: the first chat opened after Obsidian starts): the listing reads
    // every note's head anyway, and keeps this chat's text, so its note (megabytes) is not read twice.
    const listed = await this.listing(id);
    const path = this.paths.get(id);
    if (path === undefined) throw new Error(`No saved chat with id ${id} in ${this.folder}`);
    if (listed.text !== undefined && listed.path === path) return this.decoded(path, listed.text);
    return this.loadPath(path);
  }

  /** Read a chat note. Never throws for bad content; a missing file is an error. */
  async loadPath(path: string): Promise<LoadedChat> {
    const loaded = await this.tryLoad(path);
    if (!loaded) throw new Error(`chat note not found: ${path}`);
    return loaded;
  }

  private async tryLoad(path: string): Promise<LoadedChat | null> {
    const text = await this.store.read(path);
    return text === null ? null : this.decoded(path, text);
  }

  private decoded(path: string, text: string): LoadedChat {
    const decoded = decodeChatNoteKept(path, text, { id: idFromPath(path), now: () => this.clock.now() });
    this.lastText.set(path, text);
    this.paths.set(decoded.conversation.id, path);
    if (!this.named.has(decoded.conversation.id)) this.named.set(decoded.conversation.id, decoded.conversation.title);
    return { ...decoded, path };
  }

  /** Every chat in the chat folder and the projects' chats folders, most recently updated first: read from each note's properties, never decoded. */
  async list(): Promise<ChatListRow[]> {
    return (await this.listing()).rows;
  }

  /** list(), keeping the text of the note listed under `wanted` (the chat load() looks for). */
  private async listing(wanted?: string): Promise<{ rows: ChatListRow[]; path?: string; text?: string }> {
    let kept: { path: string; text: string } | undefined;
    const out: ChatListRow[] = [];
    const ids = new Map<string, string>();
    // The chat folder's notes are all listed; in a project's chats folder, only chat notes.
    const paths = new Map<string, boolean>((await this.store.list(this.folder)).map((path) => [path, false]));
    for (const folder of this.projectFolders()) for (const path of await this.store.list(folder)) if (!paths.has(path)) paths.set(path, true);
    for (const [path, chatsOnly] of paths) {
      const text = await this.store.read(path);
      if (text === null) continue;
      // In a project's chats folder, a note without a chat id (listed under '') is the user's, not a chat.
      const summary = chatListRowOf(path, text, chatsOnly ? '' : idFromPath(path));
      if (summary.id === '') continue;
      // A note copied with "Make a copy" shares its id: the first path (sorted) keeps it.
      if (!ids.has(summary.id)) {
        ids.set(summary.id, path);
        if (summary.id === wanted) kept = { path, text };
      }
      if (!this.named.has(summary.id)) this.named.set(summary.id, summary.title);
      out.push(summary);
    }
    for (const [id, path] of this.paths) if (ids.get(id) !== path) this.paths.delete(id);
    for (const [id, path] of ids) this.paths.set(id, path);
    return { rows: out.sort((a, b) => b.updated - a.updated || (a.path < b.path ? -1 : 1)), ...kept };
  }

  /**
   * Chats whose title or any message contains every word of the query (case-insensitive). The
   * bodies are read one by one (not decoded); `progress` hears how far it got, and a newer search
   * can stop this one through `signal`.
   */
  async search(query: string, options: SearchOptions = {}): Promise<ChatListRow[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const all = await this.list();
    if (words.length === 0) return all;
    const hits: ChatListRow[] = [];
    for (const [i, summary] of all.entries()) {
      if (options.signal?.aborted) break;
      const title = summary.title.toLowerCase();
      if (matchesAll(title, words)) hits.push(summary);
      else {
        const text = await this.store.read(summary.path);
        if (text !== null && matchesAll(`${title}\n${searchableText(text)}`, words)) hits.push(summary);
      }
      options.progress?.(i + 1, all.length, hits);
    }
    return hits;
  }

  /** Set a user title; the file is renamed after it (Obsidian's renameFile keeps links to it working). */
  async rename(id: string, title: string): Promise<void> {
    const path = await this.pathOf(id);
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!clean) throw new Error('a chat title cannot be empty');
    let renamed: Conversation | null = null;
    const written = await this.store.process(path, (current) => {
      const { conversation } = decodeChatNoteKept(path, current, { id: idFromPath(path), now: () => this.clock.now() });
      renamed = { ...conversation, title: clean, titleSource: 'user' };
      return encodeChatNote(renamed);
    });
    this.lastText.set(path, written);
    if (renamed) keepSavedNote(path, written, renamed);
    if (renamed) await this.followTitle(renamed, path);
  }

  /** Pin, unpin, archive or bring back a chat (its note's properties; the file keeps its name). */
  async setFlags(id: string, flags: ChatFlags): Promise<void> {
    const path = await this.pathOf(id);
    let flagged: Conversation | null = null;
    const written = await this.store.process(path, (current) => {
      flagged = withFlags(decodeChatNoteKept(path, current, { id: idFromPath(path), now: () => this.clock.now() }).conversation, flags);
      return encodeChatNote(flagged);
    });
    this.lastText.set(path, written);
    if (flagged) keepSavedNote(path, written, flagged);
  }

  /** Move a chat note to the trash. */
  async delete(id: string): Promise<void> {
    const path = await this.pathOf(id);
    await this.store.trash(path);
    this.lastText.delete(path);
    forgetDecodedNote(path);
    for (const [id, p] of this.paths) if (p === path) this.paths.delete(id);
  }

  /** `<folder>/<created date> <title's name>.md`, numbered when taken (`self`: the note being renamed, free for itself). */
  private async freePath(created: number, title: string, folder: string, self?: string): Promise<string> {
    const stem = `${isoFromEpoch(created).slice(0, 10)} ${noteTitleName(title)}`;
    const there = async (path: string): Promise<boolean> => (this.store.exists ? this.store.exists(path) : (await this.store.read(path)) !== null);
    for (let n = 1; ; n++) {
      const path = `${folder ? `${folder}/` : ''}${n === 1 ? stem : `${stem} (${n})`}.md`;
      if (path === self || !(await there(path))) return path;
    }
  }
}

function idFromPath(path: string): string {
  return `chat-${(path.split('/').pop() ?? path).replace(/\.md$/i, '').replace(/\s+/g, '-')}`;
}

function matchesAll(haystack: string, words: readonly string[]): boolean {
  return words.every((w) => haystack.includes(w));
}
