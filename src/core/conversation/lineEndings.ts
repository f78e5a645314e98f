import type { NoteFormat } from './model';

/** What the codec writes unless the note had something else. */
export const LF_NOTE: NoteFormat = { eol: '\n', bom: false };

const BOM = '\ufeff';

/** A note's format: a leading BOM, and its first line break (a note with none counts as LF). */
export function noteFormat(text: string): NoteFormat {
  const bom = text.startsWith(BOM);
  const lineBreak = /\r\n?|\n/.exec(text);
  const eol = lineBreak ? (lineBreak[0] as NoteFormat['eol']) : '\n';
  return { eol, bom };
}

export function isLfNote(format: NoteFormat): boolean {
  return format.eol === '\n' && !format.bom;
}

/**
 * The note as the parser reads it: no BOM, every line break (CRLF, CR, LF, as markdown counts
 * them, mixed or not) a single LF. The codec never writes a raw CR inside a line (text holding
 * one is JSON-encoded), so every CR in a note is a line break.
 */
export function toLf(text: string): string {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  // Most notes have no CR: one scan instead of a regex pass that copies a long chat's megabytes.
  return body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
}

/** An LF note written in `format`. */
export function fromLf(text: string, format: NoteFormat): string {
  const lines = format.eol === '\n' ? text : text.replace(/\n/g, format.eol);
  return format.bom ? BOM + lines : lines;
}
