import { TAbstractFile, type App, type Component } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import { fileChip } from '../addToChatMenus';

export interface DropHost {
  /** The chats folder: chats are not attached. */
  chatFolder(): string | null;
  add(chip: ContextChip): void;
}

/** Obsidian's drag manager (internal): what is being dragged from the file explorer or a tab. */
interface Draggable {
  readonly type?: string;
  readonly file?: TAbstractFile;
  readonly files?: readonly TAbstractFile[];
}

/**
 * Files dragged into the composer are attached (issue 31): notes, canvases and folders, as the file
 * menu attaches them. Obsidian says what is dragged through its drag manager; a drop from elsewhere
 * names files by vault path or `[[link]]` in its text, one per line.
 */
export function registerComposerDrop(app: App, owner: Component, el: HTMLElement, host: DropHost): void {
  const dropped = (event: DragEvent): TAbstractFile[] => {
    const drag = (app as unknown as { dragManager?: { draggable?: Draggable | null } }).dragManager?.draggable;
    if (drag?.file) return [drag.file];
    if (drag?.files) return [...drag.files];
    const text = event.dataTransfer?.getData('text/plain') ?? '';
    return text
      .split('\n')
      .map((line) => line.trim().replace(/^!?\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/, '$1'))
      .filter(Boolean)
      .map((name) => app.vault.getAbstractFileByPath(name) ?? app.metadataCache.getFirstLinkpathDest(name, ''))
      .filter((f): f is NonNullable<typeof f> => f !== null);
  };
  owner.registerDomEvent(el, 'dragover', (event) => {
    // Only drags that carry text or Obsidian files; the textarea still takes a plain text drop.
    if (event.target instanceof HTMLTextAreaElement) return;
    event.preventDefault();
    el.addClass('is-drop-target');
  });
  owner.registerDomEvent(el, 'dragleave', () => el.removeClass('is-drop-target'));
  owner.registerDomEvent(el, 'drop', (event) => {
    el.removeClass('is-drop-target');
    const chips = dropped(event)
      .map((f) => fileChip(f, host.chatFolder()))
      .filter((c): c is ContextChip => c !== null);
    if (chips.length === 0) return;
    event.preventDefault();
    for (const chip of chips) host.add(chip);
  });
}
