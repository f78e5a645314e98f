import type { CompactionEvent } from './records/compaction';
import { omissionText } from '../budget/summarizer';
import type { Compaction } from '../engine/compaction';
import { DEFAULT_MASKING } from '../engine/masking';
import type { PendingEvent } from '../engine/prefix';
import { readCompactionTitle, turnRange, type BodyCompaction } from './compactionCallout';
import { textHash, type CompactionMeta } from './meta';
import type { ChatTurn, CompactionRecord } from './model';

/**
 * Compaction records as a chat note gives them back: the frontmatter records paired with the
 * summary callouts of the body. The callout's text is the compaction's text, and its place in the
 * note its boundary; whatever does not pair up is recovered with a warning, never thrown.
 */

/** A record for a compaction known only by what the engine renders (no event: neutral figures, unknown cost). */
export function neutralRecord(c: Compaction, previous: number, at: number): CompactionRecord {
  const from = Math.min(previous, c.through);
  return {
    trigger: 'auto',
    through: c.through,
    previous: from,
    kind: c.kind,
    turnsDropped: c.through - from,
    outputsMasked: 0,
    tokensBefore: 0,
    tokensAfter: 0,
    summary: null,
    text: c.text,
    maskedThrough: c.maskedThrough,
    masking: c.masking,
    ...formsOf(c),
    at,
    cost: null,
  };
}

/** A compaction's tool forms as a record's field (absent when it has none). */
function formsOf(c: Compaction): Pick<CompactionRecord, 'toolForms'> {
  return c.toolForms && c.toolForms.length > 0 ? { toolForms: c.toolForms } : {};
}

/** Text for an event whose summary this caller never saw (only the engine's latest compaction is kept). */
export function unrecordedText(through: number): string {
  return `[the summary of ${turnRange(through)} was not kept; a later summary replaced it]`;
}

/**
 * Records for an engine's compactions: `events` (records, or what a replay reported; oldest first)
 * completed with what the engine renders. The latest record renders exactly as `current` (its text,
 * kind and masking come from the engine); earlier events keep their figures, and an event without
 * text says its summary was not kept. Events past `current` (undone by a truncation) are left out;
 * without a record for `current`, a neutral one is added. Summarizing calls are not priced here:
 * without any (omitted, offline summarizer) the cost is 0, else unknown.
 */
export function recordsFor(current: Compaction | null, events: readonly (CompactionEvent | CompactionRecord)[] | undefined, at: number): CompactionRecord[] {
  if (!current) return [];
  const kept = (events ?? []).filter((e) => e.through <= current.through);
  const out = kept.map((e, i): CompactionRecord => {
    const full: CompactionRecord =
      'text' in e ? e : { ...e, text: unrecordedText(e.through), maskedThrough: e.through, masking: current.masking, at, cost: e.summary && e.summary.calls > 0 ? null : 0 };
    const latest = i === kept.length - 1 && e.through === current.through;
    if (!latest) return full;
    const { toolForms: _recorded, ...rest } = full;
    return { ...rest, kind: current.kind, text: current.text, maskedThrough: current.maskedThrough, masking: current.masking, ...formsOf(current) };
  });
  const last = latestCompaction(out);
  if (!last || last.through !== current.through) out.push(neutralRecord(current, last?.through ?? 0, at));
  return out;
}

/** The compaction the engine renders for a chat: its latest record. */
export function latestCompaction(records: readonly CompactionRecord[] | undefined): CompactionRecord | null {
  return records && records.length > 0 ? records[records.length - 1] : null;
}

/** The pending event that names the next prefix break for a latest compaction that changed since the last request. */
export function condensedEvent(record: CompactionRecord): PendingEvent {
  return { type: 'condensed', through: record.through, kind: record.kind };
}

/** `pending` with the event added (unless an equal one is there already). */
export function withPending(pending: readonly PendingEvent[] | undefined, event: PendingEvent): PendingEvent[] {
  const list = [...(pending ?? [])];
  return list.some((e) => JSON.stringify(e) === JSON.stringify(event)) ? list : [...list, event];
}

/**
 * What the engine should render for this chat, when it differs from what it renders now (the user
 * edited the latest summary in the note while the chat was open): pass it to engine.condense, which
 * names the next prefix break `condensed`. Null when the engine is in step.
 */
export function compactionToApply(records: readonly CompactionRecord[] | undefined, current: Compaction | null): Compaction | null {
  const latest = latestCompaction(records);
  if (!latest || !current || latest.through !== current.through) return null;
  if (latest.text === current.text && latest.kind === current.kind) return null;
  return { ...current, kind: latest.kind, text: latest.text };
}

export interface PairInput {
  readonly records: readonly CompactionMeta[];
  readonly callouts: readonly BodyCompaction[];
  /** The chat's turns as decoded (a callout's boundary is the number of answered turns above it). */
  readonly turns: readonly ChatTurn[];
  readonly pending: readonly PendingEvent[] | undefined;
  /** When a compaction rebuilt from a callout alone is said to have been made. */
  readonly at: number;
}

export interface Paired {
  readonly compactions: CompactionRecord[];
  /** The pending events, with `condensed` added when the compaction the engine renders is not the one last sent. */
  readonly pending: readonly PendingEvent[] | undefined;
}

interface Entry {
  readonly record?: CompactionMeta;
  readonly callout?: BodyCompaction;
}

/** Pair the frontmatter's compaction records with the body's summary callouts (both oldest first). */
export function pairCompactions(input: PairInput, warnings: string[]): Paired {
  const { records, callouts, turns } = input;
  if (records.length === 0 && callouts.length === 0) return { compactions: [], pending: input.pending };
  // Answered turns before each position, counted once (a hand-made note may hold many callouts).
  const before: number[] = [0];
  turns.forEach((t, i) => before.push(before[i] + (t.status === 'complete' ? 1 : 0)));
  const boundary = (position: number) => before[Math.min(position, turns.length)];
  const answered = boundary(turns.length);
  // Record indexes by boundary, so pairing stays linear however many callouts a note holds.
  const byThrough = new Map<number, { indexes: number[]; at: number }>();
  records.forEach((r, i) => {
    const list = byThrough.get(r.through);
    if (list) list.indexes.push(i);
    else byThrough.set(r.through, { indexes: [i], at: 0 });
  });
  const entries: Entry[] = [];
  let next = 0;
  for (const callout of callouts) {
    if (callout.warning) warnings.push(callout.warning);
    const key = readCompactionTitle(callout.title)?.through ?? boundary(callout.position);
    // The first record with this boundary not passed yet (records before `next` are paired or passed over).
    const list = byThrough.get(key);
    while (list && list.at < list.indexes.length && list.indexes[list.at] < next) list.at++;
    const k = list && list.at < list.indexes.length ? list.indexes[list.at++] : -1;
    if (k < 0) {
      entries.push({ callout });
      continue;
    }
    for (; next < k; next++) entries.push({ record: records[next] });
    entries.push({ record: records[k], callout });
    next = k + 1;
  }
  for (; next < records.length; next++) entries.push({ record: records[next] });

  const out: CompactionRecord[] = [];
  const edited: boolean[] = [];
  let changed = false;
  const boundaryOf = (e: Entry) => (e.callout ? boundary(e.callout.position) : Math.min(e.record?.through ?? 0, answered));
  // A callout moved by hand above an earlier one: the boundaries decide the order.
  const ordered = entries.map((e, i) => ({ e, i, through: boundaryOf(e) })).sort((a, b) => a.through - b.through || a.i - b.i);
  for (const { e, through } of ordered) {
    const result = recover(e, through, latestCompaction(out), input.at, warnings);
    // A compaction left out changes what renders, unless a later one replaces it anyway.
    changed = result ? result.changed : true;
    if (!result) continue;
    out.push(result.record);
    edited.push(result.edited);
  }
  edited.forEach((was, i) => {
    if (!was) return;
    const range = turnRange(out[i].through);
    warnings.push(
      i === out.length - 1
        ? `the summary of ${range} was edited in the note; the edited text is sent from the next message on`
        : `the summary of ${range} was edited in the note; the edit is kept for the record (only the latest summary is sent)`,
    );
  });
  const latest = latestCompaction(out);
  // Only the latest compaction is rendered: a change to it is a deliberate break the next request names.
  const pending = latest && changed ? withPending(input.pending, condensedEvent(latest)) : input.pending;
  return { compactions: out, pending };
}

/** One paired entry as a record, and whether what the engine renders from it differs from what was sent. */
function recover(
  e: Entry,
  through: number,
  previous: CompactionRecord | null,
  at: number,
  warnings: string[],
): { record: CompactionRecord; changed: boolean; edited: boolean } | null {
  const { record, callout } = e;
  if (!record && callout) {
    if (through === 0) {
      warnings.push(`a summary callout ("${callout.title.slice(0, 60)}") stands above every answered message; it condenses nothing and was left out`);
      return null;
    }
    warnings.push(`a summary in the note (${turnRange(through)}) has no compaction record in the frontmatter; it is kept as one, without masking`);
    const kind = readCompactionTitle(callout.title)?.kind ?? 'summary';
    const rebuilt = neutralRecord({ through, kind, text: callout.text, maskedThrough: through, masking: DEFAULT_MASKING }, previous?.through ?? 0, at);
    return { record: rebuilt, changed: true, edited: false };
  }
  if (!record) return null;
  if (through === 0) {
    warnings.push(`the compaction of ${turnRange(record.through)} condenses no message still in the note; left out`);
    return null;
  }
  const { textHash: hash, ...fields } = record;
  const moved = through !== record.through;
  const maskedThrough = Math.max(through, record.maskedThrough + (through - record.through));
  if (moved) {
    warnings.push(`the summary of ${turnRange(record.through)} now follows ${through} answered message(s) (messages above it changed); it stands for ${turnRange(through)}`);
  }
  if (!callout) {
    warnings.push(`the summary of ${turnRange(record.through)} is missing from the note; an omission marker stands for it`);
    const prior = previous?.through ?? 0;
    const text = omissionText(previous?.text ?? null, 2 * Math.max(0, through - prior), []);
    return { record: { ...fields, through, maskedThrough, kind: 'omitted', text }, changed: true, edited: false };
  }
  const edited = hash !== undefined && textHash(callout.text) !== hash;
  return { record: { ...fields, through, maskedThrough, text: callout.text }, changed: edited || moved, edited };
}
