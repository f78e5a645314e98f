/**
 * The long chat's frame budget (messageWindow.ts): building time per frame moves towards what leaves
 * the whole frame (building, then laying out what was built) at FRAME_MS, within its bounds.
 */
import { FIRST_BUILD_BUDGET_MS, FRAME_MS, nextBuildBudget } from '../../../src/obsidian/view/messageWindow';

test('a frame that took twice FRAME_MS halves the building time; a cheap one raises it, never past 30 ms', () => {
  expect(nextBuildBudget(FIRST_BUILD_BUDGET_MS, 2 * FRAME_MS)).toBeCloseTo(FIRST_BUILD_BUDGET_MS / 2);
  expect(nextBuildBudget(FIRST_BUILD_BUDGET_MS, FRAME_MS)).toBeCloseTo(FIRST_BUILD_BUDGET_MS);
  expect(nextBuildBudget(FIRST_BUILD_BUDGET_MS, FRAME_MS / 2)).toBe(30);
  expect(nextBuildBudget(FIRST_BUILD_BUDGET_MS, 0)).toBe(30);
});

test('heavy messages (layout many times the building) still get a couple of milliseconds: one message a frame at least', () => {
  let budget = FIRST_BUILD_BUDGET_MS;
  for (let i = 0; i < 10; i++) budget = nextBuildBudget(budget, 400);
  expect(budget).toBe(2);
});
