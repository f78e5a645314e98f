import { addUsage, ZERO_USAGE, type Usage } from '../../src/core/usage';
import { costOf, formatCost, priceOf, sumCosts } from '../../src/providers/pricing';

const usage = (inputTokens: number, outputTokens: number, cachedReadTokens = 0, cacheWriteTokens = 0): Usage => ({
  inputTokens,
  outputTokens,
  cachedReadTokens,
  cacheWriteTokens,
});

describe('priceOf', () => {
  test('longest substring wins, so dated snapshots and minis find their own price', () => {
    expect(priceOf('gpt-4o-2024-08-06')?.input).toBe(2.5);
    expect(priceOf('gpt-4o-mini-2024-07-18')?.input).toBe(0.15);
    expect(priceOf('gpt-4.1-nano')?.input).toBe(0.1);
    expect(priceOf('claude-sonnet-4-20250514')?.input).toBe(3);
    expect(priceOf('claude-3-5-sonnet-latest')?.input).toBe(3);
    expect(priceOf('claude-opus-4-1-20250805')?.output).toBe(75);
    expect(priceOf('claude-opus-4-5')?.output).toBe(25);
    expect(priceOf('claude-3-5-haiku-20241022')?.input).toBe(0.8);
  });

  test('unknown models have no price', () => {
    expect(priceOf('llama3.1:8b')).toBeNull();
    expect(formatCost(costOf('llama3.1:8b', usage(1000, 100)))).toBe('unknown price');
  });

  test('user overrides win: exact name, then substring', () => {
    const overrides = { 'llama3.1:8b': { input: 0, cachedInput: 0, output: 0 }, 'gpt-4o': { input: 2, cachedInput: 1, output: 8 } };
    expect(priceOf('llama3.1:8b', overrides)?.input).toBe(0);
    expect(priceOf('gpt-4o-2024-11-20', overrides)?.input).toBe(2);
  });

  test('Anthropic cache writes cost 1.25 × input, reads 0.1 × input', () => {
    expect(priceOf('claude-sonnet-4')).toEqual({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 });
    expect(priceOf('claude-haiku-4-5')).toEqual({ input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 });
  });
});

describe('costOf', () => {
  test('OpenAI: uncached input at the input price, cached reads at the cached price', () => {
    // gpt-4o-mini: $0.15 input, $0.075 cached, $0.60 output per million.
    const cost = costOf('gpt-4o-mini', usage(2006, 300, 1920))!;
    expect(cost.inputUsd).toBeCloseTo((86 * 0.15) / 1e6, 15);
    expect(cost.cachedReadUsd).toBeCloseTo((1920 * 0.075) / 1e6, 15);
    expect(cost.cacheWriteUsd).toBe(0);
    expect(cost.outputUsd).toBeCloseTo((300 * 0.6) / 1e6, 15);
    expect(cost.usd).toBeCloseTo((86 * 0.15 + 1920 * 0.075 + 300 * 0.6) / 1e6, 15);
  });

  test('Anthropic: reads, writes and plain input each at their own price', () => {
    // claude-sonnet-4: $3 input, $3.75 write, $0.30 read, $15 output per million.
    const cost = costOf('claude-sonnet-4-20250514', usage(21 + 188 + 1800, 393, 1800, 188))!;
    expect(cost.usd).toBeCloseTo((21 * 3 + 188 * 3.75 + 1800 * 0.3 + 393 * 15) / 1e6, 15);
    expect(formatCost(cost)).toBe('$0.0072');
  });

  test('a million uncached input tokens cost exactly the list price', () => {
    expect(costOf('gpt-4.1', usage(1_000_000, 0))!.usd).toBeCloseTo(2, 12);
    expect(costOf('gpt-5', usage(1_000_000, 1_000_000, 1_000_000))!.usd).toBeCloseTo(0.125 + 10, 12);
  });

  test('a model without a write price bills writes at the input price', () => {
    const cost = costOf('custom', usage(1000, 0, 0, 1000), { custom: { input: 1, cachedInput: 0.1, output: 2 } })!;
    expect(cost.cacheWriteUsd).toBeCloseTo(0.001, 12);
  });
});

describe('per turn and per chat', () => {
  test('a chat total is the sum of its calls; unknown prices are counted, not guessed', () => {
    const turns = [usage(2000, 100), usage(3000, 120, 1920), usage(4000, 90, 2944)];
    const costs = turns.map((u) => costOf('gpt-4o', u));
    const total = sumCosts(costs);
    expect(total.usd).toBeCloseTo(costs.reduce((s, c) => s + c!.usd, 0), 15);
    // Summing usage first and pricing once gives the same answer: cost is linear.
    expect(costOf('gpt-4o', turns.reduce(addUsage, ZERO_USAGE))!.usd).toBeCloseTo(total.usd, 15);
    expect(total).toMatchObject({ calls: 3, unknownCalls: 0 });

    const mixed = sumCosts([...costs, costOf('mystery-model', usage(10, 10))]);
    expect(mixed.unknownCalls).toBe(1);
    expect(mixed.usd).toBeCloseTo(total.usd, 15);
    expect(formatCost(mixed)).toMatch(/^\$0\.\d{4} \+ unknown price for 1 call$/);
    expect(formatCost(sumCosts([null]))).toBe('unknown price');
    expect(formatCost(sumCosts([]))).toBe('$0');
  });
});
