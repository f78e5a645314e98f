import { decodeChatNote, encodeChatNote, type DecodedChat } from './codec';
import { noteFormat } from './lineEndings';
import { mergeChatNote } from './merge';
import type { Clock, Conversation } from './model';
import type { ChatStore } from './store';
import { isoFromEpoch } from './time';

export const DEFAULT_CHAT_FOLDER = 'Strata/Chats';

/** One row of the chat list. */
export interface ChatSummary {
  readonly path: string;
  readonly id: string;
  readonly title: string;
  readonly created: number;
  readonly updated: number;
  readonly turns: number;
  readonly model: string;
  /** Chats that did not read cleanly still show, with their warnings. */
  readonly warnings: number;
}

export interface SaveResult {
  readonly path: string;
  /** The conversation as saved: the same one, unless the note was edited meanwhile (merged). */
  readonly conversation: Conversation;
  /** Turn indexes whose text was taken from the user's edit in the note. */
  readonly edited: number[];
  readonly warnings: string[];
}

export interface LoadedChat extends DecodedChat {
  readonly path: string;
}

/** The chats folder as the archive uses it: the same shape Obsidian's normalizePath gives, so paths match the vault's. */
export function normalizeChatFolder(folder: string): string {
  return folder.replace(/\\/g, '/').replace(/\/+/g, '/').replace(/^\/+|\/+$/g, '').trim() || DEFAULT_CHAT_FOLDER;
}

/**
 * The chats folder: save (create, or update atomically, merging a concurrent edit), load, list,
 * search, rename, delete. It remembers what it last wrote or read per path, which is the base of
 * the three-way merge when a save finds the note changed.
 */
export class ChatArchive {
  private readonly lastText = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  readonly folder: string;

  constructor(
    private readonly store: ChatStore,
    private readonly clock: Clock,
    folder: string = DEFAULT_CHAT_FOLDER,
  ) {
    this.folder = normalizeChatFolder(folder);
  }

  /** Where a conversation is (or will be) saved. */
  pathOf(conversation: Conversation): string | undefined {
    return this.paths.get(conversation.id);
  }

  async save(conversation: Conversation): Promise<SaveResult> {
    let known = this.paths.get(conversation.id);
    if (known !== undefined && (await this.store.read(known)) === null) {
      // The note was renamed or moved inside the folder while the chat was open: find it by id
      // instead of writing a duplicate.
      const previous = known;
      await this.list();
      known = this.paths.get(conversation.id);
      if (known !== undefined && known !== previous) {
        const base = this.lastText.get(previous);
        if (base !== undefined) this.lastText.set(known, base);
      }
    }
    if (known !== undefined && (await this.store.read(known)) !== null) {
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
      return result;
    }
    const text = encodeChatNote(conversation);
    const path = await this.freePath(conversation);
    await this.store.create(path, text);
    this.lastText.set(path, text);
    this.paths.set(conversation.id, path);
    return { path, conversation, edited: [], warnings: [] };
  }

  /** Read a chat note. Never throws for bad content; a missing file is an error. */
  async load(path: string): Promise<LoadedChat> {
    const text = await this.store.read(path);
    if (text === null) throw new Error(`chat note not found: ${path}`);
    const decoded = decodeChatNote(text, { id: idFromPath(path), now: this.clock.now() });
    this.lastText.set(path, text);
    this.paths.set(decoded.conversation.id, path);
    return { ...decoded, path };
  }

  /** Every chat in the folder, most recently updated first. */
  async list(): Promise<ChatSummary[]> {
    const out: ChatSummary[] = [];
    for (const path of await this.store.list(this.folder)) {
      const text = await this.store.read(path);
      if (text === null) continue;
      const { conversation: c, warnings } = decodeChatNote(text, { id: idFromPath(path), now: 0 });
      this.paths.set(c.id, path);
      out.push({ path, id: c.id, title: c.title, created: c.created, updated: c.updated, turns: c.turns.length, model: c.model, warnings: warnings.length });
    }
    return out.sort((a, b) => b.updated - a.updated || (a.path < b.path ? -1 : 1));
  }

  /** Chats whose title or any message contains every word of the query (case-insensitive). */
  async search(query: string): Promise<ChatSummary[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.list();
    const hits: ChatSummary[] = [];
    for (const summary of await this.list()) {
      const text = await this.store.read(summary.path);
      if (text === null) continue;
      const { conversation } = decodeChatNote(text, { id: summary.id, now: 0 });
      const haystack = [conversation.title, ...conversation.turns.flatMap((t) => [t.text, t.reply ?? ''])].join('\n').toLowerCase();
      if (words.every((w) => haystack.includes(w))) hits.push(summary);
    }
    return hits;
  }

  /** Set a user title (the file keeps its name, so links to it keep working). */
  async rename(path: string, title: string): Promise<void> {
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!clean) throw new Error('a chat title cannot be empty');
    const written = await this.store.process(path, (current) => {
      const { conversation } = decodeChatNote(current, { id: idFromPath(path), now: this.clock.now() });
      return encodeChatNote({ ...conversation, title: clean, titleSource: 'user' });
    });
    this.lastText.set(path, written);
  }

  async delete(path: string): Promise<void> {
    await this.store.trash(path);
    this.lastText.delete(path);
    for (const [id, p] of this.paths) if (p === path) this.paths.delete(id);
  }

  private async freePath(conversation: Conversation): Promise<string> {
    const stem = `${isoFromEpoch(conversation.created).slice(0, 10)} ${fileSafe(conversation.title)}`;
    for (let n = 1; ; n++) {
      const path = `${this.folder}/${n === 1 ? stem : `${stem} (${n})`}.md`;
      if ((await this.store.read(path)) === null) return path;
    }
  }
}

/** A file name from a title: no characters Obsidian or file systems reject, bounded length. */
export function fileSafe(title: string): string {
  const clean = title
    .replace(/[\\/:*?"<>|#^[\]]/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/[\ud800-\udfff]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^\.+/, '')
    .trim();
  return (clean.length > 80 ? clean.slice(0, 80).trim() : clean) || 'Chat';
}

function idFromPath(path: string): string {
  return `chat-${(path.split('/').pop() ?? path).replace(/\.md$/i, '').replace(/\s+/g, '-')}`;
}
