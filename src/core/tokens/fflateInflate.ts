/**
 * The two fflate inflaters Strata uses, in a module of their own so that inflate.ts can require it on
 * first use: evaluating fflate builds its Huffman tables (a 32,768-step loop and more, 10-20 ms at
 * plugin load), which the desktop, inflating with zlib, never needs. Imported, not required, here,
 * so the bundle keeps only these two of fflate's exports.
 */
export { Inflate, inflateSync } from 'fflate';
