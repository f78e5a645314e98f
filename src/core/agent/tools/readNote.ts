import { z } from 'zod';
import { excerpt, findHeadings, headingPaths, headingsOf, noteLines, sectionRange } from '../noteText';
import { defineTool, errorText } from '../tool';
import { VaultView, type Resolution } from '../vaultView';
import { readPdfForTool } from './pdfForTool';
import { readCanvasText } from '../../context/canvas/canvasRead';

/** The most characters of note text one call returns. */
export const READ_LIMIT_CHARS = 20_000;

export interface ReadRequest {
  readonly heading?: string;
  readonly startLine?: number;
  readonly endLine?: number;
}

/**
 * A note's text as the model reads it: a header line `path (lines a-b of N)`, the lines, and, when
 * the character limit cut them, a last line saying what was left out and how to read it.
 */
export function renderNote(path: string, text: string, request: ReadRequest = {}): string {
  const lines = noteLines(text);
  const total = lines.length;
  if (total === 0) return `${path} (empty note)`;
  let start = 1;
  let end = total;
  let note = '';
  if (request.heading !== undefined) {
    const headings = headingsOf(text);
    const found = findHeadings(headings, request.heading);
    if (found.length === 0) {
      const paths = headingPaths(headings).map((p) => p.join(' › '));
      const list = paths.length === 0 ? 'it has no headings' : `its headings are: ${paths.slice(0, 60).join('; ')}${paths.length > 60 ? '; …' : ''}`;
      return errorText(`no heading "${request.heading}" in ${path}; ${list}.`);
    }
    ({ start, end } = sectionRange(lines, headings, found[0]));
    if (found.length > 1) note = `\n(${found.length - 1} other heading${found.length > 2 ? 's' : ''} with this name, at line ${found.slice(1).map((i) => headings[i].line).join(', ')}: read them by line range.)`;
  } else if (request.startLine !== undefined || request.endLine !== undefined) {
    start = request.startLine ?? 1;
    end = Math.min(request.endLine ?? total, total);
    if (start > total) return errorText(`${path} has ${total} lines; startLine ${start} is past its end.`);
    if (end < start) return errorText(`endLine ${request.endLine} is before startLine ${start}.`);
  }
  const shown = excerpt(lines, start, end, READ_LIMIT_CHARS);
  const header = `${path} (lines ${shown.start}-${shown.end} of ${total})`;
  let out = `${header}\n${shown.text}`;
  if (shown.cut) {
    const left = shown.wantedEnd - shown.end;
    out +=
      `\n[… ${left} more line${left === 1 ? '' : 's'} not shown (lines ${shown.end + 1}-${shown.wantedEnd}): the output is limited to ${READ_LIMIT_CHARS} characters. ` +
      `Read on with startLine ${shown.end + 1}, or read one heading's section with heading.]`;
  }
  return out + note;
}

/**
 * A note named by the model, or the error text saying why it cannot be read. A name written like a
 * wikilink to a heading (`Note#Heading`) that is no note's name gives the note and the heading.
 */
export async function resolveForTool(view: VaultView, input: string): Promise<{ path: string; heading?: string } | { error: string }> {
  const resolution: Resolution = await view.resolve(input);
  if (resolution.kind === 'missing' && input.includes('#')) {
    const cut = input.indexOf('#');
    const bare = await view.resolve(input.slice(0, cut));
    const heading = input.slice(cut + 1).replace(/\]\]$/, '').split('|')[0].trim();
    if (bare.kind === 'found') return heading === '' ? { path: bare.path } : { path: bare.path, heading };
    if (bare.kind !== 'missing') return { error: errorText(view.problem(input, bare) ?? '') };
  }
  if (resolution.kind !== 'found') return { error: errorText(view.problem(input, resolution) ?? '') };
  return { path: resolution.path };
}

export const readNote = defineTool({
  name: 'readNote',
  description:
    'Read a note of the vault. Returns a header line "path (lines a-b of N)" and the note\'s text (lines numbered from 1, frontmatter included, as localSearch numbers them). ' +
    'Give `heading` to read one section (its sub-headings included), or `startLine`/`endLine` for a line range; otherwise the whole note. ' +
    `At most ${READ_LIMIT_CHARS} characters come back; a last line says what was left out and how to read on. ` +
    'The path may be the full path shown by localSearch or listFolder, or just the note name (like a wikilink) when it is unique.',
  schema: () => z.object({
    path: z.string().trim().min(1).describe('Vault-relative path of the note (e.g. "Projects/Plan.md"), or its name ("Plan") when unique.'),
    heading: z.string().trim().min(1).optional().describe('Read only this heading\'s section (the heading text, without "#"; "Parent > Child" for a nested one).'),
    startLine: z.number().int().min(1).optional().describe('First line to read (1-based).'),
    endLine: z.number().int().min(1).optional().describe('Last line to read (inclusive).'),
  }),
  async run(args, ctx) {
    if (args.heading !== undefined && (args.startLine !== undefined || args.endLine !== undefined)) {
      return errorText('give either heading or startLine/endLine, not both.');
    }
    const view = new VaultView(ctx.host);
    const pdf = await readPdfForTool(ctx.host, view, args.path);
    if (pdf !== null && 'error' in pdf) return pdf.error;
    if (pdf !== null) {
      // `file.pdf#page=N` reads that page (its "Page N" section) unless a line range is asked.
      const page = pdf.page !== undefined && args.startLine === undefined && args.endLine === undefined ? `Page ${pdf.page}` : undefined;
      return renderNote(pdf.path, pdf.text, { heading: args.heading ?? page, startLine: args.startLine, endLine: args.endLine });
    }
    // A canvas is read as its text rendering (issue 31), by its path, where the tools may look.
    const canvasPath = args.path.replace(/^\/+/, '');
    const canvas = view.isVisible(canvasPath) ? await readCanvasText(ctx.host.vault, canvasPath) : null;
    if (canvas) return 'error' in canvas ? errorText(canvas.error) : renderNote(canvasPath, canvas.text, { heading: args.heading, startLine: args.startLine, endLine: args.endLine });
    const resolved = await resolveForTool(view, args.path);
    if ('error' in resolved) return resolved.error;
    const heading = args.heading ?? (args.startLine === undefined && args.endLine === undefined ? resolved.heading : undefined);
    const text = await ctx.host.vault.read(resolved.path);
    if (text === null) return errorText(`${resolved.path} could not be read (it was deleted or moved?). Look for it with listFolder.`);
    return renderNote(resolved.path, text, { heading, startLine: args.startLine, endLine: args.endLine });
  },
});
