import fc from 'fast-check';
import type { ContextChip } from '../../../src/core/context/items';
import { note, runSteps, type StepSpec } from '../../helpers/engineHarness';
import type { Rendering } from '../../../src/core/settings/engineChoices';
import type { ReplayedTurn } from '../../../src/core/scenario/replay';

const NOTES = ['Piano Lessons/project-spec.md', 'Piano Lessons/api-docs.md', 'Piano Lessons/Lesson 4.md', 'Notes/Ideas.md', 'Notes/Deep/Tricky.md'];
const CHIPS: ContextChip[] = [
  ...NOTES.map(note),
  { kind: 'selection', path: 'Piano Lessons/Lesson 4.md', fromLine: 5, toLine: 7 },
  { kind: 'selection', path: 'Piano Lessons/Lesson 4.md', fromLine: 8, toLine: 10 },
  { kind: 'folder', path: 'Piano Lessons' },
  { kind: 'tag', tag: '#piano' },
  { kind: 'url', url: 'https://example.org/a', content: 'Page A </url_context> text' },
  { kind: 'note', path: 'Missing/Nowhere.md' },
];
const ADVERSARIAL = ['</note_context>', '<note_context id="x">', '<context_refs>', '-->', '---', '## assistant', '</tool_output>', '<|endoftext|>'];

const step: fc.Arbitrary<StepSpec> = fc.record({
  user: fc.constantFrom('Why?', 'Explain.', 'Compare them.', 'And now?'),
  chips: fc.subarray(CHIPS, { maxLength: 4 }),
  edits: fc.array(
    fc.record({ note: fc.constantFrom(...NOTES), append: fc.oneof(fc.constantFrom(...ADVERSARIAL), fc.string({ maxLength: 20 })) }),
    { maxLength: 1 },
  ),
  remove: fc.subarray(NOTES, { maxLength: 1 }),
  tools: fc.array(fc.record({ name: fc.constantFrom('localSearch', 'webSearch'), input: fc.string({ maxLength: 8 }), output: fc.constantFrom('ok', '</tool_output>x') }), { maxLength: 1 }),
});
const trajectory = fc.array(step, { minLength: 1, maxLength: 7 });
const rendering = fc.constantFrom<Rendering>('transcript', 'seed');

const key = (item: { id: string; version: number }) => `${item.id}@${item.version}`;
const WRAPPER_OPEN = /<(note|url|selection|folder|tag)_context /g;
const WRAPPER_CLOSE = /<\/(note|url|selection|folder|tag)_context>/g;

function check(turns: ReplayedTurn[], steps: StepSpec[], mode: Rendering): void {
  turns.forEach(({ assembly }, i) => {
    const { envelope } = assembly;
    const l2 = envelope.layers.L2.segments.map((s) => key(s.item));
    expect(new Set(l2).size).toBe(l2.length); // no duplicate id@version in L2
    const l3Ids: string[] = [];
    for (const s of envelope.layers.L3.segments) {
      if (s.type === 'item') l3Ids.push(s.item.id);
      if (s.type === 'references') l3Ids.push(...s.ids);
    }
    expect(new Set(l3Ids).size).toBe(l3Ids.length); // no duplicate id within L3
    const l2Ids = new Set(envelope.layers.L2.segments.map((s) => s.item.id));
    for (const id of envelope.referenced) expect(l2Ids.has(id)).toBe(true); // references name L2 items
    for (const s of envelope.layers.L4.segments) expect(s.text).not.toMatch(WRAPPER_OPEN); // L4 is raw

    // Escaping: the only wrapper openings in what is sent are the engine's own.
    const sent = assembly.messages.map((m) => m.content).join('\n');
    // Both renderings send every library version once (transcript: in its turn's message; seed: in
    // the system message) and this turn's new items in the last message.
    const opened = (sent.match(WRAPPER_OPEN) ?? []).length;
    const closed = (sent.match(WRAPPER_CLOSE) ?? []).length;
    const expected = l2.length + envelope.full.length;
    expect(opened).toBe(expected);
    expect(closed).toBe(expected);

    if (i + 1 < turns.length) {
      const next = turns[i + 1].assembly;
      const removedBeforeNext = (steps[i + 1].remove ?? []).some((id) => l2Ids.has(id) || envelope.full.some((f) => f.startsWith(`${id}@`)));
      const nextL2 = next.envelope.layers.L2.segments.map((s) => key(s.item));
      if (!removedBeforeNext) {
        // Cumulative library: this turn's L2 plus what it added is a prefix of the next L2.
        expect(nextL2.slice(0, l2.length)).toEqual(l2);
        expect(nextL2.slice(l2.length, l2.length + envelope.full.length)).toEqual([...envelope.full]);
        if (mode === 'transcript') {
          expect(next.prefixChange).toBeNull();
          const prev = [...assembly.messages, { role: 'assistant', content: turns[i].reply }];
          expect(next.messages.slice(0, prev.length)).toEqual(prev);
        }
      } else {
        expect(next.prefixChange?.reason).toBe('library-item-removed');
      }
    }
  });
}

describe('engine properties over random trajectories', () => {
  it('holds the layer invariants, escaping and the append-only prefix', async () => {
    await fc.assert(
      fc.asyncProperty(trajectory, rendering, async (steps, mode) => {
        const turns = await runSteps(steps, { rendering: mode });
        check(turns, steps, mode);
      }),
      { numRuns: 120 },
    );
  });

  it('renders byte-identical output for identical inputs', async () => {
    await fc.assert(
      fc.asyncProperty(trajectory, rendering, async (steps, mode) => {
        const a = await runSteps(steps, { rendering: mode });
        const b = await runSteps(steps, { rendering: mode });
        expect(JSON.stringify(b.map((t) => [t.assembly.messages, t.assembly.prefixHash, t.assembly.envelope.layers]))).toBe(
          JSON.stringify(a.map((t) => [t.assembly.messages, t.assembly.prefixHash, t.assembly.envelope.layers])),
        );
      }),
      { numRuns: 40 },
    );
  });

  it('sends every library version exactly once in the transcript rendering', async () => {
    await fc.assert(
      fc.asyncProperty(trajectory, async (steps) => {
        const turns = await runSteps(steps.map((s) => ({ ...s, remove: [] })));
        const last = turns[turns.length - 1].assembly;
        const sent = last.messages.map((m) => m.content).join('\n');
        const items = [...last.envelope.layers.L2.segments, ...last.envelope.layers.L3.segments.filter((s) => s.type === 'item')];
        for (const s of items) {
          expect(sent.split(s.text).length - 1).toBeGreaterThanOrEqual(1);
          const open = s.text.slice(0, s.text.indexOf('\n'));
          expect(sent.split(`${open}\n`).length - 1).toBe(1);
        }
      }),
      { numRuns: 60 },
    );
  });
});
