import { sha256Hex } from '../hash';
import type { CompletedTurn } from './completedTurn';
import type { ToolOutput } from './types';

/*
 * Historical tool outputs as artifacts (issue 27, seed 004): at a compaction, an earlier turn's tool
 * output may be sent in a shorter form instead of verbatim (a digest, a summary, or a marker saying
 * it was left out). The form is decided once, at the compaction, and kept in its record, so every
 * request until the next compaction (and a reopened chat) sends the same bytes: never per turn.
 */

export const TOOL_FORM_KINDS = ['digest', 'summary', 'excluded'] as const;
export type ToolFormKind = (typeof TOOL_FORM_KINDS)[number];

/** One tool output of a kept turn, as the compaction sends it. */
export interface ToolForm {
  /** The turn (1-based) whose output it is. */
  readonly turn: number;
  /** Its index among the turn's tool outputs (call order for an agent turn). */
  readonly index: number;
  readonly kind: ToolFormKind;
  /** Hash of the output it stands for: a form whose output changed (a truncated and re-run turn) is not applied. */
  readonly hash: string;
  /** What is sent as the output. */
  readonly text: string;
}

/** The hash a form keeps of the output it replaces. */
export function outputHash(output: string): string {
  return sha256Hex(output).slice(0, 16);
}

/** Forms by turn, in index order (one map per compaction: built once, read every assembly). */
export function formsByTurn(forms: readonly ToolForm[] | undefined): ReadonlyMap<number, readonly ToolForm[]> {
  const map = new Map<number, ToolForm[]>();
  for (const f of forms ?? []) {
    const list = map.get(f.turn);
    if (list) list.push(f);
    else map.set(f.turn, [f]);
  }
  return map;
}

/** A key naming a turn's forms, so a memoised rendering of the turn is reused only under the same ones. */
export function formsKey(forms: readonly ToolForm[] | undefined): string {
  return forms && forms.length > 0 ? forms.map((f) => `${f.index}:${f.kind}:${f.hash}:${sha256Hex(f.text).slice(0, 8)}`).join(',') : '';
}

/**
 * The turn with its outputs replaced by their forms (name and input kept, so an agent turn's native
 * tool messages keep their call ids and order). Unchanged when no form applies.
 */
export function applyToolForms<T extends { readonly tools: readonly ToolOutput[] }>(turn: T, forms: readonly ToolForm[] | undefined): { turn: T; applied: number } {
  if (!forms || forms.length === 0) return { turn, applied: 0 };
  let applied = 0;
  const tools = turn.tools.map((tool, i) => {
    const form = forms.find((f) => f.index === i);
    if (!form || form.hash !== outputHash(tool.output)) return tool;
    applied++;
    return { ...tool, output: form.text };
  });
  return applied === 0 ? { turn, applied } : { turn: { ...turn, tools }, applied };
}

/**
 * Decides the forms at a compaction: `kept` are the turns after its boundary (oldest first),
 * `previous` the forms of the compaction before it. src/core/planning/toolArtifacts.ts makes one.
 */
export type ToolFormPlanner = (kept: readonly CompletedTurn[], previous: readonly ToolForm[] | undefined, signal: AbortSignal) => Promise<readonly ToolForm[]>;
