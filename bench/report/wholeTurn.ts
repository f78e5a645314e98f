import type { ShortChats, Spread, WholeTurnFigures, WholeTurnRow } from '../wholeTurn/section';
import { int, kib, mib, ms, ratio, table } from './format';

const FRONTMATTER_TARGET = 150 * 1024;
const REOPEN_TARGET_MS = 1000;

/** The issue's targets for one vault kind: ratios of the largest chat to the 50-turn one, and two limits. */
export interface WholeTurnTargets {
  readonly vault: string;
  readonly at: number;
  readonly nextRatio: number | null;
  readonly saveRatio: number | null;
  /** The same for the save's own part (merge check and encode), without the note's read and write; null when not measured. */
  readonly encodeRatio: number | null;
  readonly frontmatterBytes: number;
  readonly reopenMs: number;
}

/** Issue 30's ratios for one vault kind: the next request at turn 10 over the one at 50 (≤ 1×), reopen + first send at N over the next request at N (≤ 5×). */
export interface ShortAndReopenRatios {
  readonly vault: string;
  readonly tenRatio: number | null;
  readonly reopenRatio: number | null;
}

/** The same two ratios in CPU time (null for rows measured before CPU time was). */
export interface ShortAndReopenCpuRatios {
  readonly vault: string;
  readonly tenCpuRatio: number | null;
  readonly reopenCpuRatio: number | null;
}

/** A CPU figure of a row, or NaN for rows from before it was measured. */
const cpu = (n: number | undefined) => (typeof n === 'number' ? n : NaN);

/** Each vault kind's rows at turn 10, turn 50 and the longest run, in first-appearance order. */
function checkpointsOf(rows: readonly WholeTurnRow[]): Array<{ vault: string; ten?: WholeTurnRow; fifty?: WholeTurnRow; last?: WholeTurnRow }> {
  return [...new Set(rows.map((r) => r.vault))].map((vault) => {
    const own = rows.filter((r) => r.vault === vault).sort((a, b) => a.turns - b.turns);
    return { vault, ten: own.find((r) => r.turns === 10), fifty: own.find((r) => r.turns === 50), last: own[own.length - 1] };
  });
}

/** Pure: issue 30's ratios per vault kind (null when the run has no 10- or 50-turn row). */
export function shortAndReopenRatios(rows: readonly WholeTurnRow[]): ShortAndReopenRatios[] {
  return checkpointsOf(rows).map(({ vault, ten, fifty, last }) => ({
    vault,
    tenRatio: ten && fifty && fifty.nextMs > 0 ? ten.nextMs / fifty.nextMs : null,
    reopenRatio: last && last.nextMs > 0 ? (last.openMs + last.firstSendMs) / last.nextMs : null,
  }));
}

/** Pure: issue 30's ratios per vault kind in CPU time. */
export function shortAndReopenCpuRatios(rows: readonly WholeTurnRow[]): ShortAndReopenCpuRatios[] {
  const positive = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : null);
  return checkpointsOf(rows).map(({ vault, ten, fifty, last }) => ({
    vault,
    tenCpuRatio: ten && fifty ? positive(cpu(ten.nextCpuMs), cpu(fifty.nextCpuMs)) : null,
    reopenCpuRatio: last ? positive(cpu(last.openCpuMs) + cpu(last.firstSendCpuMs), cpu(last.nextCpuMs)) : null,
  }));
}

/** Pure: the targets per vault kind (null ratios when the run has no 50-turn row or nothing past it). */
export function wholeTurnTargets(rows: readonly WholeTurnRow[]): WholeTurnTargets[] {
  const kinds = [...new Set(rows.map((r) => r.vault))];
  return kinds.flatMap((vault) => {
    const own = rows.filter((r) => r.vault === vault).sort((a, b) => a.turns - b.turns);
    const last = own[own.length - 1];
    const fifty = own.find((r) => r.turns === 50);
    if (!last) return [];
    const over = (a: number, b: number | undefined) => (b === undefined || b <= 0 || last === fifty ? null : a / b);
    return [{ vault, at: last.turns, nextRatio: over(last.nextMs, fifty?.nextMs), saveRatio: over(last.saveMs, fifty?.saveMs), encodeRatio: Number.isFinite(last.encodeMs) ? over(last.encodeMs, fifty?.encodeMs) : null, frontmatterBytes: last.frontmatterBytes, reopenMs: last.openMs + last.firstSendMs }];
  });
}

function rowsTable(rows: readonly WholeTurnRow[]): string {
  return table(
    ['vault', 'turns', 'next (CPU)', 'same turn again', 'save (saves / turn)', 'its encode', 'quiet save', 'reopen + first send (CPU)', 'reopen, decoded (CPU)', 'preview', 'note', 'frontmatter', 'chat data', 'reads / stats per turn', 'peak heap'],
    rows.map((r) => [
      r.vault,
      int(r.turns),
      `${ms(r.nextMs)}${Number.isFinite(cpu(r.nextCpuMs)) ? ` (${ms(cpu(r.nextCpuMs))})` : ''}`,
      ms(r.againMs),
      `${ms(r.saveMs)} (${r.savesPerTurn.toFixed(1)})`,
      Number.isFinite(r.encodeMs) ? ms(r.encodeMs) : '—',
      ms(r.saveQuietMs),
      `${ms(r.openMs)} + ${ms(r.firstSendMs)}${Number.isFinite(cpu(r.openCpuMs)) ? ` (${ms(cpu(r.openCpuMs))} + ${ms(cpu(r.firstSendCpuMs))})` : ''}`,
      r.openDecodedMs !== undefined ? `${ms(r.openDecodedMs)} (${ms(cpu(r.openDecodedCpuMs))})` : '—',
      ms(r.previewMs),
      kib(r.noteBytes),
      `${int(r.frontmatterBytes)} B`,
      kib(r.chatDataBytes),
      `${r.readsPerTurn.toFixed(1)} / ${r.statsPerTurn.toFixed(1)}`,
      mib(r.heapMiB),
    ]),
    ['l'],
  );
}

function targetsTable(rows: readonly WholeTurnRow[]): string {
  const pass = (ok: boolean | null) => (ok === null ? '' : ok ? ' ✓' : ' ✗');
  return table(
    ['vault', 'next at N ÷ at 50 (≤ 3×)', 'next at 10 ÷ at 50 (≤ 1×; CPU)', 'save at N ÷ at 50 (≤ 3×)', 'its encode at N ÷ at 50 (≤ 3×)', 'frontmatter at N (< 150 KB)', 'reopen + first send at N (< 1 s)', 'reopen + first send ÷ next, at N (≤ 5×; CPU)'],
    wholeTurnTargets(rows).map((t) => ({ ...t, ...shortAndReopenRatios(rows).find((r) => r.vault === t.vault), ...shortAndReopenCpuRatios(rows).find((r) => r.vault === t.vault) })).map((t) => [
      `${t.vault}, N = ${int(t.at)}`,
      `${ratio(t.nextRatio, 1)}${pass(t.nextRatio === null ? null : t.nextRatio <= 3)}`,
      `${ratio(t.tenRatio ?? null, 2)}${pass(t.tenRatio == null ? null : t.tenRatio <= 1)}${t.tenCpuRatio == null ? '' : `; ${ratio(t.tenCpuRatio, 2)}${pass(t.tenCpuRatio <= 1)}`}`,
      `${ratio(t.saveRatio, 1)}${pass(t.saveRatio === null ? null : t.saveRatio <= 3)}`,
      t.encodeRatio === null ? '—' : `${ratio(t.encodeRatio, 1)}${pass(t.encodeRatio <= 3)}`,
      `${kib(t.frontmatterBytes)}${pass(t.frontmatterBytes < FRONTMATTER_TARGET)}`,
      `${ms(t.reopenMs)}${pass(t.reopenMs < REOPEN_TARGET_MS)}`,
      `${ratio(t.reopenRatio ?? null, 1)}${pass(t.reopenRatio == null ? null : t.reopenRatio <= 5)}${t.reopenCpuRatio == null ? '' : `; ${ratio(t.reopenCpuRatio, 1)}${pass(t.reopenCpuRatio <= 5)}`}`,
    ]),
    ['l'],
  );
}

/**
 * Pure: issue 30's turn 10 against turn 50 over the short chats: the turns pooled (the figure judged:
 * under load a turn's wall time has a long tail, and a median of many turns is steadier than one of
 * a few per chat), then each chat's own ratio, its median and quartiles over the chats (the spread).
 */
export function shortChatsLine(vault: string, sc: ShortChats): string {
  const pass = (x: number) => (x <= 1 ? ' ✓' : ' ✗');
  const wall = sc.tenMs / sc.fiftyMs;
  const cpuRatio = sc.tenCpuMs / sc.fiftyCpuMs;
  const head = `Turn 10 against turn 50 (${vault}), issue 30's "no slower" (≤ 1×): ${sc.chats} more chats of 50 turns after the warm-up, each with its own notes`;
  const pooled = (bold: string) =>
    `the next request at turns 4–10 and 44–50 of every chat pooled (${sc.samples} turns each): ${ms(sc.tenMs)} against ${ms(sc.fiftyMs)}, ${bold}${ratio(wall, 2)}${bold}${pass(wall)} in wall time; ` +
    `CPU ${ms(sc.tenCpuMs)} against ${ms(sc.fiftyCpuMs)}, ${bold}${ratio(cpuRatio, 2)}${bold}${pass(cpuRatio)}`;
  const c = sc.perChat;
  if (!c) return `${head}, ${pooled('')} (one chat's window of 7 turns, in the table above, moves by ±20 % between runs).`;
  const spread = (s: Spread) => `${ratio(s.median, 2)} (quartiles ${s.q1.toFixed(2)}–${s.q3.toFixed(2)}×)`;
  return (
    `${head}, each from a collected heap: ${pooled('**')}. ` +
    `Each chat's own ratio (its median at turns 4–10 ÷ its median at 44–50), over the chats: ${spread(c.ratio)} in wall time (${c.noSlower} of ${sc.chats} chats no slower), ` +
    `${spread(c.cpuRatio)} in CPU time (${c.noSlowerCpu} of ${sc.chats}): one chat's 7 turns, like the table's row at turn 10, move that much.`
  );
}

/** The whole-turn section of the report; `before`: the same figures from before a change, when kept. */
export function wholeTurnSection(rows: readonly WholeTurnRow[], runs: WholeTurnFigures['runs'], before?: readonly WholeTurnRow[]): string {
  const o = runs[0]?.options;
  const out: string[] = ['## Whole turn: Enter to the provider call', ''];
  out.push(
    `One chat through the real \`ChatController\`, the chat-note archive over \`FsChatStore\` (a temp folder) and a generated vault of ${int(o?.notes ?? 1000)} notes of ~2 KB on disk; ` +
      'one note attached per turn, every third turn re-attaching an earlier one; the provider is a stand-in that answers at once with ~400 characters (nothing goes over the network); ' +
      'a listener reads the chat state on every change, as the view does; no condensing (the budget is set out of reach). ' +
      '**cached**: notes read from disk once, then from memory, with their modification time and size in memory (Obsidian\'s `cachedRead` and `TFile.stat`); **uncached**: `FsVault`, the disk every time. ' +
      `**next**: \`send()\` → the provider's \`send\` called, median of turns N−${(o?.window ?? 7) - 1}…N (in brackets: the process's CPU time over the same span, all threads, which the machine's load stretches far less than wall time); ` +
      `**same turn again**: Retry of turn N after a failed request (resolve, re-read, assemble and compile the same turn again), median of ${o?.retries ?? 3}; ` +
      '**save**: one save of the chat note (encode, read-compare, write) as the controller makes them during those turns (wall time, other work of the turn may overlap it), and how many a turn makes; ' +
      '**its encode**: the part of those saves that is Strata\'s (the update `process()` runs: the merge check and the encode), without the note\'s read and write (a whole-file rewrite, as `Vault.process` makes); ' +
      '**quiet save**: the settled chat saved once more with nothing else running; **reopen**: `open(id)` as the plugin reopens a chat: the view that showed it closed (the chat left memory), a new view\'s controller over the plugin\'s one hub and archive (read the note, find it unchanged since it was saved or read, rehydrate; same process: the tokenizer stays loaded), median of 3; **reopen, decoded**: once before those, the note taken as changed outside Strata (a sync, an edit), so it is decoded; ' +
      '**first send**: the next turn\'s Enter → provider call on that controller; **preview**: `previewNext()`; **reads / stats**: vault calls per ordinary turn; each vault kind runs in its own process (peak heap: sampled after every turn).',
    '',
    rowsTable(rows),
    '',
    'Targets (issue 16):',
    '',
    targetsTable(rows),
    '',
  );
  if (before && before.length > 0) out.push('Before issue 16\'s changes (bench/wholeTurn/before.json, the same worker on commit 863d8c4):', '', rowsTable(before), '', targetsTable(before), '');
  const warm = runs.filter((r) => r.firstUse && (r.options.warmupTurns ?? 0) > 0);
  for (const r of warm) {
    const ten = rows.find((row) => row.vault === r.vault && row.turns === 10);
    out.push(
      `First use (${r.vault}): each run first plays a ${int(r.options.warmupTurns ?? 0)}-turn warm-up chat in the same process (its own folder and vault, its figures dropped), so the rows above time the turn, not V8 compiling Strata's code on its first calls. ` +
        `That warm-up chat, a fresh process's first chat: turn 1 ${ms(r.firstUse?.firstTurnMs ?? NaN)}, turns 2–10 ${ms(r.firstUse?.turns2to10Ms ?? NaN)} (median)` +
        `${ten ? `, against ${ms(ten.nextMs)} at turn 10 of the measured chat` : ''}.`,
      '',
    );
  }
  for (const r of runs) {
    const sc = r.shortChats;
    if (!sc) continue;
    out.push(shortChatsLine(r.vault, sc), '');
  }
  const durations = runs.map((r) => `${r.vault} ${int(r.durationMs / 1000)} s`).join(', ');
  if (durations) out.push(`Run time: ${durations}.`, '');
  return out.join('\n');
}
