import type { VaultReader } from '../ports/vault';
import type { ScenarioEdit } from './scenario';

/** A vault with in-memory edits layered over another (scenario edits; nothing is written to disk). */
export class OverlayVault implements VaultReader {
  private readonly overrides = new Map<string, string | null>();
  /** PDFs as the base reads them (a scenario edits notes only). */
  readonly readPdf?: VaultReader['readPdf'];

  constructor(private readonly base: VaultReader) {
    if (base.readPdf) this.readPdf = base.readPdf.bind(base);
  }

  /** The base vault's Dataview, if it has one (edits here are not seen by it). */
  get dataview(): VaultReader['dataview'] {
    return this.base.dataview;
  }

  async read(path: string): Promise<string | null> {
    if (this.overrides.has(path)) return this.overrides.get(path) ?? null;
    return this.base.read(path);
  }

  async listMarkdown(): Promise<string[]> {
    const paths = new Set(await this.base.listMarkdown());
    for (const [path, text] of this.overrides) {
      if (text === null) paths.delete(path);
      else if (path.endsWith('.md')) paths.add(path);
    }
    return [...paths].sort();
  }

  async append(path: string, text: string): Promise<void> {
    const current = await this.read(path);
    if (current === null) throw new Error(`cannot append to ${path}: no such note`);
    this.overrides.set(path, current + text);
  }

  replace(path: string, text: string): void {
    this.overrides.set(path, text);
  }

  delete(path: string): void {
    this.overrides.set(path, null);
  }

  /** Apply a scenario turn's edits, in order. */
  async apply(edits: readonly ScenarioEdit[]): Promise<void> {
    for (const edit of edits) {
      if ('append' in edit) await this.append(edit.note, edit.append);
      else this.replace(edit.note, edit.replace);
    }
  }
}
