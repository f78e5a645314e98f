import { runSteps, note } from '../../helpers/engineHarness';

const SPEC = 'Piano Lessons/project-spec.md';
const API = 'Piano Lessons/api-docs.md';

// The seed document's worked example (turns 1-3), on the envelope's layers.
describe('the seed example: project-spec then api-docs then project-spec only', () => {
  it('moves items into the cumulative library and references them by id', async () => {
    const [t1, t2, t3] = await runSteps([
      { user: 'Summarize this', chips: [note(SPEC)] },
      { user: "What's the API?", chips: [note(SPEC), note(API)] },
      { user: 'Explain that', chips: [note(SPEC)] },
    ]);

    // Turn 1: L2 empty, project-spec in full in L3.
    const e1 = t1.assembly.envelope;
    expect(e1.layers.L2.segments).toHaveLength(0);
    expect(e1.layers.L3.segments.map((s) => s.type)).toEqual(['item']);
    expect(e1.full).toEqual([`${SPEC}@1`]);
    expect(e1.referenced).toEqual([]);
    expect(e1.layers.L5.segments[0].text).toBe('Summarize this');

    // Turn 2: L2 holds project-spec in full; L3 references it and carries api-docs in full.
    const e2 = t2.assembly.envelope;
    expect(e2.layers.L2.segments.map((s) => s.item.id)).toEqual([SPEC]);
    expect(e2.layers.L2.segments[0].text).toContain('Build a practice tracker for piano lessons.');
    expect(e2.referenced).toEqual([SPEC]);
    expect(e2.full).toEqual([`${API}@1`]);
    const refs = e2.layers.L3.segments.find((s) => s.type === 'references');
    expect(refs?.text).toContain(`- ${SPEC}`);
    expect(refs?.text).not.toContain('Build a practice tracker');

    // Turn 3: L2 holds both (stable: turn 2's L2 is its prefix); L3 only references.
    const e3 = t3.assembly.envelope;
    expect(e3.layers.L2.segments.map((s) => s.item.id)).toEqual([SPEC, API]);
    expect(e3.layers.L2.segments[0].hash).toBe(e2.layers.L2.segments[0].hash);
    expect(e3.layers.L3.segments.map((s) => s.type)).toEqual(['references']);
    expect(e3.referenced).toEqual([SPEC]);
    expect(e3.full).toEqual([]);

    // L4 is raw: no context blocks in earlier messages.
    for (const s of e3.layers.L4.segments) expect(s.text).not.toMatch(/<(note|url|selection|folder|tag)_context|<context_refs/);
    expect(e3.layers.L4.segments.map((s) => `${s.type === 'message' ? s.role : s.type}:${s.text}`)).toEqual([
      'user:Summarize this',
      'assistant:reply 1',
      "user:What's the API?",
      'assistant:reply 2',
    ]);
  });

  it('default rendering sends each item once and every request extends the previous one', async () => {
    const turns = await runSteps([
      { user: 'Summarize this', chips: [note(SPEC)] },
      { user: "What's the API?", chips: [note(SPEC), note(API)] },
      { user: 'Explain that', chips: [note(SPEC)] },
    ]);
    const last = turns[2].assembly.messages;
    const all = last.map((m) => m.content).join('\n');
    expect(all.split('Build a practice tracker').length - 1).toBe(1);
    expect(all.split('creates a session').length - 1).toBe(1);
    for (let i = 1; i < turns.length; i++) {
      const prev = [...turns[i - 1].assembly.messages, { role: 'assistant', content: turns[i - 1].reply }];
      expect(turns[i].assembly.messages.slice(0, prev.length)).toEqual(prev);
      expect(turns[i].assembly.prefixChange).toBeNull();
    }
    // System message holds L1 and the library instruction, never library content.
    expect(last[0].role).toBe('system');
    expect(last[0].content).not.toContain('Build a practice tracker');
  });

  it('seed rendering puts L1 + L2 in the system message and L3 + L5 in the user message', async () => {
    const turns = await runSteps(
      [
        { user: 'Summarize this', chips: [note(SPEC)] },
        { user: "What's the API?", chips: [note(SPEC), note(API)] },
      ],
      { rendering: 'seed' },
    );
    const [system, ...rest] = turns[1].assembly.messages;
    expect(system.content).toContain('<context_library>');
    expect(system.content).toContain('Build a practice tracker');
    expect(system.content).not.toContain('creates a session');
    const user = rest[rest.length - 1];
    expect(user.role).toBe('user');
    expect(user.content.indexOf('creates a session')).toBeLessThan(user.content.indexOf("What's the API?"));
    expect(user.content).toContain(`- ${SPEC}`);
    expect(rest.slice(0, -1).map((m) => m.content)).toEqual(['Summarize this', 'reply 1']);
    expect(turns[1].assembly.prefixChange?.reason).toBe('library-grew');
  });
});
