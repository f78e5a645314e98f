import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { internalsOf, LinearEncoder } from '../../../src/core/tokens/linearBpe';
import { unpackRanks, type PackedRanks, type UnpackedRanks } from '../../../src/core/tokens/rankCodec';

// The packer the builds run (esbuild.config.mjs, the workbench): plain CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const packer = require('../../../scripts/packRanks.cjs') as { cachedPackedTables: () => Record<string, PackedRanks>; ENCODINGS: string[] };

/** js-tiktoken's own tables, as the tests and Node runs read them. */
function original(encoding: string): TiktokenBPE {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's table module
  return require(`js-tiktoken/ranks/${encoding}`) as TiktokenBPE;
}

describe('the rank tables packed into the bundle', () => {
  const tables = packer.cachedPackedTables();
  /** A table unpacked, over its base's (cl100k_base over o200k_base) when it has one. */
  const unpack = (encoding: string): UnpackedRanks => {
    const base = tables[encoding].base;
    return unpackRanks(tables[encoding], base === undefined ? undefined : unpack(base));
  };

  it.each(packer.ENCODINGS)('%s unpacks to exactly the maps js-tiktoken builds from its own table', (encoding) => {
    const packed = tables[encoding];
    const reference = new Tiktoken(original(encoding)) as unknown as { rankMap: Map<string, number>; textMap: Map<number, Uint8Array> };
    const maps = unpack(encoding);
    expect(maps.rankMap.size).toBe(reference.rankMap.size);
    let differing = 0;
    for (const [key, rank] of reference.rankMap) if (maps.rankMap.get(key) !== rank) differing++;
    for (const [rank, bytes] of reference.textMap) if (Buffer.compare(Buffer.from(maps.textMap.get(rank) ?? []), Buffer.from(bytes)) !== 0) differing++;
    expect(differing).toBe(0);
    expect(packed.pat_str).toBe(original(encoding).pat_str);
    expect(packed.special_tokens).toEqual(original(encoding).special_tokens);
  });

  it('is a third of the text it replaces, and a string literal that needs no escape', () => {
    for (const encoding of packer.ENCODINGS) {
      const { text } = tables[encoding];
      expect(JSON.stringify(text)).toBe(`"${text}"`);
      expect(text.length).toBeLessThan(original(encoding).bpe_ranks.length * 0.45);
    }
  });

  it('encodes through the unpacked maps as js-tiktoken does through its own', () => {
    const text = 'Obsidian vaults hold Markdown notes; Strata sends them to the model. 漢字 emoji 🙂 <|endoftext|>\n\tcode();';
    for (const encoding of packer.ENCODINGS) {
      const { pat_str, special_tokens } = tables[encoding];
      const unpacked = new Tiktoken({ pat_str, special_tokens, bpe_ranks: '' });
      Object.assign(unpacked, unpack(encoding));
      expect(unpacked.encode(text, [], [])).toEqual(new Tiktoken(original(encoding)).encode(text, [], []));
    }
  });

  it('the linear encoder over the unpacked byte-keyed table gives js-tiktoken\'s tokens, long runs included', () => {
    const texts = [
      'Obsidian vaults hold Markdown notes; Strata sends them to the model.',
      ' '.repeat(700),
      'a'.repeat(300) + ' ' + '漢'.repeat(120),
      '| col | col |\n| --- | --- |\n' + '-'.repeat(90) + '\t\t' + '🙂'.repeat(40),
    ];
    for (const encoding of packer.ENCODINGS) {
      const { pat_str, special_tokens } = tables[encoding];
      const unpacked = new Tiktoken({ pat_str, special_tokens, bpe_ranks: '' });
      Object.assign(unpacked, unpack(encoding));
      const internals = internalsOf(unpacked);
      expect(internals?.byteRanks).toBeDefined();
      const linear = new LinearEncoder(internals!);
      const reference = new Tiktoken(original(encoding));
      for (const text of texts) expect(linear.encode(text)).toEqual(reference.encode(text, [], []));
    }
  });
});
