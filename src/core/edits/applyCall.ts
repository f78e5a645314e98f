/**
 * The apply model's two calls (issue 28), on the apply model setting's provider and model (the
 * chat's when unset): a reply applied to a note, and a selection edited by an instruction. Each
 * returns the text proposed and what the call cost, which the UI shows as it shows a chat turn's.
 */
import { applyTarget, findProvider, type StrataSettings } from '../settings/settings';
import { sideCall, type SideCallDeps, type SideCallRecord } from '../sideCall';
import { applyMessages, applyModeFor, predictionSupported, proposedTextOf, type ApplyMode } from './applyModel';
import { selectionMessages, selectionResult, type SelectionInput } from './selectionEdit';

/** A whole-note rewrite may take a while on a long note. */
export const APPLY_TIMEOUT_MS = 120_000;

export interface ApplyCallResult {
  readonly proposedText: string;
  readonly mode: ApplyMode;
  readonly call: SideCallRecord;
  /** The note was sent as a predicted output. */
  readonly predicted: boolean;
}

/** The apply model's answer could not be turned into the note (a block that does not match, an empty note). */
export class ApplyModelError extends Error {
  constructor(
    message: string,
    readonly call: SideCallRecord,
  ) {
    super(message);
    this.name = 'ApplyModelError';
  }
}

type Chat = { readonly provider: string; readonly model: string };

export async function applyReplyCall(settings: StrataSettings, chat: Chat, input: { path: string; note: string; reply: string }, deps: SideCallDeps): Promise<ApplyCallResult> {
  const target = applyTarget(settings, chat.provider, chat.model);
  const mode = applyModeFor(input.note);
  // A rewrite repeats most of the note: where OpenAI offers predicted outputs, the note is the prediction.
  const predicted = mode === 'rewrite' && predictionSupported(findProvider(settings, target.provider)?.kind ?? '', target.model);
  const { text, call } = await sideCall(settings, chat, applyMessages(input.path, input.note, input.reply, mode), APPLY_TIMEOUT_MS, deps, {
    target,
    ...(predicted ? { prediction: input.note } : {}),
  });
  const attempt = proposedTextOf(input.note, text, mode);
  if (!attempt.ok) throw new ApplyModelError(attempt.error, call);
  return { proposedText: attempt.text, mode, call, predicted };
}

export async function editSelectionCall(settings: StrataSettings, chat: Chat, input: SelectionInput, deps: SideCallDeps): Promise<{ text: string; call: SideCallRecord; predicted: boolean }> {
  const target = applyTarget(settings, chat.provider, chat.model);
  const predicted = predictionSupported(findProvider(settings, target.provider)?.kind ?? '', target.model);
  const { text, call } = await sideCall(settings, chat, selectionMessages(input), APPLY_TIMEOUT_MS, deps, {
    target,
    ...(predicted ? { prediction: input.selection } : {}),
  });
  return { text: selectionResult(input.selection, text), call, predicted };
}
