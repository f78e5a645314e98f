import { condenseBlocker } from '../../../src/core/budget/condenseOffer';

// Issue 29 item 8: Condense is offered only when a manual condense would drop a turn.
test('no answered turn, or none older than the kept messages: not offered, with the reason', () => {
  expect(condenseBlocker(0, 0, 4)).toBe('Nothing to condense yet: the chat has no answered messages.');
  expect(condenseBlocker(2, 0, 4)).toBe('Nothing to condense yet: the newest 4 messages always stay word for word (Keep messages in settings).');
  expect(condenseBlocker(4, 2, 4)).toMatch(/^Nothing more to condense: the earlier messages are condensed/);
});

test('a turn older than the kept messages and not condensed yet: offered', () => {
  expect(condenseBlocker(3, 0, 4)).toBeNull();
  expect(condenseBlocker(5, 2, 4)).toBeNull();
  expect(condenseBlocker(1, 0, 0)).toBeNull();
  // An odd Keep messages rounds up to whole turns, as the planner does.
  expect(condenseBlocker(2, 0, 3)).not.toBeNull();
});
