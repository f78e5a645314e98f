/**
 * Minimal PDFs written by hand (issue 31's fixtures): pages of text in Helvetica, a page holding
 * only an image (a scan: no text layer), and an encrypted one. Enough of the format for pdf.js to
 * read; no compression, offsets computed, so the bytes are the same every run.
 */
import { createHash } from 'node:crypto';

/** A page: lines of text, or an image only (no text layer). */
export type PdfPageSpec = { readonly lines: readonly string[] } | { readonly image: true };

export interface PdfSpec {
  readonly pages: readonly PdfPageSpec[];
  /** A user password: the file is encrypted (standard handler, revision 2), pdf.js asks for it. */
  readonly password?: string;
}

const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function pageContent(page: PdfPageSpec): string {
  if ('image' in page) return 'q 200 0 0 200 72 500 cm /Im1 Do Q';
  const shown = page.lines.map((l, i) => `${i === 0 ? '' : 'T* '}(${escape(l)}) Tj`).join('\n');
  return `BT /F1 8 Tf 10 TL 36 760 Td\n${shown}\nET`;
}

/** Lines a page holds (8 pt type, 10 pt apart): pdf.js reads no text outside the page. */
export const LINES_PER_PAGE = 70;

/**
 * Text as pages of lines: each paragraph's sentences one a line (a line of 8 pt Helvetica holds
 * about 130 characters: pdf.js drops what runs off the page), LINES_PER_PAGE lines a page.
 */
export function textPages(text: string): PdfPageSpec[] {
  const lines = text.split('\n').flatMap((l) => (l.trim() === '' ? [] : l.replace(/([.!?])\s+/g, '$1\n').split('\n')));
  const pages: PdfPageSpec[] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_PAGE) pages.push({ lines: lines.slice(i, i + LINES_PER_PAGE) });
  return pages;
}

/** The PDF's bytes (latin-1 text; the image page holds a 2×2 grey bitmap). */
export function minimalPdf(spec: PdfSpec): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) ;
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  add('<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\u0000\u00ff\u00ff\u0000\nendstream');
  const kids: string[] = [];
  for (const page of spec.pages) {
    const content = pageContent(page);
    add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const contentRef = objects.length;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 4 0 R >> >> /Contents ${contentRef} 0 R >>`);
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`;
  const id = createHash('md5').update(JSON.stringify(spec)).digest();
  let trailerExtra = `/ID [<${id.toString('hex')}> <${id.toString('hex')}>]`;
  if (spec.password !== undefined) {
    add(encryptDict(spec.password, id));
    trailerExtra += ` /Encrypt ${objects.length} 0 R`;
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

/** The standard security handler, revision 2 (40-bit RC4): U made from the user password. */
function encryptDict(password: string, id: Buffer): string {
  const padded = Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
  const o = rc4(createHash('md5').update(padded).digest().subarray(0, 5), padded);
  const p = -4;
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p);
  const key = createHash('md5').update(Buffer.concat([padded, o, pBytes, id])).digest().subarray(0, 5);
  const u = rc4(key, PAD);
  return `<< /Filter /Standard /V 1 /R 2 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${p} >>`;
}
