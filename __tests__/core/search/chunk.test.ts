import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkNote } from '../../../src/core/search/chunk';

const VAULT = path.join(__dirname, 'fixtures', 'vault');
const read = (p: string): string => readFileSync(path.join(VAULT, p), 'utf8');

describe('chunkNote', () => {
  test('one chunk per heading section, with the heading path and the note line range', () => {
    const note = chunkNote('Garden/Tomatoes.md', read('Garden/Tomatoes.md'));
    expect(note.title).toBe('Tomatoes');
    expect(note.chunks.map((c) => [c.headings, c.startLine, c.endLine])).toEqual([
      [['Growing tomatoes'], 6, 8],
      [['Growing tomatoes', 'Watering'], 10, 12],
      [['Growing tomatoes', 'Pests'], 14, 16],
    ]);
    const lines = read('Garden/Tomatoes.md').split('\n');
    expect(lines[9]).toBe('## Watering');
  });

  test('frontmatter gives tags and aliases and is not body text', () => {
    const note = chunkNote('Garden/Tomatoes.md', read('Garden/Tomatoes.md'));
    expect(note.tags).toEqual(['garden', 'pests', 'vegetables']);
    expect(note.aliases).toEqual(['Love apples']);
    for (const chunk of note.chunks) expect(chunk.body).not.toMatch(/aliases|Love apples/);
    expect(chunkNote('x.md', '---\naliases: One, Two\n---\nbody').aliases).toEqual(['One', 'Two']);
  });

  test('other properties become text of their own (keys, values, links flattened, URLs left out)', () => {
    const note = chunkNote('Films/Arrival.md', read('Films/Arrival.md'));
    expect(note.properties.split('\n')).toEqual(['cast [[Amy Adams]]', 'categories [[Movies]]', 'director [[Denis Villeneuve]]', 'poster', 'rating 8', 'year 2016']);
    expect(note.chunks).toHaveLength(1);
    expect(note.chunks[0].body).toBe('');
    expect(chunkNote('Garden/Tomatoes.md', read('Garden/Tomatoes.md')).properties).toBe('');
  });

  test("a '#' line inside a code fence is not a heading", () => {
    const note = chunkNote('Kitchen/Sourdough.md', read('Kitchen/Sourdough.md'));
    expect(note.chunks.map((c) => c.headings[c.headings.length - 1])).toEqual(['Sourdough bread', 'Baking']);
    expect(note.chunks[1].body).toContain('# Not a heading');
    expect(note.chunks[1].body).toContain('The crumb is open');
  });

  test('a long section is cut into overlapping pieces, never inside a code fence', () => {
    const paragraphs: string[] = [];
    for (let i = 1; i <= 12; i++) {
      paragraphs.push(`Paragraph ${i} talks about topic ${i} at some length, enough words to fill a line or two of prose.`);
      if (i % 4 === 0) paragraphs.push(['```js', `const block${i} = 1;`, `// ${'x'.repeat(60)}`, `const end${i} = 2;`, '```'].join('\n'));
    }
    const text = `# Long\n\n${paragraphs.join('\n\n')}\n`;
    const note = chunkNote('long.md', text, { maxChars: 400, overlapChars: 120 });
    expect(note.chunks.length).toBeGreaterThan(3);
    const lines = text.split('\n');
    for (const chunk of note.chunks) {
      const own = lines.slice(chunk.startLine - 1, chunk.endLine);
      expect(own.filter((l) => l.startsWith('```')).length % 2).toBe(0);
      expect(chunk.body.length).toBeLessThanOrEqual(400 + 120);
    }
    for (let i = 1; i < note.chunks.length; i++) {
      // Consecutive pieces overlap or touch: no line of the section is lost.
      expect(note.chunks[i].startLine).toBeLessThanOrEqual(note.chunks[i - 1].endLine + 2);
    }
    expect(note.chunks.some((c, i) => i > 0 && c.startLine <= note.chunks[i - 1].endLine)).toBe(true);
    expect(note.chunks[0].startLine).toBe(1);
    expect(note.chunks[note.chunks.length - 1].endLine).toBe(lines.length - 1);
  });

  test('Thai sections are chunked like any other', () => {
    const note = chunkNote('Languages/Thai.md', read('Languages/Thai.md'));
    expect(note.chunks.map((c) => c.headings)).toEqual([['ภาษาไทย'], ['ภาษาไทย', 'อาหาร']]);
    expect(note.chunks[1].body).toContain('ต้มยำกุ้ง');
  });

  test('a note with no text under any heading still gives one chunk', () => {
    expect(chunkNote('empty.md', '').chunks).toHaveLength(1);
    expect(chunkNote('h.md', '# Only a heading\n').chunks).toHaveLength(1);
  });

  test('text before the first heading has an empty heading path', () => {
    const note = chunkNote('Index.md', read('Index.md'));
    expect(note.chunks).toHaveLength(1);
    expect(note.chunks[0].headings).toEqual([]);
    expect(note.chunks[0].startLine).toBe(1);
  });
});
