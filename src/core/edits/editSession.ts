import type { ApplyResult, EditProposal, ProposalReviewer } from './proposal';
import type { WritePolicy } from './writePolicy';
import type { WriteRules } from './writePaths';
import type { NoteWriter } from '../ports/noteWriter';

/**
 * What the agent's write tools (issue 28) run with, for one turn: the vault's writer, who reviews,
 * the chat's write policy and where writing is allowed. Each tool builds an EditProposal;
 * submitProposal (src/core/agent/submitEdit.ts)
 * has it reviewed (or applied without asking, as the policy says), applies it against the note's text
 * at that moment and tells the model the outcome in words.
 */
export interface EditSession {
  readonly writer: NoteWriter;
  readonly reviewer: ProposalReviewer;
  readonly policy: WritePolicy;
  readonly rules: WriteRules;
  /** A proposal waits for its review (the view shows it). */
  readonly onProposed?: (proposal: EditProposal) => void;
  /** A proposal was decided and applied (or not): the chat records what was written, so it can be undone. */
  readonly onSettled?: (proposal: EditProposal, result: ApplyResult) => void;
}
