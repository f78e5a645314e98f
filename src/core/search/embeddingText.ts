import { noteTitle, type ChunkedNote } from './chunk';

/**
 * What each chunk of a note is embedded as. Many notes say what they are about in their properties
 * (a film's director, a book's author): the first chunk carries them, as the lexical index's
 * note-wide fields do (on the evaluation set, with a stand-in model, kepano's semantic recall@5
 * went from 60 % to 90 % with them).
 */
export function embeddingTexts(path: string, text: string, note: ChunkedNote): string[] {
  const lines = text.split(/\r\n?|\n/);
  const about = noteAbout(note);
  return note.chunks.map((_, i) => embeddingTextOf(path, lines, note, about, i));
}

/** What the first chunk's embedding text starts with: aliases, tags and properties ('' for none). */
export function noteAbout(note: ChunkedNote): string {
  return [note.aliases.join(', '), note.tags.map((t) => `#${t}`).join(' '), note.properties].filter((part) => part !== '').join('\n');
}

/** embeddingTexts' text for chunk `i` alone (the index computes them one at a time, a huge note in slices). */
export function embeddingTextOf(path: string, lines: readonly string[], note: ChunkedNote, about: string, i: number): string {
  const chunk = note.chunks[i];
  const body = lines.slice(chunk.startLine - 1, chunk.endLine).join('\n');
  return chunkEmbeddingText(path, chunk.headings, i === 0 && about !== '' ? `${about}\n\n${body}` : body);
}

/**
 * The text a chunk is embedded as: its note's name and heading path give the embedding the
 * context a bare section lacks ("Plan > Ventilation" before the ventilation paragraph).
 */
export function chunkEmbeddingText(path: string, headings: readonly string[], text: string): string {
  return `${noteTitle(path)}${headings.length > 0 ? ` > ${headings.join(' > ')}` : ''}\n\n${text}`;
}
