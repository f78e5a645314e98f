import fc from 'fast-check';
import { chunkStarts } from '../../../src/core/tokens/lineChunks';
import { linearEncoderFor, tokenCounterFor, warmTokenCounts } from '../../../src/core/tokens/tokenCounter';

/*
 * Long texts are counted by chunks (lineChunks.ts) so that counts made ahead of time, in slices
 * between frames, serve the engine's synchronous counts (issue 26, finding 1). The sum of the
 * chunks' counts is the text's count exactly, for both tokenizers.
 */

const LINE_STARTS = ['', ' ', '  ', '\t', '/', '//', '/x', 'a', 'A', '.', '-', '|', '#', '1', '漢', '😀', '\u00a0', "'s", '\r', '\n'];
const LINE_BODIES = ['', 'word', ' plan', '...', '/path/to', '  ', '| a | b |', "it's", '\u0301', '123456', '.\n/'];
const lineArb = fc.tuple(fc.constantFrom(...LINE_STARTS), fc.constantFrom(...LINE_BODIES), fc.constantFrom('\n', '\r\n', '\n\n', '\n  \n')).map((p) => p.join(''));
const textArb = fc.array(lineArb, { minLength: 1, maxLength: 400 }).map((lines) => lines.join(''));

describe('a long text counted by its chunks', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('gives exactly the count of the whole text (%s)', (encoding) => {
    const linear = linearEncoderFor(encoding);
    if (!linear) throw new Error('no linear encoder');
    fc.assert(
      fc.property(textArb, (text) => {
        const starts = chunkStarts(text);
        let sum = 0;
        starts.forEach((s, i) => (sum += linear.encode(text.slice(s, starts[i + 1] ?? text.length)).length));
        expect(sum).toBe(linear.encode(text).length);
      }),
      { numRuns: 300, seed: 126 },
    );
  });

  it('cuts a note the same way inside a wrapper, but for the chunks at its ends', () => {
    const note = Array.from({ length: 3000 }, (_, i) => `Line ${i}: the plan for bed ${i % 7}, with seeds.`).join('\n');
    const raw = new Set(chunkStarts(note).map((s, i, all) => note.slice(s, all[i + 1] ?? note.length)));
    const wrapped = `<note id="x" title="Plan">\n${note}\n</note>`;
    const inner = chunkStarts(wrapped).map((s, i, all) => wrapped.slice(s, all[i + 1] ?? wrapped.length));
    expect(inner.length).toBeGreaterThan(40);
    expect(inner.filter((c) => !raw.has(c)).length).toBeLessThanOrEqual(3);
  });

  it('warmTokenCounts pauses while it counts, and the engine then finds the counts', async () => {
    const text = `${Array.from({ length: 4000 }, (_, i) => `Row ${i} | ${'漢'.repeat(i % 13)} | ${' '.repeat(i % 40)}|`).join('\n')}\n${'a'.repeat(50_000)}\n`;
    const linear = linearEncoderFor('o200k_base');
    if (!linear) throw new Error('no linear encoder');
    let pauses = 0;
    await warmTokenCounts('gpt-4o', [text], () => {
      pauses++;
      return Promise.resolve();
    });
    expect(pauses).toBeGreaterThan(text.length / 20_000);
    const before = linear.lookups;
    const wrapped = `<note id="x">\n${text}</note>`;
    const n = tokenCounterFor('gpt-4o').count(wrapped);
    // Only the chunks at the wrapper's ends were encoded again.
    expect(linear.lookups - before).toBeLessThan(Buffer.byteLength(text) / 10);
    expect(n).toBe(linear.encode(wrapped).length);
  });
});
