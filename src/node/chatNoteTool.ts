import path from 'node:path';
import { ChatArchive } from '../core/conversation/archive';
import { calloutPositions, compactionTitle } from '../core/conversation/compactionCallout';
import type { Conversation } from '../core/conversation/model';
import type { CompactionKind } from '../core/engine/compaction';
import type { CompactionTrigger } from '../core/conversation/records/compaction';
import { interrupted } from '../core/conversation/transitions';
import { FsChatStore } from './fsChatStore';

/** What the plugin reads from a chat note: enough to tell why a chat does not open, or what a save keeps. */
export interface ChatNoteReport {
  readonly file: string;
  readonly id: string;
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  readonly turns: ReadonlyArray<{ n: number; status: string; text: string; reply: string | null; chips: number; error?: string }>;
  readonly library: ReadonlyArray<{ id: string; kind: string; version: number; enteredTurn: number }>;
  /** Compactions, oldest first: the boundary (answered turns condensed; the callout stands before message `before`), tokens, cost. */
  readonly compactions: ReadonlyArray<{
    through: number;
    before: number;
    kind: CompactionKind;
    trigger: CompactionTrigger;
    tokensBefore: number;
    tokensAfter: number;
    maskedThrough: number;
    outputsMasked: number;
    /** Earlier tool outputs sent as a digest, a summary or left out (absent: none). */
    outputsShortened?: number;
    cost: number | null;
    fallback?: string;
  }>;
  /** Frontmatter keys the plugin does not own, kept as they are. */
  readonly propertiesKept: readonly string[];
  /** Text before the first message, kept as written. */
  readonly intro: string | null;
  readonly warnings: readonly string[];
  /** With --resave: whether the note was written back, and whether its text changed. */
  readonly resaved?: { readonly changed: boolean; readonly warnings: readonly string[] };
}

/**
 * Decode a chat note exactly as the plugin opens one (the archive over the note's folder), and with
 * `resave`, write it back through the same save path the chat controller uses after opening it
 * (interrupted requests marked, then ChatArchive.save: create-or-process with the three-way merge).
 */
export async function inspectChatNote(file: string, options: { resave?: boolean } = {}): Promise<ChatNoteReport> {
  const full = path.resolve(file);
  const store = new FsChatStore(path.dirname(full));
  const archive = new ChatArchive(store, { now: () => 0 }, '.');
  const name = path.basename(full);
  const before = await store.read(name);
  if (before === null) throw new Error(`${file}: no such file`);
  const loaded = await archive.loadPath(name);
  const report = reportOf(file, loaded.conversation, loaded.warnings);
  if (!options.resave) return report;
  const saved = await archive.save(interrupted(loaded.conversation));
  const after = await store.read(name);
  return { ...report, resaved: { changed: after !== before, warnings: saved.warnings } };
}

function reportOf(file: string, c: Conversation, warnings: readonly string[]): ChatNoteReport {
  const compactions = c.compactions ?? [];
  const positions = calloutPositions(c.turns, compactions);
  return {
    file,
    id: c.id,
    title: c.title,
    provider: c.provider,
    model: c.model,
    turns: c.turns.map((t, i) => ({
      n: i + 1,
      status: t.status,
      text: t.text,
      reply: t.reply ?? null,
      chips: t.chips?.length ?? 0,
      ...(t.error !== undefined ? { error: t.error } : {}),
    })),
    library: c.library.map((r) => ({ id: r.id, kind: r.kind, version: r.version, enteredTurn: r.enteredTurn })),
    compactions: compactions.map((r, i) => ({
      through: r.through,
      before: positions[i] + 1,
      kind: r.kind,
      trigger: r.trigger,
      tokensBefore: r.tokensBefore,
      tokensAfter: r.tokensAfter,
      maskedThrough: r.maskedThrough,
      outputsMasked: r.outputsMasked,
      ...(r.toolForms && r.toolForms.length > 0 ? { outputsShortened: r.toolForms.length } : {}),
      cost: r.cost,
      ...(r.fallback !== undefined ? { fallback: r.fallback } : {}),
    })),
    propertiesKept: Object.keys(c.extra ?? {}),
    intro: c.preamble ?? null,
    warnings: [...warnings],
  };
}

/** One line of text for a table cell. */
function cell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

type CompactionRow = ChatNoteReport['compactions'][number];

/** One compaction on one line: boundary and kind, how it came about, tokens before → after, cost. */
function compactionLine(c: CompactionRow): string {
  const cost = c.cost === null ? 'cost unknown' : `$${c.cost.toFixed(4)}`;
  const range = c.maskedThrough === c.through + 1 ? `turn ${c.maskedThrough}` : `turns ${c.through + 1}–${c.maskedThrough}`;
  const masked = c.maskedThrough > c.through ? ` · ${range} masked (${c.outputsMasked} output(s))` : '';
  const fallback = c.fallback ? ` · ${cell(c.fallback, 50)}` : '';
  const shortened = c.outputsShortened ? ` · ${c.outputsShortened} earlier tool output(s) shortened` : '';
  return `${compactionTitle(c.through, c.kind)} (${c.trigger}) · ${c.tokensBefore.toLocaleString('en-US')} → ${c.tokensAfter.toLocaleString('en-US')} tokens · ${cost}${masked}${shortened}${fallback}`;
}

export function formatReportTable(r: ChatNoteReport): string {
  const marks = (n: number) => r.compactions.filter((c) => c.before === n).map((c) => `  ── ${compactionTitle(c.through, c.kind)} ──`);
  const lines = [
    `${r.file}`,
    `  chat ${r.id} · "${r.title}" · ${r.provider} / ${r.model}`,
    `  ${r.turns.length} message(s), ${r.library.length} library item(s), ${r.compactions.length} compaction(s)`,
    '',
    '  #  status    chips  message / reply',
    ...r.turns.flatMap((t) => [
      ...marks(t.n),
      `  ${String(t.n).padStart(2)} ${t.status.padEnd(9)} ${String(t.chips).padStart(5)}  ${cell(t.text, 70)}`,
      t.reply !== null ? `                      ↳ ${cell(t.reply, 68)}` : `                      ↳ (no reply${t.error ? `: ${cell(t.error, 50)}` : ''})`,
    ]),
    ...marks(r.turns.length + 1),
    '',
    `  library: ${r.library.length === 0 ? 'empty' : r.library.map((i) => `${i.id} v${i.version} (turn ${i.enteredTurn})`).join(', ')}`,
    `  compactions: ${r.compactions.length === 0 ? 'none' : ''}`,
    ...r.compactions.map((c) => `    - ${compactionLine(c)}`),
    `  properties kept: ${r.propertiesKept.length === 0 ? 'none' : r.propertiesKept.join(', ')}`,
    `  intro kept: ${r.intro === null ? 'none' : `"${cell(r.intro, 60)}"`}`,
    `  warnings: ${r.warnings.length === 0 ? 'none' : ''}`,
    ...r.warnings.map((w) => `    - ${w}`),
  ];
  if (r.resaved) lines.push(`  resaved: ${r.resaved.changed ? 'written, text changed' : 'written, unchanged'}${r.resaved.warnings.length ? ` (${r.resaved.warnings.join('; ')})` : ''}`);
  return `${lines.join('\n')}\n`;
}
