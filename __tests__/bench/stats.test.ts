import { growthExponent, median, p95, quantile, ratio } from '../../bench/lib/stats';

describe('benchmark statistics', () => {
  test('median of odd and even counts, independent of order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
  });

  test('p95 is the nearest-rank 95th percentile', () => {
    const samples = Array.from({ length: 20 }, (_, i) => 20 - i); // 20..1
    expect(p95(samples)).toBe(19);
    expect(quantile(samples, 0)).toBe(1);
    expect(quantile(samples, 1)).toBe(20);
    expect(p95([7])).toBe(7);
  });

  test('no samples or a bad quantile is an error, not NaN', () => {
    expect(() => median([])).toThrow(/no samples/);
    expect(() => quantile([1], 1.5)).toThrow(/outside/);
  });

  test('growth exponent: flat 0, linear 1, quadratic 2', () => {
    expect(growthExponent(10, 5, 1000, 5)).toBeCloseTo(0);
    expect(growthExponent(10, 1, 1000, 100)).toBeCloseTo(1);
    expect(growthExponent(10, 1, 100, 100)).toBeCloseTo(2);
    expect(growthExponent(50, 4, 10, 2)).toBeCloseTo(Math.log(2) / Math.log(5));
    expect(() => growthExponent(10, 1, 10, 2)).toThrow(/distinct/);
    expect(() => growthExponent(10, 0, 20, 2)).toThrow(/positive times/);
  });

  test('a ratio over zero does not exist', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNull();
  });
});
