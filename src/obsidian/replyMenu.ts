import { Menu, Notice, normalizePath, type App, type MarkdownView, type TFolder } from 'obsidian';
import { noteNameFromTitle, uniqueNotePath } from '../core/chat/replyNote';
import type { LastMarkdownEditor } from './lastEditor';
import { applyReplyToNote, type EditModelContext, type ReplyChat } from './applyReply';

export interface ReplyMenuContext {
  readonly app: App;
  readonly editors: LastMarkdownEditor;
  /** The chat's title: the new note's name. */
  readonly chatTitle: string;
  /** The chats folder (normalized; null: none): a reply copied to a note never lands among the chats. */
  readonly chatFolder: string | null;
  /** "Apply to note…": the apply model's context and the chat's model (its default). */
  readonly apply?: { readonly context: EditModelContext; readonly chat: ReplyChat };
}

/** Why the editor actions cannot run now (null: they can). */
function editorProblem(view: MarkdownView | null, needsSelection: boolean): string | null {
  if (!view?.file) return 'Open a note in the editor first.';
  if (view.getMode() === 'preview') return `${view.file.basename} is in reading view: switch it to editing.`;
  if (needsSelection && !view.editor.somethingSelected()) return `Select text in ${view.file.basename} first.`;
  return null;
}

/**
 * A reply's "⋯" menu: insert it at the cursor of the note being edited, replace that note's
 * selection with it, apply it to a note as a reviewed edit, or copy it to a new note. The chat view is the active leaf when the menu
 * opens, so "the note being edited" is the last markdown editor that was active. An action that
 * cannot run is disabled, with the reason under it.
 */
export function showReplyMenu(anchor: HTMLElement, reply: string, ctx: ReplyMenuContext): Menu {
  const view = ctx.editors.get();
  const insertProblem = editorProblem(view, false);
  const replaceProblem = editorProblem(view, true);
  const menu = new Menu();
  menu.addItem((item) =>
    item
      .setTitle('Insert at cursor')
      .setIcon('text-cursor-input')
      .setDisabled(insertProblem !== null)
      .onClick(() => {
        if (view) insertAtCursor(ctx.app, view, reply);
      }),
  );
  menu.addItem((item) =>
    item
      .setTitle('Replace selection')
      .setIcon('replace')
      .setDisabled(replaceProblem !== null)
      .onClick(() => {
        if (view) replaceSelection(ctx.app, view, reply);
      }),
  );
  // One reason, under the items it disables (the insert's reason covers the replace's too).
  const reason = insertProblem ?? replaceProblem;
  if (reason) menu.addItem((item) => item.setTitle(reason).setIsLabel(true));
  menu.addSeparator();
  const apply = ctx.apply;
  if (apply) {
    menu.addItem((item) =>
      item
        .setTitle('Apply to note…')
        .setIcon('file-diff')
        .onClick(() => applyReplyToNote(apply.context, reply, apply.chat, view?.file?.path ?? null)),
    );
  }
  menu.addItem((item) =>
    item
      .setTitle('Copy to new note')
      .setIcon('file-plus')
      .onClick(() => void copyToNewNote(ctx, view, reply)),
  );
  // The ⋯ stays shown while its menu is open (the pointer has left the message).
  anchor.addClass('is-menu-open');
  menu.onHide(() => anchor.removeClass('is-menu-open'));
  const rect = anchor.getBoundingClientRect();
  menu.showAtPosition({ x: rect.left, y: rect.bottom });
  return menu;
}

function insertAtCursor(app: App, view: MarkdownView, reply: string): void {
  const editor = view.editor;
  // After the selection, if any: inserting never overwrites what the user selected.
  const at = editor.getCursor('to');
  editor.replaceRange(reply, at);
  const end = editor.offsetToPos(editor.posToOffset(at) + reply.length);
  editor.setCursor(end);
  reveal(app, view, { from: at, to: end });
}

function replaceSelection(app: App, view: MarkdownView, reply: string): void {
  const editor = view.editor;
  const from = editor.getCursor('from');
  editor.replaceSelection(reply);
  reveal(app, view, { from, to: editor.getCursor('to') });
}

/** Back to the note, where the change is seen (and undone with Ctrl/Cmd+Z if unwanted). */
function reveal(app: App, view: MarkdownView, range: { from: { line: number; ch: number }; to: { line: number; ch: number } }): void {
  app.workspace.setActiveLeaf(view.leaf, { focus: true });
  view.editor.scrollIntoView(range, true);
}

async function copyToNewNote(ctx: ReplyMenuContext, view: MarkdownView | null, reply: string): Promise<void> {
  const { app } = ctx;
  try {
    // Where the user's new notes go (Settings → Files and links), but never into the chats folder.
    let parent: TFolder = app.fileManager.getNewFileParent(view?.file?.path ?? '');
    const chats = ctx.chatFolder;
    if (chats && (parent.path === chats || parent.path.startsWith(`${chats}/`))) parent = app.vault.getRoot();
    const name = noteNameFromTitle(ctx.chatTitle);
    const path = normalizePath(uniqueNotePath(parent.path, name, (p) => app.vault.getAbstractFileByPath(normalizePath(p)) !== null));
    const file = await app.vault.create(path, reply.endsWith('\n') ? reply : `${reply}\n`);
    await app.workspace.getLeaf('tab').openFile(file);
  } catch (error) {
    new Notice(`Could not copy the reply to a new note: ${error instanceof Error ? error.message : String(error)}`);
  }
}
