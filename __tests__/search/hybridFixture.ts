import type { EmbeddableChunk } from '../../src/core/search/hybrid';
import type { SearchHit, SearchOptions, VaultSearch } from '../../src/core/search/types';
import { sha256Hex } from '../../src/core/hash';

/** A small vault of our own, already chunked: [path, heading, start line, text]. */
const NOTES: readonly [string, string, number, string][] = [
  ['Garage/Car maintenance.md', 'Brakes', 3, 'Replaced the brake pads on the car in March. Repairing the rear drum took a whole afternoon; the mechanic charged 120 euros.'],
  ['Garage/Car maintenance.md', 'Tyres', 9, 'Winter tyres go on in November. Pressure 2.4 bar front, 2.2 bar rear.'],
  ['Health/Checkups.md', 'Annual visit', 1, 'Saw the physician for the yearly check. Blood pressure fine; next appointment in spring.'],
  ['Home/Broken window.md', '', 1, 'The kitchen window is broken since the storm. Glass ordered from the hardware store.'],
  ['Travel/Lisbon.md', 'Journey', 5, 'The voyage to Lisbon by train took two days, with a night in Madrid.'],
  ['Money/Shopping list.md', 'Laptop', 2, 'Purchase an inexpensive laptop for the kids, under 400 euros.'],
  ['Cooking/Bread.md', 'Sourdough', 4, 'Bake the sourdough at 230 degrees for 40 minutes after an overnight proof.'],
  ['Garden/Tulips.md', 'Planting', 2, 'Plant tulip bulbs in autumn, 15 cm deep, in well-drained soil.'],
  ['Work/Standup.md', 'Bugs', 7, 'The login defect reappeared after the release; we triaged it at the standup.'],
];

export function fixtureChunks(): EmbeddableChunk[] {
  return NOTES.map(([path, heading, startLine, text]) => ({
    id: `${path}#${startLine}`,
    path,
    heading,
    headings: heading ? [heading] : [],
    startLine,
    endLine: startLine + 1,
    text,
    hash: sha256Hex(text),
  }));
}

/** Questions in the user's words, with no word of the note they are about (the lexical side misses them). */
export const PARAPHRASES: readonly [string, string][] = [
  ['fix broken automobile', 'Garage/Car maintenance.md'],
  ['when did I see the doctor', 'Health/Checkups.md'],
  ['buy a cheap computer', 'Money/Shopping list.md'],
  ['trip to Portugal', 'Travel/Lisbon.md'],
  ['software error', 'Work/Standup.md'],
];

/** Questions that share words with their note (the lexical side finds them). */
export const LITERAL: readonly [string, string][] = [
  ['sourdough temperature', 'Cooking/Bread.md'],
  ['tulip bulbs depth', 'Garden/Tulips.md'],
  ['winter tyres pressure', 'Garage/Car maintenance.md'],
  ['kitchen window glass', 'Home/Broken window.md'],
];

const STOP = new Set(['the', 'and', 'for', 'when', 'did', 'how', 'what', 'with', 'after', 'from', 'into']);
const words = (text: string): Set<string> => new Set((text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w)));

/**
 * A stand-in for the lexical VaultSearch (the real one is the search core's): exact words (stop words
 * dropped), no stemming or synonyms; score = distinct query words found in the path, heading and text.
 */
export function exactWordSearch(chunks: readonly EmbeddableChunk[]): VaultSearch & { calls: number } {
  const search = {
    calls: 0,
    search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
      search.calls++;
      const asked = [...words(query)];
      const hits = chunks
        .map((chunk) => {
          const have = words(`${chunk.path} ${chunk.heading} ${chunk.text}`);
          const score = asked.filter((w) => have.has(w)).length;
          return { chunk, score };
        })
        .filter(({ score }) => score > 0)
        .sort((a, b) => b.score - a.score || (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : 0) || (a.chunk.startLine ?? 0) - (b.chunk.startLine ?? 0))
        .slice(0, options.k ?? 10)
        .map(({ chunk, score }) => ({
          path: chunk.path,
          headings: chunk.headings ?? [],
          heading: chunk.heading,
          startLine: chunk.startLine ?? 1,
          endLine: chunk.endLine ?? 1,
          text: chunk.text,
          snippet: `lexical: ${chunk.text.slice(0, 40)}`,
          score,
        }));
      return Promise.resolve(hits);
    },
  };
  return search;
}
