import { applyToVault, outcomeText } from '../agent/submitEdit';
import type { EditSession } from '../edits/editSession';
import type { ApplyResult, EditProposal, ReviewOutcome } from '../edits/proposal';
import { undoEdit } from '../edits/undo';
import { DEFAULT_WRITE_POLICY, effectiveWritePolicy, type WritePolicy } from '../edits/writePolicy';
import { sha256Hex } from '../hash';
import type { LiveChat } from '../conversation/liveChat';
import type { EditEntry } from '../conversation/records/edits';
import { chatFolders, findProject, projectScope } from '../projects/projects';
import type { StrataSettings } from '../settings/settings';
import type { ChatControllerDeps } from './controllerDeps';

/** What the chats' edits need of the hub: saving a chat, telling the views showing it. */
export interface EditsHost {
  save(chat: LiveChat): Promise<void>;
  emit(chat: LiveChat): void;
}

/** Where a chat's write policy comes from: its own, its project's, or the settings'. */
export type PolicySource = 'chat' | 'project' | 'settings';

/**
 * A chat's edits to notes (issue 28), beside the turn pipeline: the write session each agent turn
 * gets (by the chat's write policy), the proposals waiting for a review, the applied edits (kept in
 * the chat note) and their undo. One for every view (ChatHub): a view reaches its shown chat's through
 * ShownEdits.
 */
export class ChatEdits {
  /** Proposals waiting for the user's review, by chat id, in the order they came. */
  private readonly waiting = new Map<string, EditProposal[]>();

  constructor(
    private readonly deps: ChatControllerDeps,
    private readonly host: EditsHost,
  ) {}

  /** The write session for a turn of `chat`; undefined when the chat is read-only or the host cannot write. */
  sessionFor(chat: LiveChat, settings: StrataSettings): EditSession | undefined {
    const policy = this.policyOf(chat.conversation, settings).policy;
    const writer = this.deps.writer?.();
    const reviewer = this.deps.reviewer?.();
    if (policy.mode === 'read-only' || !writer || !reviewer) return undefined;
    const hidden = [...new Set([...(this.deps.toolHost?.().hidden ?? []), ...chatFolders(settings)])];
    return {
      writer,
      reviewer,
      policy,
      rules: { scope: projectScope(findProject(settings, chat.conversation.project)), hidden, excluded: settings.searchExcludedFolders },
      onProposed: (proposal) => this.changeWaiting(chat, (list) => [...list, proposal]),
      onSettled: (proposal, result) => {
        this.changeWaiting(chat, (list) => list.filter((p) => p !== proposal));
        reviewer.settled?.(proposal, result);
        if (result.record) chat.recordEdit({ ...result.record, proposalId: freshId(chat, result.record.proposalId), at: this.deps.now(), summary: proposal.summary });
        void this.host.save(chat);
      },
    };
  }

  /**
   * Write a proposal the user made from the chat ("Apply to note…", "Edit with Strata…") as reviewed,
   * and record it in the chat shown like the agent's, so it can be undone. Throws when nothing can write.
   */
  async apply(chat: LiveChat, proposal: EditProposal, outcome: ReviewOutcome): Promise<ApplyResult> {
    const writer = this.deps.writer?.();
    if (!writer) throw new Error('Notes cannot be written here.');
    const result = await applyToVault(writer, proposal, outcome);
    if (result.record) {
      chat.recordEdit({ ...result.record, proposalId: freshId(chat, result.record.proposalId), at: this.deps.now(), summary: proposal.summary });
      await this.host.save(chat);
    }
    this.host.emit(chat);
    return result;
  }

  /** Proposals of `chat` waiting for a review, oldest first. */
  pending(chat: LiveChat): readonly EditProposal[] {
    return this.waiting.get(chat.id) ?? [];
  }

  /** The chat a waiting proposal belongs to (null: none waits). */
  chatOf(proposal: EditProposal): string | null {
    for (const [id, list] of this.waiting) if (list.includes(proposal)) return id;
    return null;
  }

  /** Edits `chat` applied, oldest first (undone ones marked). */
  applied(chat: LiveChat): readonly EditEntry[] {
    return chat.conversation.edits ?? [];
  }

  /** `chat`'s write policy and where it comes from. */
  policy(chat: LiveChat): { policy: WritePolicy; source: PolicySource } {
    return this.policyOf(chat.conversation, this.deps.settings());
  }

  /** The policy `chat` follows without one of its own: its project's, else the settings'. */
  inherited(chat: LiveChat): WritePolicy {
    return this.policyOf({ project: chat.conversation.project }, this.deps.settings()).policy;
  }

  /** The chat shown's own write policy (null: its project's or the settings'), saved in the chat note; applies from its next turn. */
  setPolicy(chat: LiveChat, policy: WritePolicy | null): void {
    chat.update(({ writePolicy: _old, ...c }) => (policy ? { ...c, writePolicy: policy } : c));
    void this.host.save(chat);
    this.host.emit(chat);
  }

  /**
   * Undo an applied edit of the chat shown: the exact bytes before it when the note has not changed
   * since (a create: the note goes to the trash; a move: moved back), else a reverse proposal the
   * user reviews. Returns what happened, in words.
   */
  async undo(chat: LiveChat, proposalId: string): Promise<string> {
    const entry = chat.conversation.edits?.find((e) => e.proposalId === proposalId);
    if (!entry) return 'Undo: this chat has no such edit.';
    if (entry.undone) return `Undo: "${entry.summary}" was already undone.`;
    const writer = this.deps.writer?.();
    if (!writer) return 'Undo: notes cannot be written here.';
    const message = await this.undoWith(chat, writer, entry);
    if (message.done) {
      chat.markUndone(proposalId);
      await this.host.save(chat);
    }
    this.host.emit(chat);
    return message.text;
  }

  private async undoWith(chat: LiveChat, writer: NonNullable<ReturnType<NonNullable<ChatControllerDeps['writer']>>>, entry: EditEntry): Promise<{ done: boolean; text: string }> {
    if (entry.kind === 'rename') {
      const to = entry.newPath ?? entry.path;
      if (!(await writer.exists(to))) return { done: false, text: `Undo: ${to} is no longer there; nothing was moved.` };
      if (await writer.exists(entry.path)) return { done: false, text: `Undo: ${entry.path} is taken now; ${to} was not moved back.` };
      await writer.rename(to, entry.path);
      return { done: true, text: `Undone: ${to} is back at ${entry.path}.` };
    }
    const current = await writer.read(entry.path);
    if (current === null) return { done: false, text: `Undo: ${entry.path} is no longer there.` };
    if (entry.kind === 'create') {
      if (sha256Hex(current) !== entry.afterHash) return { done: false, text: `Undo: ${entry.path} changed since it was created; it was kept (delete it yourself if you want it gone).` };
      await writer.trash(entry.path);
      return { done: true, text: `Undone: ${entry.path} was moved to the trash.` };
    }
    if (entry.hunksLeftOut && sha256Hex(current) !== entry.afterHash) return { done: false, text: `Undo: ${entry.path} changed since, and this edit was too large to keep its lines in the chat.` };
    const plan = undoEdit(current, entry);
    if (plan.kind === 'exact') {
      let changed = false;
      await writer.process(entry.path, (now) => (now === current ? plan.text : ((changed = true), now)));
      if (changed) return { done: false, text: `Undo: ${entry.path} changed while undoing; nothing was written. Try again.` };
      return { done: true, text: `Undone: ${entry.path} is back as it was before "${entry.summary}".` };
    }
    const reviewer = this.deps.reviewer?.();
    if (!reviewer) return { done: false, text: `Undo: ${entry.path} changed since; a reverse change needs a review, which is not available here.` };
    if (plan.proposal.hunks.length === 0) return { done: false, text: `Undo: ${entry.path} changed since, over every line the edit wrote; nothing can be undone without losing your changes.` };
    // Waiting like an agent's proposal, so the views showing this chat show its review.
    this.changeWaiting(chat, (list) => [...list, plan.proposal]);
    let outcome: ReviewOutcome;
    try {
      outcome = await reviewer.review(plan.proposal, new AbortController().signal);
    } finally {
      this.changeWaiting(chat, (list) => list.filter((p) => p !== plan.proposal));
    }
    const result = await applyToVault(writer, plan.proposal, outcome);
    const kept = plan.notUndoable.length > 0 ? ` ${plan.notUndoable.length} part(s) you changed since were kept.` : '';
    return { done: result.status === 'applied' || result.status === 'partly-applied', text: `Undo: ${outcomeText(plan.proposal, result, outcome.reason)}${kept}` };
  }

  private policyOf(c: { readonly writePolicy?: WritePolicy; readonly project?: string }, settings: StrataSettings): { policy: WritePolicy; source: PolicySource } {
    const project = findProject(settings, c.project)?.writePolicy;
    const policy = effectiveWritePolicy(c.writePolicy, project, settings.agentWritePolicy ?? DEFAULT_WRITE_POLICY);
    return { policy, source: c.writePolicy ? 'chat' : project ? 'project' : 'settings' };
  }

  private changeWaiting(chat: LiveChat, change: (list: readonly EditProposal[]) => EditProposal[]): void {
    const next = change(this.waiting.get(chat.id) ?? []);
    if (next.length === 0) this.waiting.delete(chat.id);
    else this.waiting.set(chat.id, next);
    this.host.emit(chat);
  }
}

/** A view's handle on the edits of the chat it shows (the controller's `edits`). */
export class ShownEdits {
  constructor(
    private readonly edits: ChatEdits,
    private readonly shown: () => LiveChat,
  ) {}

  apply(proposal: EditProposal, outcome: ReviewOutcome): Promise<ApplyResult> {
    return this.edits.apply(this.shown(), proposal, outcome);
  }
  pending(): readonly EditProposal[] {
    return this.edits.pending(this.shown());
  }
  applied(): readonly EditEntry[] {
    return this.edits.applied(this.shown());
  }
  policy(): { policy: WritePolicy; source: PolicySource } {
    return this.edits.policy(this.shown());
  }
  inherited(): WritePolicy {
    return this.edits.inherited(this.shown());
  }
  setPolicy(policy: WritePolicy | null): void {
    this.edits.setPolicy(this.shown(), policy);
  }
  undo(proposalId: string): Promise<string> {
    return this.edits.undo(this.shown(), proposalId);
  }
}

/** A record id unique in the chat: tool call ids may repeat across turns (a provider that numbers them per turn). */
function freshId(chat: LiveChat, id: string): string {
  const taken = new Set((chat.conversation.edits ?? []).map((e) => e.proposalId));
  if (!taken.has(id)) return id;
  let n = 2;
  while (taken.has(`${id}-${n}`)) n++;
  return `${id}-${n}`;
}
