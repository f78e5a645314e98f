/**
 * Jest's node environment, plus what a worker keeps between the test files it runs: the tokenizer's
 * rank tables. js-tiktoken turns a 1-2 MB rank table into maps in about a second of CPU, and every
 * file that counts tokens did so again (jest gives each file fresh modules). Built here once per
 * worker, from the same tables by js-tiktoken itself; __tests__/helpers/sharedTiktoken.ts hands them
 * to each file's own Tiktoken. Plain CommonJS: jest loads it once per worker, outside any test file.
 */
const { TestEnvironment } = require('jest-environment-node');
const { Tiktoken } = require('js-tiktoken/lite');

/** bpe_ranks text → the maps js-tiktoken built from it (compared by the whole text, not a digest). */
const tables = [];

function tiktokenTables(bpeRanks) {
  let entry = tables.find((t) => t.bpeRanks === bpeRanks);
  if (!entry) {
    const built = new Tiktoken({ pat_str: '', special_tokens: {}, bpe_ranks: bpeRanks });
    entry = { bpeRanks, rankMap: built.rankMap, textMap: built.textMap };
    tables.push(entry);
  }
  return entry;
}

class StrataTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.strataTiktokenTables = tiktokenTables;
  }
}

module.exports = StrataTestEnvironment;
