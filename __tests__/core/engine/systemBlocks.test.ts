import { placeCacheBreakpoints } from '../../../src/core/compiler/cacheBreakpoints';
import { systemMessage } from '../../../src/core/engine/systemBlocks';

const lib = (chunks: string[][]) => ({ open: ['<context_library>'], chunks, close: ['</context_library>'] });

describe('systemMessage (the system message as stable blocks)', () => {
  it('is one block without carried items, its parts and content as before', () => {
    const m = systemMessage(['rules', 'instruction'], [lib([])]);
    expect(m).toEqual({ role: 'system', content: 'rules\n\ninstruction', parts: ['rules', 'instruction'] });
  });

  it('sends each chunk as a block, the close tag after the anchor, and the blocks make up the content', () => {
    const m = systemMessage(['rules', 'instruction'], [lib([['a1', 'a2'], ['b1']])]);
    expect(m.content).toBe(['rules', 'instruction', '<context_library>', 'a1', 'a2', 'b1', '</context_library>'].join('\n\n'));
    expect(m.blocks).toEqual(['rules\n\ninstruction\n\n', '<context_library>\n\na1\n\na2\n\n', 'b1\n\n', '</context_library>']);
    expect(m.blocks!.join('')).toBe(m.content);
    expect(m.anchors).toEqual([2]);
  });

  it('extends byte for byte when a chunk is appended: the earlier blocks stay, the anchor moves to the new end', () => {
    const a = systemMessage(['rules'], [lib([['a1'], ['b1']])]);
    const b = systemMessage(['rules'], [lib([['a1'], ['b1'], ['c1', 'c2']])]);
    expect(b.blocks!.slice(0, a.anchors![0] + 1)).toEqual(a.blocks!.slice(0, a.anchors![0] + 1));
    expect(b.anchors).toEqual([3]);
  });

  it('anchors every growing part (a later stable part, such as a condensed-library block, gets its own)', () => {
    const m = systemMessage(['rules'], [lib([['a1']]), { open: ['<compact>'], chunks: [['x'], ['y']], close: ['</compact>'] }]);
    expect(m.blocks).toEqual(['rules\n\n', '<context_library>\n\na1\n\n', '</context_library>\n\n<compact>\n\nx\n\n', 'y\n\n', '</compact>']);
    expect(m.anchors).toEqual([1, 3]);
    expect(m.blocks!.join('')).toBe(m.content);
  });
});

describe('placeCacheBreakpoints with anchors', () => {
  const system = systemMessage(['rules'], [lib([['a1'], ['b1']])]);
  it('puts the system breakpoint on the anchor, then the history and the turn', () => {
    const bps = placeCacheBreakpoints([system, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q2' }]);
    expect(bps).toEqual([
      { messageIndex: 0, block: 2, reason: 'library' },
      { messageIndex: 2, reason: 'history' },
      { messageIndex: 3, reason: 'turn' },
    ]);
  });

  it('never places more than four: the latest anchors are kept', () => {
    const many = { ...system, anchors: [1, 2, 3] , blocks: ['r', 'a', 'b', 'c', 'd'] };
    const bps = placeCacheBreakpoints([many, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q2' }]);
    expect(bps).toHaveLength(4);
    expect(bps.slice(0, 2)).toEqual([
      { messageIndex: 0, block: 2, reason: 'library' },
      { messageIndex: 0, block: 3, reason: 'library' },
    ]);
  });

  it('puts a spare breakpoint 20 blocks before the anchor, so a compaction that carried more than 20 turns still finds the previous one', () => {
    const chunks = Array.from({ length: 30 }, (_, i) => [`item ${i}`]);
    const big = systemMessage(['rules'], [lib(chunks)]);
    expect(big.anchors).toEqual([30]);
    const bps = placeCacheBreakpoints([big, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q2' }]);
    expect(bps.slice(0, 2)).toEqual([
      { messageIndex: 0, block: 10, reason: 'library' },
      { messageIndex: 0, block: 30, reason: 'library' },
    ]);
    expect(bps).toHaveLength(4);
  });

  it('keeps the single system breakpoint for a one-block system message', () => {
    expect(placeCacheBreakpoints([{ role: 'system', content: 's' }, { role: 'user', content: 'q' }])).toEqual([
      { messageIndex: 0, reason: 'system' },
      { messageIndex: 1, reason: 'turn' },
    ]);
  });
});
