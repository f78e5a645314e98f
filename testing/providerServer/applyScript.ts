/**
 * Scripted apply model (issue 28; format in ./reply.ts): a request whose system text starts with
 * APPLY_MARKER (src/core/edits/applyModel.ts) gets the note changed by the reply, and one starting
 * with SELECTION_MARKER (src/core/edits/selectionEdit.ts) the passage changed by the instruction,
 * instead of the chat reply. Deterministic, so "Apply to note" and "Edit with Strata" run offline.
 *
 * Rules are read from the reply (apply) or the instruction (selection): every `replace "A" with "B"`
 * (case-insensitive words, quotes straight). Apply, rewrite mode: the note with each A replaced by
 * B everywhere; no rule: the reply appended as a last paragraph. Blocks mode: one search/replace
 * block per rule, on the first line holding A; no rule: the reply added after the last non-blank
 * line. Selection: the passage with the rules applied; no rule: the passage followed by
 * ` [<instruction>]`.
 */
import { APPLY_MARKER } from '../../src/core/edits/applyModel';
import { SELECTION_MARKER } from '../../src/core/edits/selectionEdit';
import type { ScriptedReply } from './toolScript';

const RULE = /replace "([^"\n]+)" with "([^"\n]*)"/gi;

function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start < 0 || end < start ? '' : text.slice(start + open.length, end);
}

function rulesOf(text: string): [string, string][] {
  return [...text.matchAll(RULE)].map((m) => [m[1], m[2]]);
}

function applyRules(text: string, rules: readonly [string, string][]): string {
  return rules.reduce((out, [from, to]) => out.split(from).join(to), text);
}

function applyReply(userText: string): string {
  const blocks = /^Mode: blocks$/m.test(userText);
  const note = between(userText, '<note>\n', '\n</note>');
  const reply = between(userText, '<reply>\n', '\n</reply>');
  const rules = rulesOf(reply);
  if (!blocks) {
    if (rules.length > 0) return applyRules(note, rules);
    return `${note.replace(/\n+$/, '')}\n\n${reply}`;
  }
  const lines = note.split('\n');
  if (rules.length === 0) {
    const last = [...lines].reverse().find((l) => l.trim() !== '') ?? '';
    return `<<<<<<< SEARCH\n${last}\n=======\n${last}\n\n${reply}\n>>>>>>> REPLACE`;
  }
  return rules
    .map(([from, to]) => {
      const line = lines.find((l) => l.includes(from)) ?? from;
      return `<<<<<<< SEARCH\n${line}\n=======\n${line.split(from).join(to)}\n>>>>>>> REPLACE`;
    })
    .join('\n');
}

function editSelection(userText: string): string {
  const instruction = (/^Instruction: (.*)$/m.exec(userText)?.[1] ?? '').trim();
  const passage = between(userText, '<passage>\n', '\n</passage>');
  const rules = rulesOf(instruction);
  return rules.length > 0 ? applyRules(passage, rules) : `${passage} [${instruction}]`;
}

/** The apply or selection reply to such a request; null for any other request. */
export function applyTurn(view: { readonly systemTexts: readonly string[]; readonly userText: string }): ScriptedReply | null {
  if (view.systemTexts.some((t) => t.trimStart().startsWith(APPLY_MARKER))) return { kind: 'text', text: applyReply(view.userText) };
  if (view.systemTexts.some((t) => t.trimStart().startsWith(SELECTION_MARKER))) return { kind: 'text', text: editSelection(view.userText) };
  return null;
}
