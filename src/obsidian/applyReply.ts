import { FuzzySuggestModal, Notice, TFile, type App } from 'obsidian';
import { applyReplyCall, ApplyModelError } from '../core/edits/applyCall';
import type { ApplyResult, EditProposal, ReviewOutcome } from '../core/edits/proposal';
import { changesText } from '../core/edits/reviewDraft';
import { applyToVault } from '../core/agent/submitEdit';
import { proposalOf } from '../core/edits/lineDiff';
import type { ProviderFactory } from '../core/ports/providerFactory';
import { applyTarget, type StrataSettings } from '../core/settings/settings';
import type { SideCallRecord } from '../core/sideCall';
import type { Usage } from '../core/usage';
import { redactText } from '../core/security/redact';
import { ObsidianNoteWriter } from './noteWriter';
import { reviewInModal, showUnwritten } from './reviewModal';
import { hunkLabel } from './view/diffView';
import { formatTokens, formatUsd } from './view/format';

/** What "Apply to note" and "Edit with Strata" need from the plugin. */
export interface EditModelContext {
  readonly app: App;
  settings(): StrataSettings;
  readonly providers: ProviderFactory;
  readonly costOf: (model: string, usage: Usage) => number | null;
  /** Folders whose notes are never offered or written (the chats folders). */
  hiddenFolders(): readonly string[];
}

/** The chat a reply came from: its model is the apply model's default; what is applied is recorded in it (undo from the chat). */
export interface ReplyChat {
  readonly provider: string;
  readonly model: string;
  /** Writes the reviewed proposal and records it in the chat (controller.edits.apply); absent: written without a record. */
  readonly apply?: (proposal: EditProposal, outcome: ReviewOutcome) => Promise<ApplyResult>;
}

/** "gpt-4o (openai) · 1.2k in · 310 out · $0.0021 · predicted output": cost and model as a chat turn shows them. */
export function callMeta(call: SideCallRecord, predicted: boolean): string {
  const parts = [`${call.model} (${call.provider})`, `${formatTokens(call.usage.inputTokens)} in`, `${formatTokens(call.usage.outputTokens)} out`, formatUsd(call.cost)];
  if (predicted) parts.push('predicted output');
  return parts.join(' · ');
}

/** A note may be written by Strata: markdown, not in a chats folder, not in a hidden folder. */
export function writableNote(file: TFile, hidden: readonly string[]): boolean {
  if (file.extension !== 'md') return false;
  if (file.path.split('/').some((part) => part.startsWith('.'))) return false;
  return !hidden.some((folder) => file.path === folder || file.path.startsWith(`${folder}/`));
}

/** The note picker: every note Strata may write, the one the user was editing first. */
class NotePicker extends FuzzySuggestModal<TFile> {
  constructor(
    app: App,
    private readonly notes: TFile[],
    private readonly chosen: (file: TFile) => void,
  ) {
    super(app);
    this.setPlaceholder('Apply the reply to which note?');
    this.setInstructions([
      { command: '↑↓', purpose: 'to move' },
      { command: '↵', purpose: 'to apply to the note' },
      { command: 'esc', purpose: 'to cancel' },
    ]);
  }

  getItems(): TFile[] {
    return this.notes;
  }

  getItemText(file: TFile): string {
    return file.path;
  }

  onChooseItem(file: TFile): void {
    this.chosen(file);
  }
}

/**
 * "Apply to note…": pick the note (the one being edited first), the apply model turns the reply
 * into an edit of it, the user reviews it hunk by hunk, and the accepted hunks are written through
 * Vault.process against the text the proposal was made from.
 */
export function applyReplyToNote(ctx: EditModelContext, reply: string, chat: ReplyChat, activePath: string | null): void {
  const hidden = ctx.hiddenFolders();
  const notes = ctx.app.vault
    .getMarkdownFiles()
    .filter((f) => writableNote(f, hidden))
    .sort((a, b) => (a.path === activePath ? -1 : b.path === activePath ? 1 : b.stat.mtime - a.stat.mtime || (a.path < b.path ? -1 : 1)));
  new NotePicker(ctx.app, notes, (file) => void reviewAndApply(ctx, file, reply, chat)).open();
}

let applyCount = 0;

async function reviewAndApply(ctx: EditModelContext, file: TFile, reply: string, chat: ReplyChat): Promise<void> {
  const settings = ctx.settings();
  const target = applyTarget(settings, chat.provider, chat.model);
  const result = await reviewInModal(ctx.app, {
    title: `Apply the reply to ${file.basename}`,
    waiting: `Asking ${target.model} to apply the reply to ${file.path}…`,
    propose: async (signal) => {
      const note = await ctx.app.vault.read(file);
      try {
        const applied = await applyReplyCall(settings, chat, { path: file.path, note, reply }, { providers: ctx.providers, costOf: ctx.costOf, signal });
        const proposal = proposalOf({ id: `apply-${++applyCount}`, kind: 'edit', path: file.path, baseText: note, proposedText: applied.proposedText });
        return { proposal, meta: callMeta(applied.call, applied.predicted) };
      } catch (error) {
        if (error instanceof ApplyModelError) throw new Error(`${error.message} Nothing was written. (${callMeta(error.call, false)})`);
        throw new Error(`The apply model failed: ${redactText(error instanceof Error ? error.message : String(error))}`);
      }
    },
  });
  if (!result) return;
  await writeReviewed(ctx.app, file, result.proposal, result.outcome, chat.apply);
}

/**
 * The accepted hunks written through Vault.process against the note as it is now (applyReviewed
 * shifts them past the user's own changes since); hunks whose lines the user changed meanwhile are
 * not written and the user is told which. Says what was written.
 */
export async function writeReviewed(
  app: App,
  file: TFile,
  proposal: EditProposal,
  outcome: ReviewOutcome,
  apply: (proposal: EditProposal, outcome: ReviewOutcome) => Promise<ApplyResult> = (p, o) => applyToVault(new ObsidianNoteWriter(app), p, o),
): Promise<ApplyResult | null> {
  const kept = outcome.decisions.filter((d) => d.action !== 'reject').length;
  if (kept === 0) {
    new Notice(`Nothing was written to ${file.basename}.`);
    return null;
  }
  try {
    // The write tools' path: Vault.process against the note as it is now, the accepted hunks shifted past the user's changes.
    const done = await apply(proposal, outcome);
    const conflicts = done.conflicts.map((h) => hunkLabel(h).toLowerCase()).join(', ');
    const notWritten = done.conflicts.length > 0 ? ` Not written, as you changed those lines meanwhile: ${conflicts}.` : '';
    new Notice(`Applied ${changesText(done.applied.length)} to ${file.basename}.${notWritten}`);
    if (done.conflicts.length > 0) showUnwritten(app, proposal, done.conflicts);
    return done;
  } catch (error) {
    new Notice(`Could not apply the changes to ${file.basename}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
