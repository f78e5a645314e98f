import type { VaultReader } from '../../src/core/ports/vault';

/**
 * A generated vault for the search benchmark: `count` notes in memory, deterministic for a seed.
 * Sizes follow a log-normal curve (median ~1.2 KB, a long tail up to 80 KB, as personal vaults
 * have), words a Zipf curve over common English words and ~6,000 made-up ones (so rare terms
 * exist), with folders, frontmatter (tags, aliases), headings at two levels, lists, tasks, links
 * and the odd code block.
 */

const COMMON = (
  'the of and to a in is it you that he was for on are with as I his they be at one have this from or had by ' +
  'not word but what some we can out other were all there when up use your how said an each she which do their ' +
  'time if will way about many then them write would like so these her long make thing see him two has look more ' +
  'day could go come did number sound no most people my over know water than call first who may down side been now find'
).split(' ');

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'cl', 'dr', 'gr', 'pl', 'st', 'tr', 'sh', 'ch', 'th'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'st'];

/** mulberry32: a small, fast, seeded generator (the bench needs repeatable vaults, not good randomness). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Words {
  readonly list: string[];
  private readonly cumulative: Float64Array;

  constructor(random: () => number, invented: number) {
    const seen = new Set(COMMON);
    const made: string[] = [];
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    while (made.length < invented) {
      const syllables = 1 + Math.floor(random() * 3);
      let w = '';
      for (let s = 0; s < syllables; s++) w += pick(ONSETS) + pick(NUCLEI) + (s === syllables - 1 ? pick(CODAS) : '');
      if (!seen.has(w)) {
        seen.add(w);
        made.push(w);
      }
    }
    this.list = [...COMMON, ...made];
    // Zipf with exponent ~1: the rank-r word is drawn with weight 1/r.
    this.cumulative = new Float64Array(this.list.length);
    let sum = 0;
    for (let r = 0; r < this.list.length; r++) this.cumulative[r] = sum += 1 / (r + 1);
  }

  draw(random: () => number): string {
    const target = random() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return this.list[lo];
  }

  /** A word from the rarer half: titles, headings and tags lean on those. */
  rare(random: () => number): string {
    return this.list[COMMON.length + Math.floor(random() * (this.list.length - COMMON.length))];
  }
}

export interface GeneratedVault {
  readonly notes: ReadonlyMap<string, string>;
  readonly bytes: number;
  /** Queries built from the vault's own rarer words, for timing searches. */
  readonly queries: readonly string[];
}

function normal(random: () => number): number {
  // Box-Muller.
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function generateVault(count: number, seed = 13): GeneratedVault {
  const random = seededRandom(seed);
  const words = new Words(random, 6000);
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const phrase = (n: number, rare = false) => Array.from({ length: n }, () => (rare ? words.rare(random) : words.draw(random))).join(' ');
  const folders: string[] = [];
  for (let f = 0; f < 12; f++) {
    const top = capital(words.rare(random));
    folders.push(top);
    for (let s = 0; s < 1 + Math.floor(random() * 5); s++) folders.push(`${top}/${capital(words.rare(random))}`);
  }
  const tags = Array.from({ length: 40 }, () => words.rare(random));

  const titles: string[] = [];
  const notes = new Map<string, string>();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    let title = capital(phrase(2 + Math.floor(random() * 4), true));
    const folder = random() < 0.1 ? '' : folders[Math.floor(random() * folders.length)];
    let notePath = `${folder ? `${folder}/` : ''}${title}.md`;
    if (notes.has(notePath)) {
      title = `${title} ${i}`;
      notePath = `${folder ? `${folder}/` : ''}${title}.md`;
    }
    const size = Math.min(80_000, Math.max(80, Math.round(Math.exp(Math.log(1200) + normal(random)))));
    const text = noteText(title, size, { random, words, phrase, capital, tags, titles });
    titles.push(title);
    notes.set(notePath, text);
    bytes += Buffer.byteLength(text);
  }
  const queries = Array.from({ length: 50 }, () => `${phrase(1 + Math.floor(random() * 3))} ${phrase(1 + Math.floor(random() * 2), true)}`);
  return { notes, bytes, queries };
}

interface Tools {
  random: () => number;
  words: Words;
  phrase: (n: number, rare?: boolean) => string;
  capital: (w: string) => string;
  tags: readonly string[];
  titles: readonly string[];
}

function noteText(title: string, size: number, t: Tools): string {
  const { random, phrase, capital } = t;
  const out: string[] = [];
  if (random() < 0.4) {
    const noteTags = Array.from({ length: 1 + Math.floor(random() * 3) }, () => t.tags[Math.floor(random() * t.tags.length)]);
    out.push('---', `tags: [${[...new Set(noteTags)].join(', ')}]`);
    if (random() < 0.25) out.push(`aliases: [${capital(phrase(2, true))}]`);
    out.push(`created: 2024-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`, '---', '');
  }
  if (random() < 0.5) out.push(`# ${title}`, '');
  let length = out.join('\n').length;
  let sinceHeading = 0;
  let nextHeading = 400 + random() * 1200;
  while (length < size) {
    let block: string;
    if (sinceHeading > nextHeading) {
      block = `${random() < 0.75 ? '##' : '###'} ${capital(phrase(1 + Math.floor(random() * 4), random() < 0.6))}`;
      sinceHeading = 0;
      nextHeading = 400 + random() * 1200;
    } else {
      const kind = random();
      if (kind < 0.6) {
        const sentences = 1 + Math.floor(random() * 5);
        block = Array.from({ length: sentences }, () => `${capital(phrase(5 + Math.floor(random() * 18)))}.`).join(' ');
        if (t.titles.length > 0 && random() < 0.3) block += ` See [[${t.titles[Math.floor(random() * t.titles.length)]}]].`;
      } else if (kind < 0.85) {
        block = Array.from({ length: 2 + Math.floor(random() * 6) }, () => `- ${phrase(3 + Math.floor(random() * 10))}`).join('\n');
      } else if (kind < 0.97) {
        block = Array.from({ length: 1 + Math.floor(random() * 5) }, () => `- [${random() < 0.3 ? 'x' : ' '}] ${phrase(3 + Math.floor(random() * 8))}`).join('\n');
      } else {
        block = ['```js', ...Array.from({ length: 2 + Math.floor(random() * 8) }, () => `const ${t.words.rare(random)} = ${Math.floor(random() * 1000)};`), '```'].join('\n');
      }
    }
    out.push(block, '');
    length += block.length + 2;
    sinceHeading += block.length + 2;
  }
  return out.join('\n');
}

/** The generated notes through the engine's port, as the search reads a real vault. */
export class MemoryVault implements VaultReader {
  private readonly paths: string[];

  constructor(private readonly notes: ReadonlyMap<string, string>) {
    this.paths = [...notes.keys()].sort();
  }

  read(notePath: string): Promise<string | null> {
    return Promise.resolve(this.notes.get(notePath) ?? null);
  }

  listMarkdown(): Promise<string[]> {
    return Promise.resolve([...this.paths]);
  }
}
