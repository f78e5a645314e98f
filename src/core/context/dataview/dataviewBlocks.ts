import { sha256Hex } from '../../hash';

/**
 * The Dataview blocks of a note (issue 31): fenced ```dataview and ```dataviewjs code blocks, in
 * note order. Inline fields (`key:: value`) and inline queries stay part of the note's text.
 */
export interface DataviewBlock {
  readonly lang: 'dataview' | 'dataviewjs';
  /** The block's text between its fences. */
  readonly query: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

const OPEN = /^ {0,3}(`{3,}|~{3,})\s*(dataviewjs|dataview)\s*$/i;

export function dataviewBlocks(text: string): DataviewBlock[] {
  if (!/dataview/i.test(text)) return [];
  const lines = text.split(/\r?\n/);
  const out: DataviewBlock[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const other = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      // Inside some other code block: its own closing fence ends it.
      if (other && other[1][0] === fence[0] && other[1].length >= fence.length && line.trim() === other[1]) fence = null;
      continue;
    }
    const open = OPEN.exec(line);
    if (!open) {
      if (other) fence = other[1];
      continue;
    }
    const mark = open[1];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === mark[0] && close[1].length >= mark.length) break;
      body.push(lines[j]);
    }
    out.push({ lang: open[2].toLowerCase() as DataviewBlock['lang'], query: body.join('\n').trim(), line: i + 1 });
    i = j;
  }
  return out;
}

/** A block's item id: the note's path and a hash of its language and query (the seed's id), stable while the query is. */
export function dataviewId(path: string, block: Pick<DataviewBlock, 'lang' | 'query'>): string {
  return `${path}#dataview-${sha256Hex(`${block.lang}\n${block.query}`).slice(0, 12)}`;
}

/** The note path of a Dataview item id, or null when the id is not one. */
export function dataviewNoteOf(id: string): string | null {
  const m = /^(.*)#dataview-[0-9a-f]{12}$/.exec(id);
  return m ? m[1] : null;
}
