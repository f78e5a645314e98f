import { sha256HexKept } from '../contentHashes';
import { trimSlashes } from '../trim';

export const ITEM_KINDS = ['note', 'url', 'selection', 'folder', 'tag', 'pdf', 'canvas', 'dataview'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** What the user attached: a chip in the composer, or a line of a scenario. */
export type ContextChip =
  /** `active`: the note open in the editor (the composer's active-note chip): its embedded images are sent. */
  | { kind: 'note'; path: string; active?: true }
  | { kind: 'folder'; path: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'url'; url: string; content?: string; title?: string }
  | { kind: 'selection'; path: string; fromLine: number; toLine: number; text?: string }
  /** A PDF in the vault, read as text page by page (src/core/context/pdf); its id is its path. */
  | { kind: 'pdf'; path: string }
  /** A `.canvas` file, sent as text (canvas/canvasText.ts). */
  | { kind: 'canvas'; path: string };

/** One unit of context with a stable id derived from its source, never from the clock. */
export interface ContextItem {
  readonly id: string;
  readonly kind: ItemKind;
  readonly title: string;
  /** Vault-relative path for notes, PDFs, selections, canvases and Dataview blocks (their note), URL for urls, folder path or tag otherwise. */
  readonly source: string;
  readonly content: string;
  /** sha256 of content. */
  readonly hash: string;
  /** For notes reached through a folder or tag chip: that listing's id. */
  readonly via?: string;
  /** Sent as the artifact plan made it (src/core/planning): `content` is a summary or an extract of the source. */
  readonly planned?: PlannedForm;
}

/** A summary or an extract standing for a source text, and what it stands for. */
export interface PlannedForm {
  readonly strategy: 'summarize' | 'rag_extract';
  /** sha256 of the source text it was made from: another text is planned again. */
  readonly sourceHash: string;
  /** Tokens of the whole source text. */
  readonly fullTokens: number;
}

export function noteId(path: string): string {
  return path;
}
export function folderId(path: string): string {
  return `folder:${trimSlashes(path)}`;
}
export function tagId(tag: string): string {
  return `tag:${normalizeTag(tag)}`;
}
export function selectionId(path: string, fromLine: number, toLine: number): string {
  return `${path}#L${fromLine}-L${toLine}`;
}

export function normalizeTag(tag: string): string {
  const bare = tag.trim().replace(/^#+/, '');
  return `#${bare}`;
}

export { trimSlashes } from '../trim';

export function basename(path: string): string {
  const file = path.split('/').pop() ?? path;
  return file.replace(/\.(md|canvas)$/i, '');
}

export function makeItem(fields: Omit<ContextItem, 'hash'>): ContextItem {
  // A note is read again at each reopen of each chat that has it: its hash is found by its content.
  return { ...fields, hash: sha256HexKept(fields.content) };
}

/** The id a chip will resolve to (a folder or tag chip also brings its member notes). */
export function chipId(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
      return noteId(chip.path);
    case 'folder':
      return folderId(chip.path);
    case 'tag':
      return tagId(chip.tag);
    case 'url':
      return chip.url;
    case 'selection':
      return selectionId(chip.path, chip.fromLine, chip.toLine);
    case 'pdf':
      return chip.path;
    case 'canvas':
      return noteId(chip.path);
  }
}
