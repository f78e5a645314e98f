import { keptTextChars, sha256HexKept } from '../../src/core/contentHashes';
import { sha256TextHex } from '../../src/core/sha256Text';

/** The same text as another string object (as a note read again, or a message decoded again, is). */
const copyOf = (text: string) => [...text].join('');

describe('sha256HexKept', () => {
  it('gives sha256TextHex\'s digest for short, long, new and found-again texts', () => {
    const texts = ['', 'abc', 'x'.repeat(63), 'x'.repeat(64), `Reply 1. ${'Here is what the note says. '.repeat(20)}`, '漢字 🙂 '.repeat(500)];
    for (const text of texts) {
      expect(sha256HexKept(text)).toBe(sha256TextHex(text));
      expect(sha256HexKept(copyOf(text))).toBe(sha256TextHex(text));
    }
  });

  it('keeps at most 8 M characters of text, dropping the oldest, and still gives the right digests after', () => {
    const first = `first ${'a'.repeat(300_000)}`;
    const digest = sha256HexKept(first);
    for (let i = 0; i < 70; i++) {
      const text = `${i} ${'b'.repeat(300_000)}`;
      expect(sha256HexKept(text)).toBe(sha256TextHex(text));
      expect(keptTextChars()).toBeLessThanOrEqual(8 * 1024 * 1024);
    }
    expect(sha256HexKept(copyOf(first))).toBe(digest);
    // Longer than a quarter of the bound: hashed, never kept.
    const before = keptTextChars();
    const huge = 'c'.repeat(3_000_000);
    expect(sha256HexKept(huge)).toBe(sha256TextHex(huge));
    expect(keptTextChars()).toBe(before);
  });
});
