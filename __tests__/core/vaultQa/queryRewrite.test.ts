/** The standalone rewrite's prompt and cleaning: fixed text, keyed by the whole conversation before the message. */
import { cleanQuery, REWRITE_INSTRUCTIONS, rewriteCacheOf, rewriteKey, rewriteMessages } from '../../../src/core/vaultQa/queryRewrite';

const prior = [
  { userText: 'How do the roof vents open?', reply: 'Wax openers push them open [1].' },
  { userText: 'Are they reliable?', reply: 'Yes, if unhooked before storms [1].' },
];

test('the prompt is fixed text over the message and the newest turns before it', () => {
  const messages = rewriteMessages('How much did they cost?', prior);
  expect(messages).toEqual(rewriteMessages('How much did they cost?', prior.map((t) => ({ ...t }))));
  expect(messages[0]).toEqual({ role: 'system', content: REWRITE_INSTRUCTIONS });
  expect(messages[1].content).toBe(
    'Conversation:\nUser: How do the roof vents open?\nAssistant: Wax openers push them open [1].\n\nUser: Are they reliable?\nAssistant: Yes, if unhooked before storms [1].\n\nFollow-up message:\nHow much did they cost?\n\nStandalone search query:',
  );
});

test('the key changes with the message and with any earlier turn', () => {
  const key = rewriteKey('How much?', prior);
  expect(rewriteKey('How much?', [...prior])).toBe(key);
  expect(rewriteKey('How much!', prior)).not.toBe(key);
  expect(rewriteKey('How much?', [{ ...prior[0], reply: 'edited' }, prior[1]])).not.toBe(key);
  expect(rewriteKey('How much?', prior.slice(1))).not.toBe(key);
});

test.each([
  ['automatic vent openers cost', 'automatic vent openers cost'],
  ['Query: "vent openers price"', 'vent openers price'],
  ['Standalone search query: wax openers\nBecause the user asked…', 'wax openers'],
  ['\n\n  “rain barrels”  ', 'rain barrels'],
])('cleanQuery(%j) → %j', (raw, query) => {
  expect(cleanQuery(raw)).toBe(query);
});

test('nothing usable is null', () => {
  expect(cleanQuery('')).toBeNull();
  expect(cleanQuery('Query: ""')).toBeNull();
});

test('a reopened chat seeds its cache from the rewrites its turns recorded (not from failed ones)', () => {
  const cache = rewriteCacheOf([
    { search: { query: 'a b', sources: [], rewrite: { status: 'rewritten', key: 'k1' } } },
    { search: { query: 'typed', sources: [], rewrite: { status: 'failed', key: 'k2', detail: 'x' } } },
    { search: { query: 'c d', sources: [], rewrite: { status: 'cached', key: 'k3' } } },
    {},
  ]);
  expect([...cache]).toEqual([
    ['k1', 'a b'],
    ['k3', 'c d'],
  ]);
});
