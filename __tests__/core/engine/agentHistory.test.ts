import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import { agentHistoryOf, foldSteps, toolStepsOf } from '../../../src/core/engine/agentHistory';
import { truncatedMarker } from '../../../src/core/engine/masking';
import type { ToolOutput } from '../../../src/core/engine/types';

/** An agent turn's record as the loop leaves it: a search step, a read step, then the answering call. */
const RECORD = {
  stop: 'answered',
  steps: [
    { text: '', calls: [{ id: 'call_1', name: 'localSearch', args: { query: 'vents', limit: 3 }, isError: false }] },
    { text: 'Reading it.', calls: [{ id: 'call_2', name: 'readNote', args: { path: 'Vent.md' }, isError: false }] },
    { text: '', calls: [] },
  ],
};
const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the note`).join('\n');
const TOOLS: ToolOutput[] = [
  { name: 'localSearch', input: '{"limit":3,"query":"vents"}', output: '1. Vent.md' },
  { name: 'readNote', input: '{"path":"Vent.md"}', output: long },
];
const fragments = [{ id: 'system', lifecycle: 'static' as const, text: 'Be brief.' }];
const input = (userText: string, tools: ToolOutput[] = []): TurnInput => ({ userText, items: [], tools, fragments, model: 'gpt-4o' });

describe('agent history (native tool messages)', () => {
  it('keeps only answered turns with calls, and rebuilds each step with its results in call order', () => {
    expect(agentHistoryOf({ ...RECORD, stop: 'step-limit' })).toBeUndefined();
    expect(agentHistoryOf({ stop: 'answered', steps: [{ text: 'x', calls: [] }] })).toBeUndefined();
    const history = agentHistoryOf(RECORD)!;
    expect(history.steps).toHaveLength(2);
    const steps = toolStepsOf(history, [{ name: 'earlier', input: '', output: 'a search block' }, ...TOOLS])!;
    expect(steps).toEqual([
      { text: '', calls: [{ id: 'call_1', name: 'localSearch', args: { query: 'vents', limit: 3 } }], results: [{ callId: 'call_1', name: 'localSearch', content: '1. Vent.md', isError: false }] },
      { text: 'Reading it.', calls: [{ id: 'call_2', name: 'readNote', args: { path: 'Vent.md' } }], results: [{ callId: 'call_2', name: 'readNote', content: long, isError: false }] },
    ]);
    // Outputs that are not the calls' own (a hand-edited note): no native steps.
    expect(toolStepsOf(history, [TOOLS[1], TOOLS[0]])).toBeNull();
    expect(toolStepsOf(history, [TOOLS[1]])).toBeNull();
  });

  it('the next request extends the loop\'s first one: the user message as sent, the reply after its steps; counted; reopened alike', () => {
    const engine = new PromptContextEngine();
    const sent = engine.assemble(input('Which vents?'));
    const recorded = engine.assemble(input('Which vents?', TOOLS));
    engine.commit(recorded, 'Wax openers.', { history: agentHistoryOf(RECORD)!, sent });
    const next = engine.assemble(input('And storms?'));
    expect(next.prefixChange).toBeNull();
    expect(next.messages.slice(0, sent.messages.length)).toEqual(sent.messages);
    const reply = next.messages[sent.messages.length];
    expect(reply).toMatchObject({ role: 'assistant', content: 'Wax openers.' });
    expect(reply.steps?.map((s) => s.results.map((r) => r.content))).toEqual([['1. Vent.md'], [long]]);
    // The steps count: the request is larger than the same chat without them by about the outputs.
    const plain = new PromptContextEngine();
    plain.commit(plain.assemble(input('Which vents?')), 'Wax openers.');
    expect(next.promptTokens - plain.assemble(input('And storms?')).promptTokens).toBeGreaterThan(200);
    // Restored from its state (as a reopened chat is), the engine assembles the same request.
    const restored = PromptContextEngine.restore(engine.snapshot()).assemble(input('And storms?'));
    expect(restored.messages).toEqual(next.messages);
    expect(restored.promptTokens).toBe(next.promptTokens);
  });

  it('a compaction masks the steps\' results as it masks tool outputs', () => {
    const engine = new PromptContextEngine();
    const sent = engine.assemble(input('Which vents?'));
    engine.commit(engine.assemble(input('Which vents?', TOOLS)), 'Wax openers.', { history: agentHistoryOf(RECORD)!, sent });
    engine.commit(engine.assemble(input('Thanks.')), 'You are welcome.');
    engine.condense({ through: 0, kind: 'summary', text: '', maskedThrough: 2, masking: { maxOutputLines: 6, maxCodeLines: 500 } });
    const next = engine.assemble(input('And storms?'));
    const reply = next.messages.find((m) => m.steps);
    const read = reply!.steps![1].results[0].content;
    expect(read).toContain(truncatedMarker(36));
    expect(read.split('\n')).toHaveLength(5);
  });

  it('folds steps back into the user message as blocks for a request without tools', () => {
    const steps = toolStepsOf(agentHistoryOf(RECORD)!, TOOLS)!;
    const folded = foldSteps([
      { role: 'user', content: 'Which vents?' },
      { role: 'assistant', content: 'Wax openers.', steps },
      { role: 'user', content: 'And storms?' },
    ]);
    expect(folded.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(folded[0].content.startsWith('Which vents?\n\n<tool_output')).toBe(true);
    expect(folded[0].content).toContain('line 40 of the note');
    expect(folded[1]).toEqual({ role: 'assistant', content: 'Wax openers.' });
  });
});
