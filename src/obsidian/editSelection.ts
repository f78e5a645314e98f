import { Modal, Notice, type App, type Editor, type Menu, type MarkdownFileInfo, type Plugin } from 'obsidian';
import { editSelectionCall } from '../core/edits/applyCall';
import type { EditProposal, ReviewOutcome } from '../core/edits/proposal';
import { applyReviewed } from '../core/edits/applyProposal';
import { proposalOf } from '../core/edits/lineDiff';
import { applyTarget } from '../core/settings/settings';
import { redactText } from '../core/security/redact';
import { callMeta, writableNote, type EditModelContext } from './applyReply';
import { reviewInModal } from './reviewModal';

/** The editor menu's item; the command is "Strata: Edit selection…" in the palette (Obsidian puts the plugin's name first). */
const NAME = 'Edit with Strata…';

/**
 * "Edit with Strata…" (issue 28): a command (no default hotkey) and an editor-menu item over a
 * selection. The user writes an instruction, the apply model (default: the default chat model)
 * rewrites the selection, the change is shown as a diff over the note's lines in a modal, and the
 * accepted part replaces the selection through the editor (so Ctrl/Cmd+Z undoes it).
 */
export function registerEditSelection(plugin: Plugin, ctx: EditModelContext): void {
  plugin.addCommand({
    id: 'edit-selection',
    name: 'Edit selection…',
    editorCheckCallback: (checking, editor, info) => {
      if (!canEdit(ctx, editor, info)) return false;
      if (!checking) startEdit(ctx, editor, info);
      return true;
    },
  });
  plugin.registerEvent(
    plugin.app.workspace.on('editor-menu', (menu: Menu, editor: Editor, info) => {
      if (!canEdit(ctx, editor, info)) return;
      menu.addItem((item) =>
        item
          .setTitle(NAME)
          .setIcon('wand-2')
          .onClick(() => startEdit(ctx, editor, info)),
      );
    }),
  );
}

function canEdit(ctx: EditModelContext, editor: Editor, info: MarkdownFileInfo): boolean {
  const file = info.file;
  return file !== null && writableNote(file, ctx.hiddenFolders()) && editor.somethingSelected() && editor.getSelection().trim() !== '';
}

function startEdit(ctx: EditModelContext, editor: Editor, info: MarkdownFileInfo): void {
  const file = info.file;
  if (!file) return;
  // The selection and the note as they are now: the proposal is made against them.
  const base = editor.getValue();
  const from = editor.posToOffset(editor.getCursor('from'));
  const to = editor.posToOffset(editor.getCursor('to'));
  new InstructionModal(ctx.app, (instruction) => void reviewEdit(ctx, editor, file.path, base, from, to, instruction)).open();
}

let editCount = 0;

async function reviewEdit(ctx: EditModelContext, editor: Editor, path: string, base: string, from: number, to: number, instruction: string): Promise<void> {
  const settings = ctx.settings();
  const chat = { provider: settings.defaultProviderId, model: settings.defaultModel };
  const target = applyTarget(settings, chat.provider, chat.model);
  const selection = base.slice(from, to);
  const result = await reviewInModal(ctx.app, {
    title: 'Edit the selection',
    waiting: `Asking ${target.model}: “${instruction}”…`,
    applyVerb: 'Replace the selection',
    propose: async (signal) => {
      try {
        const edited = await editSelectionCall(settings, chat, { path, selection, instruction, before: base.slice(0, from), after: base.slice(to) }, { providers: ctx.providers, costOf: ctx.costOf, signal });
        const proposedText = base.slice(0, from) + edited.text + base.slice(to);
        const proposal = proposalOf({ id: `selection-${++editCount}`, kind: 'edit', path, baseText: base, proposedText });
        return { proposal, meta: callMeta(edited.call, edited.predicted) };
      } catch (error) {
        throw new Error(`The edit failed: ${redactText(error instanceof Error ? error.message : String(error))}`);
      }
    },
  });
  if (result) replaceInEditor(editor, result.proposal, result.outcome, from, to);
}

/** The accepted part written over the selection's range (one editor change, undoable), if the note is still as it was. */
export function replaceInEditor(editor: Editor, proposal: EditProposal, outcome: ReviewOutcome, from: number, to: number): void {
  if (outcome.decisions.every((d) => d.action === 'reject')) return;
  const base = proposal.baseText;
  if (editor.getValue() !== base) {
    new Notice('The note changed while you reviewed the edit: nothing was replaced. Select the text and try again.');
    return;
  }
  const next = applyReviewed(base, proposal, outcome).text;
  const prefix = base.slice(0, from);
  const suffix = base.slice(to);
  // Hunks are whole lines: the text around the selection is normally unchanged, so only the selection's range is replaced.
  if (next.startsWith(prefix) && next.endsWith(suffix) && next.length >= prefix.length + suffix.length) {
    editor.replaceRange(next.slice(prefix.length, next.length - suffix.length), editor.offsetToPos(from), editor.offsetToPos(to));
  } else {
    editor.replaceRange(next, editor.offsetToPos(0), editor.offsetToPos(base.length));
  }
  editor.focus();
}

/** The instruction box: Enter sends, Shift+Enter is a new line, Escape cancels. */
class InstructionModal extends Modal {
  constructor(
    app: App,
    private readonly send: (instruction: string) => void,
  ) {
    super(app);
  }

  onOpen(): void {
    this.modalEl.addClass('strata-instruction-modal');
    this.setTitle('Edit the selection');
    const label = this.contentEl.createEl('label', { cls: 'strata-instruction-label', text: 'What should change?' });
    const input = label.createEl('textarea', { cls: 'strata-instruction-input', attr: { rows: '3', placeholder: 'For example: make it shorter, fix the grammar, turn it into a list' } });
    const row = this.contentEl.createDiv({ cls: 'strata-review-submit' });
    row.createSpan({ cls: 'strata-hunk-hint', text: 'Enter sends, Shift+Enter for a new line' });
    const go = row.createEl('button', { cls: 'strata-review-button mod-cta strata-instruction-send', text: 'Propose the edit', attr: { type: 'button' } });
    const submit = () => {
      const text = input.value.trim();
      if (!text) {
        input.focus();
        return;
      }
      this.close();
      this.send(text);
    };
    go.addEventListener('click', submit);
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      }
    });
    input.focus();
  }

  onClose(): void {
    this.contentEl.empty();
  }
}
