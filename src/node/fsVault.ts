import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type NoteStat, type PdfText, type VaultReader } from '../core/ports/vault';
import { UnreadableNoteError } from '../core/context/vaultReader';
import { PdfTextReader } from '../core/context/pdf/pdfReader';
import { loadNodePdfJs } from './nodePdfJs';

const MAX_BYTES = 8 * 1024 * 1024;
/** Binary files (images) read at most this large; the image limits are lower still. */
const MAX_BINARY_BYTES = 32 * 1024 * 1024;

/** A vault folder on disk, for Node (tests, demo, inspector, benchmarks). Paths are vault-relative with '/'. */
export class FsVault implements VaultReader {
  private listing: string[] | null = null;
  /** Every file (not only notes), for links by name; listed once, like the notes. */
  private files: Promise<string[]> | null = null;
  private realRoot: Promise<string> | null = null;

  private readonly pdf = new PdfTextReader(this, loadNodePdfJs);

  constructor(readonly root: string) {}

  /** A PDF's text page by page, through pdfjs-dist (src/node/nodePdfJs.ts), cached by the file's stat. */
  readPdf(relative: string): Promise<PdfText | null> {
    return this.pdf.read(relative);
  }

  async read(relative: string): Promise<string | null> {
    const bytes = await this.fileBytes(relative, MAX_BYTES);
    if (bytes === null) return null;
    if (bytes.includes(0)) throw new UnreadableNoteError(relative, 'binary', 'the file contains NUL bytes');
    // Decoded once by the buffer (no decoder object per note); a leading BOM is dropped, as TextDecoder did.
    return bytes.toString('utf8', hasBom(bytes) ? 3 : 0);
  }

  async stat(relative: string): Promise<NoteStat | null> {
    const full = await this.insideVault(relative, this.resolve(relative));
    if (full === null) return null;
    try {
      const stat = await fs.stat(full);
      return stat.isFile() ? { mtime: Math.floor(stat.mtimeMs), size: stat.size } : null;
    } catch {
      return null;
    }
  }

  /** A file's bytes (an embedded image); null when there is none. Links out of the vault are refused, as for notes. */
  async readBinary(relative: string): Promise<Uint8Array | null> {
    const bytes = await this.fileBytes(relative, MAX_BINARY_BYTES);
    return bytes === null ? null : new Uint8Array(bytes);
  }

  /** A file's bytes inside the vault, or null when there is no file; one over `limit` bytes is refused, not read. */
  private async fileBytes(relative: string, limit: number): Promise<Buffer | null> {
    const full = await this.insideVault(relative, this.resolve(relative));
    if (full === null) return null;
    let stat;
    try {
      stat = await fs.stat(full);
    } catch {
      return null;
    }
    if (!stat.isFile()) return null;
    if (stat.size > limit) throw new UnreadableNoteError(relative, 'too-large', `${stat.size} bytes is over the ${limit}-byte read limit`);
    return fs.readFile(full);
  }

  /**
   * Where a link in note `from` points, as Obsidian finds it for a vault on disk: the link as a vault
   * path, then relative to the note's folder, then the only file with that name anywhere (dot-folders
   * skipped); null when none or several match. Never a path outside the vault (symbolic links included).
   */
  async resolveLink(link: string, from: string): Promise<string | null> {
    const target = link.replace(/\\/g, '/').split('#')[0].trim();
    if (target === '') return null;
    const folder = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
    const asVaultPath = target.replace(/^\/+/, '');
    const relative = folder ? `${folder}/${target}` : target;
    // `./x.png` and `../x.png` are relative to the note first; a bare path is a vault path first.
    const candidates = target.startsWith('.') ? [relative, asVaultPath] : [asVaultPath, relative];
    for (const candidate of candidates) {
      const normalized = path.posix.normalize(candidate);
      if (normalized.startsWith('../') || normalized === '..' || path.posix.isAbsolute(normalized)) continue;
      if (await this.isVaultFile(normalized)) return normalized;
    }
    const name = path.posix.normalize(asVaultPath).replace(/^(\.\.\/)+/, '');
    this.files ??= (async () => {
      const out: string[] = [];
      await walk(this.root, '', out, () => true);
      return out.sort();
    })();
    const matches = (await this.files).filter((p) => p === name || p.endsWith(`/${name}`));
    return matches.length === 1 ? matches[0] : null;
  }

  /** A file (or a link to one) at that vault path. A link leading out of the vault is found here and refused when read. */
  private async isVaultFile(relative: string): Promise<boolean> {
    try {
      const entry = await fs.lstat(this.resolve(relative));
      return entry.isFile() || entry.isSymbolicLink();
    } catch {
      return false;
    }
  }

  /** Files were created, moved or removed (the agent's writes): the next listing walks the folder again. */
  forgetListing(): void {
    this.listing = null;
    this.files = null;
  }

  async listMarkdown(): Promise<string[]> {
    if (!this.listing) {
      const out: string[] = [];
      await walk(this.root, '', out, (name) => name.toLowerCase().endsWith('.md'));
      this.listing = out.sort();
    }
    return [...this.listing];
  }

  private resolve(relative: string): string {
    const normalized = path.posix.normalize(relative.replace(/\\/g, '/'));
    if (normalized.startsWith('../') || normalized === '..' || path.posix.isAbsolute(normalized)) {
      throw new UnreadableNoteError(relative, 'unreadable', 'path leaves the vault');
    }
    return path.join(this.root, ...normalized.split('/'));
  }

  /**
   * The file's real path (symbolic links followed), or null when it does not exist. A link whose
   * target is outside the vault is refused: attaching `notes/x.md -> /etc/passwd` must not send
   * /etc/passwd. The target is not named (the problem's detail reaches the model too).
   */
  private async insideVault(relative: string, full: string): Promise<string | null> {
    let real: string;
    try {
      real = await fs.realpath(full);
    } catch {
      return null;
    }
    this.realRoot ??= fs.realpath(this.root);
    const root = await this.realRoot;
    if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
      throw new UnreadableNoteError(relative, 'outside-vault', 'it is a link to a file outside the vault; only files inside the vault are read');
    }
    return real;
  }
}

function hasBom(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** Symbolic links are not followed (a Dirent of a link is neither a file nor a folder): no walking out of the vault, no cycles. */
async function walk(root: string, prefix: string, out: string[], keep: (name: string) => boolean): Promise<void> {
  const entries = await fs.readdir(path.join(root, prefix), { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue; // .obsidian, .git, .trash
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walk(root, rel, out, keep);
    else if (entry.isFile() && keep(entry.name)) out.push(rel);
  }
}
