import type { SearchSource } from '../conversation/records/search';

/**
 * The numbered sources of one agent turn. Every localSearch of the turn numbers its sources
 * through it, so a note (and heading) keeps the number it got first and two different sources never
 * share a [n], however many searches the model runs. Numbers start at 1, in order of first sight.
 */
export class SourceCatalog {
  private readonly sources: SearchSource[] = [];
  private readonly numbers = new Map<string, number>();

  constructor(initial: readonly SearchSource[] = []) {
    for (const source of initial) this.number(source);
  }

  /** The source's number: its old one when it was numbered before, else the next one. */
  number(source: SearchSource): number {
    const key = `${source.path}\u0000${source.heading}`;
    const known = this.numbers.get(key);
    if (known !== undefined) return known;
    this.sources.push({ path: source.path, heading: source.heading });
    this.numbers.set(key, this.sources.length);
    return this.sources.length;
  }

  /** Every source numbered so far; source n is at index n - 1. */
  all(): SearchSource[] {
    return [...this.sources];
  }

  get size(): number {
    return this.sources.length;
  }
}
