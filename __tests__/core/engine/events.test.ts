import { DEFAULT_MASKING } from '../../../src/core/engine/masking';
import { makeItem } from '../../../src/core/context/items';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import type { PromptFragment } from '../../../src/core/engine/types';
import { promptFragments } from '../../../src/core/systemPrompt';

const note = (id: string, content: string) => makeItem({ id, kind: 'note', title: id, source: id, content });
const FRAGMENTS = promptFragments();

function input(userText: string, items = [] as ReturnType<typeof note>[], extra: Partial<TurnInput> = {}): TurnInput {
  return { userText, items, fragments: FRAGMENTS, model: 'gpt-4o', ...extra };
}

function turn(engine: PromptContextEngine, i: TurnInput, reply = 'ok') {
  const assembly = engine.assemble(i);
  engine.commit(assembly, reply);
  return assembly;
}

describe('prefix changes are named', () => {
  it('extends by default', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one', [note('a.md', 'A')]));
    expect(turn(engine, input('two', [note('a.md', 'A'), note('b.md', 'B')])).prefixChange).toBeNull();
  });

  it('settings change', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one'));
    const memory: PromptFragment[] = promptFragments({ memory: 'I play piano.' });
    expect(turn(engine, input('two', [], { fragments: memory })).prefixChange).toMatchObject({ reason: 'settings-changed', detail: expect.stringContaining('memory') });
  });

  it('model switch, even when the text is the same', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one'));
    expect(turn(engine, input('two', [], { model: 'gpt-4.1' })).prefixChange?.reason).toBe('model-switch');
  });

  it('dynamic fragments travel with the turn and do not break the prefix', () => {
    const engine = new PromptContextEngine();
    const dyn = (text: string): PromptFragment[] => [...FRAGMENTS, { id: 'active-note', lifecycle: 'dynamic', text }];
    turn(engine, input('one', [], { fragments: dyn('Active note: a.md') }));
    const second = turn(engine, input('two', [], { fragments: dyn('Active note: b.md') }));
    expect(second.prefixChange).toBeNull();
    expect(second.messages[0].content).not.toContain('Active note');
    expect(second.messages[1].content).toContain('Active note: a.md');
    expect(second.messages[3].content).toContain('Active note: b.md');
  });

  it('library item removed, then compaction, then truncation', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one', [note('a.md', 'A1'), note('b.md', 'B')]));
    turn(engine, input('two', [note('a.md', 'A2')]));
    expect(engine.removeFromLibrary('b.md')).toBe(true);
    expect(engine.removeFromLibrary('b.md')).toBe(false);
    const removed = turn(engine, input('three'));
    expect(removed.prefixChange).toMatchObject({ reason: 'library-item-removed', detail: expect.stringContaining('b.md') });
    expect(removed.envelope.removed).toEqual(['b.md']);
    expect(removed.messages.map((m) => m.content).join()).not.toContain('\nB\n');

    engine.condense({ through: 2, kind: 'summary', text: 'They compared a and b.', maskedThrough: 3, masking: DEFAULT_MASKING });
    const compacted = turn(engine, input('four'));
    expect(compacted.prefixChange).toMatchObject({ reason: 'condensed', detail: expect.stringContaining('turns 1-2') });
    // The library keeps every version; the carried block after L1 holds a.md's latest only (a.md@1 is superseded).
    expect(compacted.envelope.layers.L2.segments.map((s) => `${s.item.id}@${s.item.version}`)).toEqual(['a.md@1', 'a.md@2']);
    expect(compacted.messages[0].content).toContain('\nA2\n');
    expect(compacted.messages.map((m) => m.content).join()).not.toContain('\nA1\n');
    expect(compacted.messages[1].content).toMatch(/^<conversation_summary turns="2" kind="summary">[\s\S]*They compared a and b\.[\s\S]*three$/);

    engine.truncate(2);
    const truncated = engine.assemble(input('three again'));
    expect(truncated.prefixChange?.reason).toBe('history-edited');
    expect(truncated.envelope.turn).toBe(3);
  });

  it('rendering switch', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one', [note('a.md', 'A')]));
    engine.setRendering('seed');
    expect(turn(engine, input('two')).prefixChange?.reason).toBe('rendering-changed');
  });

  it('a restored engine extends the saved request; a note edited while closed is named', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one', [note('a.md', 'A')]));
    const state = engine.snapshot();
    const reloaded = PromptContextEngine.restore(JSON.parse(JSON.stringify(state)) as typeof state);
    const next = turn(reloaded, input('two'));
    expect(next.prefixChange).toBeNull();
    expect(next.messages).toEqual(turn(engine, input('two')).messages);

    const edited = PromptContextEngine.restore(
      { ...state, library: state.library.map((item) => ({ ...item, content: 'A edited', hash: note('a.md', 'A edited').hash })) },
      {},
      ['a.md'],
    );
    expect(turn(edited, input('two')).prefixChange).toMatchObject({ reason: 'note-edited', detail: expect.stringContaining('a.md') });
  });

  it('refuses to commit a turn out of order', () => {
    const engine = new PromptContextEngine();
    const a = engine.assemble(input('one'));
    engine.commit(a, 'ok');
    expect(() => engine.commit(a, 'again')).toThrow(/cannot commit turn 1/);
  });

  it('a failed request changes nothing: assembling again gives the same request', () => {
    const engine = new PromptContextEngine();
    turn(engine, input('one', [note('a.md', 'A')]));
    const first = engine.assemble(input('two', [note('b.md', 'B')]));
    const retry = engine.assemble(input('two', [note('b.md', 'B')]));
    expect(retry.messages).toEqual(first.messages);
    expect(retry.envelope.full).toEqual(['b.md@1']);
  });
});

describe('freshness policies', () => {
  const run = (policy: 'fresh' | 'fresh-attached' | 'stable') => {
    const engine = new PromptContextEngine({ freshness: policy });
    turn(engine, input('one', [note('a.md', 'A1'), note('b.md', 'B1'), note('c.md', 'C')]));
    const current = new Map([
      ['b.md', note('b.md', 'B2')],
      ['c.md', null],
    ]);
    return engine.assemble(input('two', [note('a.md', 'A2')], { current }));
  };

  it('fresh: sends new versions of attached and library notes, appended', () => {
    const a = run('fresh');
    expect(a.envelope.full).toEqual(['a.md@2', 'b.md@2']);
    expect(a.envelope.freshness.map((f) => `${f.id}:${f.status}`)).toEqual(['a.md:updated', 'b.md:updated', 'c.md:missing-kept']);
    expect(a.prefixChange).toBeNull();
    expect(a.messages[a.messages.length - 1].content).toContain('version="2"');
  });

  it('fresh-attached: only attached notes are refreshed; others reported stale', () => {
    const a = run('fresh-attached');
    expect(a.envelope.full).toEqual(['a.md@2']);
    expect(a.envelope.freshness.map((f) => `${f.id}:${f.status}`)).toEqual(['a.md:updated', 'b.md:stale-kept', 'c.md:missing-kept']);
  });

  it('stable: keeps library copies and references them, reporting staleness', () => {
    const a = run('stable');
    expect(a.envelope.full).toEqual([]);
    expect(a.envelope.referenced).toEqual(['a.md']);
    expect(a.envelope.freshness.map((f) => `${f.id}:${f.status}`)).toEqual(['a.md:stale-kept', 'b.md:stale-kept', 'c.md:missing-kept']);
  });
});
