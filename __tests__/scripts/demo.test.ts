import path from 'node:path';
import { ROOT } from '../helpers/paths';
import { run, TSX } from './inspector/inspectorCli';

// Issue 29 item 13: the demo's first table explains its columns, and the two prompt totals are told apart.
let stdout = '';

beforeAll(async () => {
  ({ stdout } = await run(TSX, [path.join(ROOT, 'scripts', 'demo.ts')], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }));
}, 120_000);

test('a legend for L1–L5, full, ref and the prefix column follows the first table', () => {
  const legend = stdout.slice(stdout.indexOf('How to read the table above'));
  expect(legend.length).toBeLessThan(stdout.length);
  for (const key of ['L1', 'L2', 'L3', 'L4', 'L5', 'prompt', 'full', 'ref', 'prefix']) expect(legend).toMatch(new RegExp(`^  ${key} +\\S`, 'm'));
  expect(legend).toMatch(/"extends": the request starts with the previous one/);
  // Before the provider's table.
  expect(stdout.indexOf('How to read the table above')).toBeLessThan(stdout.indexOf('What the provider reported'));
});

test("Strata's count and the provider's reported total are both given, with why they differ", () => {
  const ours = /(\d+) prompt tokens in all/.exec(stdout)?.[1];
  const theirs = /Prompt tokens (\d+), served from cache/.exec(stdout)?.[1];
  expect(ours).toBeDefined();
  expect(theirs).toBeDefined();
  const fmt = (n: string | undefined) => Number(n).toLocaleString('en-US');
  expect(stdout).toContain(`Strata counted ${fmt(ours)} prompt tokens, the provider reported ${fmt(theirs)}`);
  expect(stdout).toMatch(/They differ because Strata counts each request before sending it/);
  expect(stdout).toMatch(/Strata's count decides the budget; the provider's is what is billed\./);
});
