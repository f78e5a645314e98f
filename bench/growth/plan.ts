/**
 * The synthetic long conversation for the growth runs: pure and deterministic, so every run
 * assembles the same turns. Notes enter at an even pace (the library reaches every note by the last
 * turn) and each turn also re-attaches a couple of earlier notes (sent by reference).
 */

export interface GrowthTurn {
  readonly turn: number;
  /** Indices into the note list, in chip order: new notes first, then re-attached ones. */
  readonly attach: readonly number[];
  /** How many of `attach` enter the library this turn. */
  readonly newNotes: number;
}

export function growthPlan(turns: number, notes: number): GrowthTurn[] {
  if (!Number.isInteger(turns) || turns < 1) throw new Error(`turns must be a positive integer, got ${turns}`);
  if (!Number.isInteger(notes) || notes < 0) throw new Error(`notes must be a non-negative integer, got ${notes}`);
  const plan: GrowthTurn[] = [];
  let known = 0;
  for (let turn = 1; turn <= turns; turn++) {
    // Note k enters at turn 1 + floor(k * turns / notes): evenly spread, the first one at turn 1.
    const attach: number[] = [];
    while (known < notes && 1 + Math.floor((known * turns) / notes) <= turn) attach.push(known++);
    const newNotes = attach.length;
    const earlier = known - newNotes;
    if (earlier > 0) {
      for (const step of [37, 101]) {
        let k = (turn * step) % earlier;
        if (attach.includes(k)) k = (k + 1) % earlier; // two distinct earlier notes whenever there are two
        if (!attach.includes(k)) attach.push(k);
      }
    }
    plan.push({ turn, attach, newNotes });
  }
  return plan;
}

/** Deterministic user text for a turn (~100 characters). */
export function growthUserText(turn: number, title: string): string {
  return `Turn ${turn}: looking at "${title}", what should I keep in mind, and how does it relate to what we said before?`;
}

/** Deterministic reply (~`length` characters): a window of corpus text chosen by the turn number. */
export function growthReply(turn: number, source: string, length = 600): string {
  if (source.length <= length) return source;
  const start = (turn * 7919) % (source.length - length);
  return source.slice(start, start + length);
}
