import type { App, Component, TAbstractFile } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import { fileChip } from '../addToChatMenus';

/** What Obsidian's drag manager holds while a file or files are dragged from the file explorer (not in the API's types). */
interface Draggable {
  readonly type?: string;
  readonly file?: TAbstractFile;
  readonly files?: readonly TAbstractFile[];
}

/**
 * Files dropped on the composer (issue 31): notes, PDFs, canvases and folders dragged from the file
 * explorer become chips, as "Add to Strata chat" makes them. The explorer's drag is read from
 * Obsidian's drag manager when it has one, else from the drop's text, one file a line: an
 * `obsidian://open?…&file=…` link, a `[[link]]` or a vault path.
 */
export function registerComposerDrop(owner: Component, target: HTMLElement, app: App, chatFolder: () => string | null, add: (chips: ContextChip[]) => void): void {
  const chipsOf = (event: DragEvent): ContextChip[] => {
    const folder = chatFolder();
    return droppedFiles(app, event).flatMap((file) => fileChip(file, folder) ?? []);
  };
  owner.registerDomEvent(target, 'dragover', (event) => {
    if (!isFileDrag(app, event)) return;
    event.preventDefault();
    target.addClass('is-drop-target');
  });
  owner.registerDomEvent(target, 'dragleave', () => target.removeClass('is-drop-target'));
  owner.registerDomEvent(target, 'drop', (event) => {
    target.removeClass('is-drop-target');
    const chips = chipsOf(event);
    if (chips.length === 0) return;
    event.preventDefault();
    event.stopPropagation();
    add(chips);
  });
}

function draggable(app: App): Draggable | null {
  const manager = (app as unknown as { dragManager?: { draggable?: Draggable | null } }).dragManager;
  return manager?.draggable ?? null;
}

function isFileDrag(app: App, event: DragEvent): boolean {
  const drag = draggable(app);
  if (drag && (drag.type === 'file' || drag.type === 'files' || drag.type === 'folder')) return true;
  return Array.from(event.dataTransfer?.types ?? []).includes('text/plain');
}

/** The vault files a drop carries, in order, once each. */
export function droppedFiles(app: App, event: DragEvent): TAbstractFile[] {
  const drag = draggable(app);
  if (drag?.files && drag.files.length > 0) return [...drag.files];
  if (drag?.file) return [drag.file];
  const text = event.dataTransfer?.getData('text/plain') ?? '';
  const out: TAbstractFile[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const file = fileOfLine(app, raw.trim());
    if (file && !out.includes(file)) out.push(file);
  }
  return out;
}

function fileOfLine(app: App, line: string): TAbstractFile | null {
  if (line === '') return null;
  const url = pathFromObsidianUrl(line);
  if (url !== null) return app.vault.getAbstractFileByPath(url) ?? app.vault.getAbstractFileByPath(`${url}.md`);
  const name = line.replace(/^!?\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/, '$1');
  return app.vault.getAbstractFileByPath(name) ?? app.metadataCache.getFirstLinkpathDest(name, '');
}

/** `obsidian://open?vault=V&file=Folder%2FNote` → "Folder/Note" (null: not such a link). */
export function pathFromObsidianUrl(text: string): string | null {
  if (!text.startsWith('obsidian://open?')) return null;
  try {
    return new URL(text).searchParams.get('file');
  } catch {
    return null;
  }
}
