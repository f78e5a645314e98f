/**
 * `js-tiktoken/lite` in tests (jest.config.cjs maps it here): the real Tiktoken, whose rank maps come
 * from the worker's one copy (__tests__/helpers/testEnvironment.cjs) instead of being rebuilt for
 * every test file. Encoding and decoding are js-tiktoken's own code over the same maps.
 */
import type * as Lite from 'js-tiktoken/lite';

// The package's file itself: `js-tiktoken/lite` would resolve back to this module.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the real module, past the mapping
const actual = require('../../node_modules/js-tiktoken/dist/lite.cjs') as typeof Lite;

interface Tables {
  rankMap: Map<string, number>;
  textMap: Map<number, Uint8Array>;
}
type SharedTables = (bpeRanks: string) => Tables;

const shared = (globalThis as { strataTiktokenTables?: SharedTables }).strataTiktokenTables;

export class Tiktoken extends actual.Tiktoken {
  constructor(ranks: Lite.TiktokenBPE, extendedSpecialTokens?: Record<string, number>) {
    // Outside the test environment (no shared tables) it is js-tiktoken unchanged.
    super(shared ? { ...ranks, bpe_ranks: '' } : ranks, extendedSpecialTokens);
    if (shared) Object.assign(this as unknown as Tables, shared(ranks.bpe_ranks));
  }
}

export const getEncodingNameForModel = actual.getEncodingNameForModel;
export type { TiktokenBPE, TiktokenEncoding, TiktokenModel } from 'js-tiktoken/lite';
