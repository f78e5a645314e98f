import { TFile, TFolder, type Editor, type Menu, type Plugin, type TAbstractFile } from 'obsidian';
import type { ContextChip } from '../core/context/items';

export interface AddToChatHost {
  /** Open the chat and attach the chips (the composer shows them). */
  addToChat(chips: readonly ContextChip[]): void;
  /** The chats folder (normalized; null: none): chats are not offered as context. */
  chatFolder(): string | null;
}

const TITLE = 'Add to Strata chat';
const ICON = 'messages-square';

/**
 * "Add to Strata chat" in Obsidian's context menus: the editor's (the selection when there is one,
 * else the note), and the file explorer's for a note, a folder, or several selected items.
 */
export function registerAddToChatMenus(plugin: Plugin, host: AddToChatHost): void {
  const { workspace } = plugin.app;
  plugin.registerEvent(
    workspace.on('editor-menu', (menu: Menu, editor: Editor, info) => {
      const file = info.file;
      if (!file || file.extension !== 'md') return;
      const chip = editor.somethingSelected() ? selectionChip(editor, file.path) : ({ kind: 'note', path: file.path } as const);
      if (!chip) return;
      menu.addItem((item) =>
        item
          .setTitle(chip.kind === 'selection' ? 'Add selection to Strata chat' : 'Add note to Strata chat')
          .setIcon(ICON)
          .onClick(() => host.addToChat([chip])),
      );
    }),
  );
  plugin.registerEvent(
    workspace.on('file-menu', (menu: Menu, file: TAbstractFile) => {
      const chip = fileChip(file, host.chatFolder());
      if (!chip) return;
      menu.addItem((item) => item.setTitle(TITLE).setIcon(ICON).onClick(() => host.addToChat([chip])));
    }),
  );
  plugin.registerEvent(
    workspace.on('files-menu', (menu: Menu, files: TAbstractFile[]) => {
      const chips = files.map((f) => fileChip(f, host.chatFolder())).filter((c): c is ContextChip => c !== null);
      if (chips.length === 0) return;
      const title = chips.length === 1 ? TITLE : `Add ${chips.length} items to Strata chat`;
      menu.addItem((item) => item.setTitle(title).setIcon(ICON).onClick(() => host.addToChat(chips)));
    }),
  );
}

/** The editor's selection as a chip: whole lines are named by number, the text is what was selected. */
export function selectionChip(editor: Editor, path: string): ContextChip | null {
  const text = editor.getSelection();
  if (!text.trim()) return null;
  const from = editor.getCursor('from').line + 1;
  const to = editor.getCursor('to').line + 1;
  return { kind: 'selection', path, fromLine: Math.min(from, to), toLine: Math.max(from, to), text };
}

/** A note, a PDF, a canvas or a folder as a chip; other files (images), the vault's root and chat notes are not offered. */
export function fileChip(file: TAbstractFile, chatFolder: string | null): ContextChip | null {
  const inChats = chatFolder !== null && chatFolder !== '' && (file.path === chatFolder || file.path.startsWith(`${chatFolder}/`));
  if (inChats) return null;
  if (file instanceof TFile) {
    const ext = file.extension.toLowerCase();
    return ext === 'md' ? { kind: 'note', path: file.path } : ext === 'pdf' ? { kind: 'pdf', path: file.path } : ext === 'canvas' ? { kind: 'canvas', path: file.path } : null;
  }
  if (file instanceof TFolder) return file.isRoot() ? null : { kind: 'folder', path: file.path };
  return null;
}
