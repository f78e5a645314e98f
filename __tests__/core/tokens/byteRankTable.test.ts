import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { byteHash, ByteRankTable } from '../../../src/core/tokens/byteRankTable';

/*
 * The byte table the counter looks ranks up in (issue 30: unpacked from the bundle without a string
 * or Map entry per token). Its answers must be a Map's: every token found with its rank, nothing
 * else found, entries whose hashes collide told apart by their bytes, a later equal entry winning.
 */

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Ranks 0-255: the single bytes, as every table starts. */
function singles(capacity: number): ByteRankTable {
  const table = new ByteRankTable(capacity);
  for (let b = 0; b < 256; b++) table.addByte(b);
  return table;
}

describe('the byte rank table', () => {
  it('finds every rank of js-tiktoken\'s o200k_base table by its bytes, and only those', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's table module
    const ranks = require('js-tiktoken/ranks/o200k_base') as TiktokenBPE;
    const reference = new Tiktoken(ranks) as unknown as { rankMap: Map<string, number>; textMap: Map<number, Uint8Array> };
    const table = ByteRankTable.ofRankMap(reference.rankMap);
    expect(table.size).toBe(reference.rankMap.size);
    let wrong = 0;
    for (const [rank, token] of reference.textMap) if (table.rank(token, 0, token.length) !== rank) wrong++;
    expect(wrong).toBe(0);
    // The longest token, and that token with a byte more (no token), read in the middle of a larger array.
    const longest = [...reference.textMap].reduce((a, b) => (b[1].length > a[1].length ? b : a));
    const around = bytes(7, ...longest[1], 0xff);
    expect(table.maxTokenBytes).toBe(longest[1].length);
    expect(table.rank(around, 1, longest[1].length + 1)).toBe(longest[0]);
    expect(table.rank(around, 1, longest[1].length + 2)).toBe(-1);
    expect(table.rank(bytes(0xff, 0xfe), 0, 2)).toBe(-1); // no UTF-8 text holds these: only the single bytes are tokens
  });

  it('joined entries are the bytes of their parts, in a slice of any array, past 256 bytes too', () => {
    const table = singles(300);
    table.addJoined(97, 97); // 256: "aa"
    for (let k = 0; k < 8; k++) table.addJoined(256 + k, 256 + k); // 257 … 264: "a" × 4 … × 512
    table.addJoined(32, 264); // 265: " " + "a" × 512
    const text = utf8(`x ${'a'.repeat(512)}y`);
    expect(table.rank(text, 1, 514)).toBe(265);
    expect(table.rank(text, 2, 514)).toBe(264);
    expect(table.rank(text, 2, 258)).toBe(263);
    expect(table.rank(text, 2, 257)).toBe(-1);
    expect(table.maxTokenBytes).toBe(513);
    expect(table.keyOf(256)).toBe('aa');
    expect([...table.bytesOf(265).subarray(0, 3)]).toEqual([32, 97, 97]);
    expect([table.first(265), table.last(265)]).toEqual([32, 97]);
  });

  it('tells apart entries whose hashes are the same', () => {
    // Six random bytes until two differ with one hash (a birthday search: some 80,000 tries).
    let seed = 30;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    const seen = new Map<number, Uint8Array>();
    let pair: [Uint8Array, Uint8Array] | null = null;
    while (!pair) {
      const candidate = bytes(next(), next(), next(), next(), next(), next());
      const hash = byteHash(candidate, 0, 6);
      const other = seen.get(hash);
      if (other && other.join() !== candidate.join()) pair = [other, candidate];
      seen.set(hash, candidate);
    }
    const [first, second] = pair;
    const table = new ByteRankTable(2);
    table.addBytes(first, 0, 6, 7);
    expect(table.rank(second, 0, 6)).toBe(-1);
    table.addBytes(second, 0, 6, 9);
    expect(table.rank(first, 0, 6)).toBe(7);
    expect(table.rank(second, 0, 6)).toBe(9);
  });

  it('a later entry with the same bytes takes the rank, as a later Map.set does (before and after the first lookup)', () => {
    const table = new ByteRankTable(4);
    table.addBytes(utf8('ab'), 0, 2, 1);
    table.addBytes(utf8('ab'), 0, 2, 5);
    expect(table.rank(utf8('ab'), 0, 2)).toBe(5);
    table.addBytes(utf8('ab'), 0, 2, 8);
    expect(table.rank(utf8('ab'), 0, 2)).toBe(8);
    expect(table.rank(utf8('a'), 0, 1)).toBe(-1);
  });

  it('refuses more entries than it was made for', () => {
    const table = new ByteRankTable(1);
    table.addByte(1);
    expect(() => table.addByte(2)).toThrow(/more tokens/);
  });
});
