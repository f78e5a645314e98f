import {
  basename,
  chipId,
  folderId,
  makeItem,
  noteId,
  normalizeTag,
  selectionId,
  tagId,
  trimSlashes,
  type ContextChip,
  type ContextItem,
} from './items';
import { extractTags, tagMatches } from './tags';
import type { VaultReader } from '../ports/vault';
import { looksBinary, UnreadableNoteError } from './vaultReader';
import { NoteStatCache } from './noteStatCache';
import { resolvePdf } from './pdf/pdfItem';
import { dataviewItems } from './dataview/dataviewItems';
import { canvasItem } from './canvas/canvasItem';

/** `image-not-sent`: an image embed that is named, not sent (a text-only model, another note than the active one, a limit). */
export const PROBLEM_REASONS = ['missing', 'binary', 'too-large', 'unreadable', 'outside-vault', 'empty', 'bad-range', 'image-not-sent'] as const;
export type ProblemReason = (typeof PROBLEM_REASONS)[number];

/** A chip that produced no item (or fewer than expected), reported to the user, never dropped silently. */
export interface ResolutionProblem {
  readonly chipId: string;
  readonly reason: ProblemReason;
  readonly detail: string;
}

export interface Resolution {
  /** Items in chip order; a folder or tag listing is followed by its member notes. Deduplicated by id. */
  readonly items: ContextItem[];
  readonly problems: ResolutionProblem[];
}

export interface ResolverOptions {
  /** Largest note sent as context, in characters. Larger notes are reported, not truncated silently. */
  maxItemChars?: number;
}

export const DEFAULT_MAX_ITEM_CHARS = 1_000_000;

/** Turns chips into context items through a vault reader. Deterministic: output depends on vault text only. */
export class ChipResolver {
  private readonly maxItemChars: number;
  /** Library notes as last re-read (reReadLibraryNotes): one the vault reports unchanged is not read again. */
  readonly seen = new NoteStatCache();
  /** Notes a plan left out, as last read (src/core/planning/plannedOut.ts). */
  readonly plannedOut = new NoteStatCache();

  constructor(
    /** The vault it reads (the turn pipeline reads the active note's images through it too). */
    readonly vault: VaultReader,
    options: ResolverOptions = {},
  ) {
    this.maxItemChars = options.maxItemChars ?? DEFAULT_MAX_ITEM_CHARS;
  }

  async resolve(chips: readonly ContextChip[]): Promise<Resolution> {
    const items: ContextItem[] = [];
    const problems: ResolutionProblem[] = [];
    const seen = new Set<string>();
    const push = (item: ContextItem) => {
      if (seen.has(item.id)) return;
      seen.add(item.id);
      items.push(item);
    };
    for (const chip of chips) {
      const before = problems.length;
      const resolved = await this.resolveChip(chip, problems);
      resolved.forEach(push);
      if (resolved.length === 0 && problems.length === before) {
        problems.push({ chipId: chipId(chip), reason: 'empty', detail: 'nothing to attach' });
      }
    }
    return { items, problems };
  }

  /**
   * A Dataview block's item as it is now (freshness, reopening): its note read again and the block
   * with this id run again (its result may change while the note does not). Null: the note or the
   * block is gone.
   */
  async dataviewItem(id: string, notePath: string): Promise<ContextItem | null> {
    const text = await this.safeRead(notePath);
    if (text === null || looksBinary(text)) return null;
    return (await dataviewItems(notePath, text, this.vault.dataview, id))[0] ?? null;
  }

  private async resolveChip(chip: ContextChip, problems: ResolutionProblem[]): Promise<ContextItem[]> {
    switch (chip.kind) {
      case 'note': {
        const text = await this.readNote(chip.path, noteId(chip.path), problems);
        if (text === null) return [];
        const note = makeItem({ id: noteId(chip.path), kind: 'note', title: basename(chip.path), source: chip.path, content: text });
        return [note, ...(await dataviewItems(chip.path, text, this.vault.dataview))];
      }
      case 'canvas': {
        const text = await this.readNote(chip.path, noteId(chip.path), problems);
        if (text === null) return [];
        const canvas = canvasItem(chip.path, text);
        if ('id' in canvas) return [canvas];
        problems.push({ chipId: noteId(chip.path), reason: 'unreadable', detail: canvas.invalid });
        return [];
      }
      case 'url': {
        const content = chip.content ?? '';
        if (!content) {
          problems.push({ chipId: chip.url, reason: 'empty', detail: 'no page text was provided for this URL' });
          return [];
        }
        return [makeItem({ id: chip.url, kind: 'url', title: chip.title ?? chip.url, source: chip.url, content })];
      }
      case 'selection':
        return this.resolveSelection(chip, problems);
      case 'pdf':
        return resolvePdf(this.vault, chip.path, this.maxItemChars, (p) => problems.push(p));
      case 'folder': {
        const folder = trimSlashes(chip.path);
        const prefix = folder === '' ? '' : `${folder}/`;
        const members = (await this.vault.listMarkdown()).filter((p) => p.startsWith(prefix));
        return this.listing('folder', folderId(folder), folder || '/', `Notes in folder "${folder || '/'}"`, members, problems);
      }
      case 'tag': {
        const tag = normalizeTag(chip.tag);
        const members: string[] = [];
        for (const path of await this.vault.listMarkdown()) {
          const tags = (await this.vault.tagsOf?.(path)) ?? extractTags((await this.safeRead(path)) ?? '');
          if (tags.some((t) => tagMatches(t, tag))) members.push(path);
        }
        return this.listing('tag', tagId(tag), tag, `Notes tagged ${tag}`, members, problems);
      }
    }
  }

  private async listing(
    kind: 'folder' | 'tag',
    id: string,
    source: string,
    heading: string,
    memberPaths: string[],
    problems: ResolutionProblem[],
  ): Promise<ContextItem[]> {
    const notes: ContextItem[] = [];
    for (const path of [...memberPaths].sort()) {
      const text = await this.readNote(path, id, problems);
      if (text !== null) {
        notes.push(makeItem({ id: noteId(path), kind: 'note', title: basename(path), source: path, content: text, via: id }));
      }
    }
    if (notes.length === 0) {
      problems.push({ chipId: id, reason: 'empty', detail: `${heading}: no readable markdown notes` });
      return [];
    }
    const content = `${heading} (${notes.length}):\n${notes.map((n) => `- ${n.source}`).join('\n')}`;
    return [makeItem({ id, kind, title: source, source, content }), ...notes];
  }

  private async resolveSelection(
    chip: Extract<ContextChip, { kind: 'selection' }>,
    problems: ResolutionProblem[],
  ): Promise<ContextItem[]> {
    const id = selectionId(chip.path, chip.fromLine, chip.toLine);
    const title = `${basename(chip.path)} (lines ${chip.fromLine}-${chip.toLine})`;
    if (!Number.isInteger(chip.fromLine) || !Number.isInteger(chip.toLine) || chip.fromLine < 1 || chip.toLine < chip.fromLine) {
      problems.push({ chipId: id, reason: 'bad-range', detail: `invalid line range ${chip.fromLine}-${chip.toLine}` });
      return [];
    }
    let content = chip.text;
    if (content === undefined) {
      const text = await this.readNote(chip.path, id, problems);
      if (text === null) return [];
      const lines = text.split(/\r?\n/);
      if (chip.fromLine > lines.length) {
        problems.push({ chipId: id, reason: 'bad-range', detail: `the note has ${lines.length} lines` });
        return [];
      }
      content = lines.slice(chip.fromLine - 1, chip.toLine).join('\n');
    }
    return [makeItem({ id, kind: 'selection', title, source: chip.path, content })];
  }

  private async readNote(path: string, chip: string, problems: ResolutionProblem[]): Promise<string | null> {
    let text: string | null;
    try {
      text = await this.vault.read(path);
    } catch (error) {
      const reason = error instanceof UnreadableNoteError ? error.reason : 'unreadable';
      problems.push({ chipId: chip, reason, detail: `${path}: ${error instanceof Error ? error.message : String(error)}` });
      return null;
    }
    if (text === null) {
      problems.push({ chipId: chip, reason: 'missing', detail: `${path} does not exist` });
      return null;
    }
    if (looksBinary(text)) {
      problems.push({ chipId: chip, reason: 'binary', detail: `${path} is not text` });
      return null;
    }
    if (text.length > this.maxItemChars) {
      problems.push({
        chipId: chip,
        reason: 'too-large',
        detail: `${path} has ${text.length} characters, over the ${this.maxItemChars} limit`,
      });
      return null;
    }
    return text;
  }

  private async safeRead(path: string): Promise<string | null> {
    try {
      return await this.vault.read(path);
    } catch {
      return null;
    }
  }
}
