import { FULL_MODE_CODES, type FullModeCode } from '../../core/compiler/sessionRules';
import type { ChatTurn } from '../../core/conversation/model';
import { PREFIX_CHANGE_REASONS, type PrefixChangeReason } from '../../core/engine/types';

/**
 * The note under a reply whose request did not extend the previous one (a prefix break, or a
 * provider session that had to start again): what happened in plain words, with the technical
 * reason (code, layer, detail, request mode) for the tooltip and the accessible description.
 */
export interface BreakNote {
  readonly text: string;
  readonly technical: string;
}

interface Words {
  /** Completes "The provider's cache restarts because …". */
  readonly because: (detail: string) => string;
  /** Where in the request the change is, in the usage panel's words. */
  readonly layer: string;
}

const CACHE = "The provider's cache restarts because";
const SESSION = "The provider's session restarts because";

/** Every prefix change reason of the engine (src/core/engine/prefix.ts), in plain words. */
export const PREFIX_BREAK_WORDS: Readonly<Record<PrefixChangeReason, Words>> = {
  'settings-changed': { because: () => 'you changed the instructions (system prompt or memory)', layer: 'Instructions (L1)' },
  'model-switch': { because: () => 'you switched model', layer: 'the whole request (the cache is per model)' },
  'library-item-removed': { because: (d) => `you removed ${names(d)} from the notes in this chat`, layer: 'Notes in this chat (L2)' },
  condensed: { because: () => 'older messages were condensed', layer: 'Conversation (L4)' },
  'note-edited': { because: (d) => `you edited ${names(d)}`, layer: 'Notes in this chat (L2)' },
  'library-grew': { because: () => 'a note joined the notes this chat sends first', layer: 'Notes in this chat (L2)' },
  'history-edited': {
    because: (d) => (/truncated/.test(d) ? 'you edited or regenerated a message' : 'earlier messages changed since they were sent'),
    layer: 'Conversation (L4)',
  },
  'history-context-dropped': { because: () => 'earlier messages are sent again without the notes they carried', layer: 'Conversation (L4)' },
  'rendering-changed': { because: () => 'you changed how the conversation is laid out (the Rendering setting)', layer: 'Notes in this chat (L2) to Conversation (L4)' },
  'project-switch': { because: (d) => `you moved the chat ${projectSwitch(d)}, so its project instructions changed`, layer: 'Instructions (L1)' },
  'image-changed': { because: (d) => `${names(d)}, sent as an image earlier, changed or is gone`, layer: 'Conversation (L4)' },
  replanned: { because: (d) => `the context plan changed: ${d}`, layer: 'Notes in this chat (L2)' },
  'library-condensed': { because: () => 'older notes of this chat were condensed to an outline or summary to stay in the budget', layer: 'Notes in this chat (L2)' },
};

/**
 * Every reason the message compiler's session rules (src/core/compiler/sessionRules.ts) give for a
 * full request, in plain words; `shown`: worth a note when no prefix break already says why.
 */
export const SESSION_BREAK_WORDS: Readonly<Record<FullModeCode, Words & { readonly shown: boolean }>> = {
  'stateless-provider': { because: () => 'this provider keeps no conversation between requests', layer: 'the whole request', shown: false },
  'no-session': { because: () => "the provider's earlier session is gone, so the whole conversation is sent again", layer: 'the whole request', shown: true },
  'provider-changed': { because: () => 'you switched provider', layer: 'the whole request', shown: true },
  'model-changed': { because: () => 'you switched model', layer: 'the whole request', shown: true },
  'cwd-changed': { because: () => "Claude Code's working folder changed", layer: 'the whole request', shown: true },
  'no-cursor': { because: () => 'the saved session does not say what the provider had seen', layer: 'the whole request', shown: true },
  'cursor-beyond-count': { because: () => "the chat has fewer messages than the provider's session (it was edited)", layer: 'Conversation (L4)', shown: true },
  condensed: { because: () => 'older messages were condensed', layer: 'Conversation (L4)', shown: true },
  'history-edited': { because: () => 'earlier messages changed since the provider saw them', layer: 'Conversation (L4)', shown: true },
  'prefix-changed': { because: () => 'the start of the request changed', layer: 'Instructions (L1) or Notes in this chat (L2)', shown: true },
};

/** The reasons with words, for the test that every reason has some. */
export const WORDED = { prefix: PREFIX_CHANGE_REASONS, session: FULL_MODE_CODES } as const;

/**
 * The note for an answered turn, or null when its request extended the previous one. `first`: the
 * chat's first answered turn (a new provider session then is no restart).
 */
export function breakNoteOf(turn: ChatTurn, first: boolean): BreakNote | null {
  const envelope = turn.envelope;
  if (!envelope) return null;
  const compile = envelope.compile;
  const request = compile ? `Request: ${compile.mode} (${compile.reason})` : '';
  const change = envelope.prefixChange;
  if (change) {
    const words = PREFIX_BREAK_WORDS[change.reason];
    // A reason this version has no words for (a newer note) still says something true.
    const because = words ? words.because(change.detail) : 'the start of the request changed';
    const technical = [`Prefix break (${change.reason}) in ${words?.layer ?? 'the request'}: ${change.detail}`, request];
    return { text: `${CACHE} ${because}`, technical: technical.filter(Boolean).join('\n') };
  }
  if (!compile || compile.mode !== 'full') return null;
  const code = compile.reason.split(':')[0] as FullModeCode;
  const words = SESSION_BREAK_WORDS[code] as (typeof SESSION_BREAK_WORDS)[FullModeCode] | undefined;
  if (!words || !words.shown || (code === 'no-session' && first)) return null;
  const technical = [`Session restart (${code}) in ${words.layer}: ${compile.reason.slice(code.length + 1).trim()}`];
  return { text: `${SESSION} ${words.because(compile.reason)}`, technical: technical.filter(Boolean).join('\n') };
}

/** "“Plan”", "“Plan” and “Ventilation”", "“Plan”, “Ventilation” and 2 more notes": the names after a detail's colon. */
export function names(detail: string): string {
  const colon = detail.indexOf(': ');
  const list = (colon >= 0 ? detail.slice(colon + 2) : detail)
    .split(', ')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((id) => `“${basename(id)}”`);
  if (list.length === 0) return 'a note';
  if (list.length === 1) return list[0];
  if (list.length === 2) return `${list[0]} and ${list[1]}`;
  const more = list.length - 2;
  return `${list[0]}, ${list[1]} and ${more} more note${more === 1 ? '' : 's'}`;
}

/** "from project Alpha to no project": the detail's "A → B" (before anything else it says). */
function projectSwitch(detail: string): string {
  const [from, to] = detail.split(';')[0].split(' → ');
  return to === undefined ? 'to another project' : `from ${from.trim()} to ${to.trim()}`;
}

function basename(id: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id)) return id;
  const last = id.split('/').pop() ?? id;
  return last.replace(/\.md$/i, '') || id;
}

let described = 0;

/** The note under a reply: the plain words shown, the technical reason as its tooltip and accessible description. */
export function renderBreakNote(parent: HTMLElement, note: BreakNote): HTMLElement {
  const id = `strata-break-detail-${++described}`;
  const el = parent.createDiv({ cls: 'strata-prefix-change', attr: { role: 'note', title: note.technical, 'aria-describedby': id } });
  el.createSpan({ cls: 'strata-prefix-change-text', text: note.text });
  // Hidden, but it describes the note (aria-describedby reads hidden text) and keeps the code findable.
  el.createSpan({ cls: 'strata-prefix-change-detail', text: note.technical, attr: { id, hidden: '' } });
  return el;
}
