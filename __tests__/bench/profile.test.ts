import { hotFunctions, type CpuProfile } from '../../bench/growth/profile';
import { packageOf } from '../../bench/plugin/bundleBreakdown';

describe('CPU profile summary', () => {
  const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1) },
      { id: 2, callFrame: frame('combineHashes', 'file:///work/main/src/core/hash.ts', 11) },
      { id: 3, callFrame: frame('assemble', 'file:///work/main/src/core/engine/engine.ts', 170) },
      { id: 4, callFrame: frame('(idle)', '', -1) },
      { id: 5, callFrame: frame('dispatch', '', -1) },
      { id: 7, callFrame: frame('bytePairMerge', 'file:///work/main/node_modules/js-tiktoken/dist/lite.cjs', 16) },
      { id: 8, callFrame: frame('RegExp: ' + 'x'.repeat(100), '', -1) },
      // The same function reached through another call path: a separate node, summed.
      { id: 6, callFrame: frame('combineHashes', 'file:///work/main/src/core/hash.ts', 11) },
    ],
    samples: [2, 3, 2, 4, 5, 6, 7, 8],
    timeDeltas: [100, 100, 100, 5000, 5000, 200, 50, 50],
  };

  test('self time per function, summed over call sites, idle and profiler frames left out', () => {
    const hot = hotFunctions(profile);
    expect(hot.map((h) => h.name.slice(0, 13))).toEqual(['combineHashes', 'assemble', 'RegExp: xxxxx', 'bytePairMerge']);
    // TypeScript files are named without (transpiled, misleading) line numbers; JavaScript keeps them.
    expect(hot[0]).toMatchObject({ name: 'combineHashes', where: 'core/hash.ts', selfMs: 0.4 });
    expect(hot[0].share).toBeCloseTo(400 / 600);
    expect(hot.find((h) => h.name === 'bytePairMerge')?.where).toBe('dist/lite.cjs:17');
    expect(hot[2].name.length).toBeLessThanOrEqual(48);
    expect(hot[2].where).toBe('(native)');
  });

  test('an empty profile has no hot functions', () => {
    expect(hotFunctions({ nodes: [] })).toEqual([]);
  });

  test('bundle inputs are grouped by package', () => {
    expect(packageOf('node_modules/js-tiktoken/dist/lite.cjs')).toBe('js-tiktoken');
    expect(packageOf('node_modules/@langchain/core/dist/messages/base.js')).toBe('@langchain/core');
    expect(packageOf('node_modules/a/node_modules/zod/lib/index.js')).toBe('zod');
    expect(packageOf('src/core/engine/engine.ts')).toBe('src (Strata)');
  });
});
