import type { TiktokenBPE } from 'js-tiktoken/lite';
import type { PackedRanks } from './rankCodec';

/**
 * Where an encoding's rank table comes from. Run from source (tests, benches, scripts) it is
 * js-tiktoken's own table; the plugin bundle replaces this module with the tables packed at build
 * time (scripts/packRanks.cjs, swapped in by esbuild.config.mjs and the workbench's build), a third
 * of the size, read by rankCodec.ts.
 */
export type RankSource = { readonly packed: PackedRanks } | { readonly bpe: TiktokenBPE };

type RanksModule = TiktokenBPE | { default: TiktokenBPE };

export function rankSource(encoding: 'o200k_base' | 'cl100k_base'): RankSource {
  /* eslint-disable @typescript-eslint/no-require-imports, no-undef -- synchronous lazy load: counting must stay synchronous */
  const module = (encoding === 'o200k_base' ? require('js-tiktoken/ranks/o200k_base') : require('js-tiktoken/ranks/cl100k_base')) as RanksModule;
  /* eslint-enable @typescript-eslint/no-require-imports, no-undef -- end of the lazy load */
  // The CommonJS build exports the table itself; ESM interop wraps it in `default`.
  return { bpe: 'default' in module && module.default ? module.default : (module as TiktokenBPE) };
}
