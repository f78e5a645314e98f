import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { sha256TextHex } from '../../src/core/sha256Text';

const noble = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

describe('sha256TextHex', () => {
  it('matches the published test vectors', () => {
    expect(sha256TextHex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256TextHex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256TextHex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('gives @noble/hashes\' digest at every length around the block edges, in every UTF-8 width', () => {
    for (const unit of ['a', 'é', '漢', '🙂']) {
      for (let n = 0; n <= 140; n++) {
        const text = unit.repeat(n);
        expect(sha256TextHex(text)).toBe(noble(text));
      }
    }
  });

  it('gives @noble/hashes\' digest for any string, lone surrogates included, and for long texts', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha256TextHex(text) === noble(text)), { numRuns: 500 });
    for (const text of ['\uD800', 'a\uDC00b', '\uD83D', '\uDE42\uD83D']) expect(sha256TextHex(text)).toBe(noble(text));
    const long = 'Notes, 漢字 and emoji 🙂 '.repeat(60_000);
    expect(sha256TextHex(long)).toBe(noble(long));
    // A short text after a long one: the kept buffer holds no bytes of the earlier text.
    expect(sha256TextHex('abc')).toBe(noble('abc'));
  });
});
