import fc from 'fast-check';
import { applyReviewed } from '../../../src/core/edits/applyProposal';
import { joinLines, proposalOf, splitLines } from '../../../src/core/edits/lineDiff';
import type { HunkDecision, ReviewOutcome } from '../../../src/core/edits/proposal';
import { undoEdit } from '../../../src/core/edits/undo';

/**
 * Issue 28's promises, over random notes and random edit sequences: apply writes exactly the accepted
 * hunks, nothing the user wrote between proposal and apply is lost, undo gives back the exact bytes.
 * Lines come from a small alphabet so that repeated lines (the hard case for placing hunks) are common.
 */

const line = fc.constantFrom('', 'a', 'b', 'c', '# H', '- item', 'text with words', 'x\r');
const note = fc.array(line, { maxLength: 30 }).map(joinLines);

/** A random edit sequence of a note's lines: replace, insert, delete at random places. */
type Op = { at: number; del: number; ins: string[] };
const ops = (insLine: fc.Arbitrary<string>) =>
  fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 3 }), ins: fc.array(insLine, { maxLength: 3 }) }), { maxLength: 5 });

function edit(text: string, sequence: readonly Op[]): string {
  const lines = splitLines(text);
  for (const op of sequence) lines.splice(op.at % (lines.length + 1), op.del, ...op.ins);
  return joinLines(lines);
}

/** The user's lines carry a mark no model line has, so we can ask whether each survived. */
let userCounter = 0;
const userLine = fc.nat({ max: 1_000_000 }).map((n) => `USER ${n} ${userCounter++}`);

function decide(hunkIds: readonly string[], picks: readonly number[]): ReviewOutcome {
  const decisions: HunkDecision[] = hunkIds.map((hunkId, i) => {
    const pick = picks[i % Math.max(picks.length, 1)] ?? 0;
    if (pick === 0) return { hunkId, action: 'accept' };
    if (pick === 1) return { hunkId, action: 'reject' };
    return { hunkId, action: 'edit', editedLines: [`EDITED ${hunkId}`] };
  });
  return { decisions };
}

/** Reference: the base with the chosen hunks spliced in, written independently of applyReviewed. */
function reference(base: string, p: ReturnType<typeof proposalOf>, outcome: ReviewOutcome): string {
  const byId = new Map(outcome.decisions.map((d) => [d.hunkId, d]));
  const lines = splitLines(base);
  const out: string[] = [];
  let i = 0;
  for (const h of p.hunks) {
    while (i < h.baseStart) out.push(lines[i++]);
    const d = byId.get(h.id);
    if (d?.action === 'accept') out.push(...h.newLines);
    else if (d?.action === 'edit') out.push(...(d.editedLines ?? []));
    else out.push(...h.baseLines);
    i += h.baseLines.length;
  }
  while (i < lines.length) out.push(lines[i++]);
  return joinLines(out);
}

const RUNS = { numRuns: 400 };

describe('applyReviewed and undoEdit, random notes and edits', () => {
  it('on an unchanged note writes exactly the accepted and edited hunks, and undo restores the bytes', () => {
    fc.assert(
      fc.property(note, ops(line), fc.array(fc.nat({ max: 2 }), { maxLength: 8 }), (base, modelOps, picks) => {
        const p = proposalOf({ id: 'p', kind: 'edit', path: 'N.md', baseText: base, proposedText: edit(base, modelOps) });
        fc.pre(p.hunks.length > 0);
        const outcome = decide(p.hunks.map((h) => h.id), picks);
        const { text, result } = applyReviewed(base, p, outcome);
        expect(text).toBe(reference(base, p, outcome));
        expect(result.conflicts).toEqual([]);
        expect([...result.applied, ...result.rejected].sort()).toEqual(p.hunks.map((h) => h.id).sort());
        if (result.record) {
          const undo = undoEdit(text, result.record);
          expect(undo).toEqual({ kind: 'exact', text: base });
        }
      }),
      RUNS,
    );
  });

  it('all accepted gives the proposed text', () => {
    fc.assert(
      fc.property(note, ops(line), (base, modelOps) => {
        const proposed = edit(base, modelOps);
        const p = proposalOf({ id: 'p', kind: 'edit', path: 'N.md', baseText: base, proposedText: proposed });
        expect(applyReviewed(base, p, decide(p.hunks.map((h) => h.id), [0])).text).toBe(proposed);
      }),
      RUNS,
    );
  });

  it('with the user editing the note between proposal and apply, keeps every line the user wrote, and undo restores the bytes', () => {
    fc.assert(
      fc.property(note, ops(line), ops(userLine), fc.array(fc.nat({ max: 2 }), { maxLength: 8 }), (base, modelOps, userOps, picks) => {
        const p = proposalOf({ id: 'p', kind: 'edit', path: 'N.md', baseText: base, proposedText: edit(base, modelOps) });
        fc.pre(p.hunks.length > 0);
        const current = edit(base, userOps);
        const outcome = decide(p.hunks.map((h) => h.id), picks);
        const { text, result } = applyReviewed(current, p, outcome);
        for (const userWrote of splitLines(current).filter((l) => l.startsWith('USER '))) expect(splitLines(text)).toContain(userWrote);
        // Every hunk is accounted for once: written, rejected, or shown again.
        const accounted = [...result.applied, ...result.rejected, ...result.conflicts.map((h) => h.id)].sort();
        expect(accounted).toEqual(p.hunks.map((h) => h.id).sort());
        // What was written is exactly the applied hunks: rejected and conflicting hunks leave the current text.
        if (!result.record) expect(text).toBe(current);
        else expect(undoEdit(text, result.record)).toEqual({ kind: 'exact', text: current });
      }),
      RUNS,
    );
  });

  it('when the diff of the user\'s changes runs out of time, hunks found at one place apply and the user\'s lines stay', () => {
    fc.assert(
      fc.property(note, ops(line), ops(userLine), fc.array(fc.nat({ max: 2 }), { maxLength: 8 }), (base, modelOps, userOps, picks) => {
        const p = proposalOf({ id: 'p', kind: 'edit', path: 'N.md', baseText: base, proposedText: edit(base, modelOps) });
        fc.pre(p.hunks.length > 0);
        const current = edit(base, userOps);
        fc.pre(current !== base);
        const { text, result } = applyReviewed(current, p, decide(p.hunks.map((h) => h.id), picks), 0);
        for (const userWrote of splitLines(current).filter((l) => l.startsWith('USER '))) expect(splitLines(text)).toContain(userWrote);
        const accounted = [...result.applied, ...result.rejected, ...result.conflicts.map((h) => h.id)].sort();
        expect(accounted).toEqual(p.hunks.map((h) => h.id).sort());
        if (!result.record) expect(text).toBe(current);
        else expect(undoEdit(text, result.record)).toEqual({ kind: 'exact', text: current });
      }),
      RUNS,
    );
  });

  it('undo after the user edited again is a reverse proposal that keeps the later lines', () => {
    fc.assert(
      fc.property(note, ops(line), ops(userLine), (base, modelOps, userOps) => {
        const p = proposalOf({ id: 'p', kind: 'edit', path: 'N.md', baseText: base, proposedText: edit(base, modelOps) });
        const { text, result } = applyReviewed(base, p, decide(p.hunks.map((h) => h.id), [0]));
        if (!result.record) return;
        const later = edit(text, userOps);
        const undo = undoEdit(later, result.record);
        if (later === text) {
          expect(undo).toEqual({ kind: 'exact', text: base });
          return;
        }
        if (undo.kind !== 'proposal') return;
        const undone = applyReviewed(later, undo.proposal, decide(undo.proposal.hunks.map((h) => h.id), [0])).text;
        for (const userWrote of splitLines(later).filter((l) => l.startsWith('USER '))) expect(splitLines(undone)).toContain(userWrote);
        expect(undo.proposal.baseText).toBe(later);
      }),
      RUNS,
    );
  });
});

describe('applyReviewed, by example', () => {
  const base = 'title\n\nalpha\nbeta\ngamma\n\nend\n';
  const p = proposalOf({ id: 'p', kind: 'edit', path: 'N.md', baseText: base, proposedText: 'Title\n\nalpha\nbeta\nGAMMA\n\nend\n' });

  it('shifts a hunk past the user\'s lines and reports a touched one as a conflict', () => {
    const current = 'title changed by me\n\nmine\nalpha\nbeta\ngamma\n\nend\n';
    const { text, result } = applyReviewed(current, p, decide(['h1', 'h2'], [0]));
    expect(text).toBe('title changed by me\n\nmine\nalpha\nbeta\nGAMMA\n\nend\n');
    expect(result.status).toBe('partly-applied');
    expect(result.applied).toEqual(['h2']);
    expect(result.conflicts.map((h) => h.id)).toEqual(['h1']);
  });

  it('nothing chosen is a rejection, with the note untouched', () => {
    const { text, result } = applyReviewed(base, p, { decisions: [], reason: 'no' });
    expect(text).toBe(base);
    expect(result.status).toBe('rejected');
    expect(result.record).toBeUndefined();
  });

  it('a rename has one decision, "all"', () => {
    const r = proposalOf({ id: 'r', kind: 'rename', path: 'A.md', newPath: 'B/A.md', baseText: 'x', proposedText: 'x' });
    expect(applyReviewed('x', r, { decisions: [{ hunkId: 'all', action: 'accept' }] }).result.status).toBe('applied');
    expect(applyReviewed('x', r, { decisions: [{ hunkId: 'all', action: 'reject' }] }).result.status).toBe('rejected');
  });
});
