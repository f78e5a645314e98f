import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { App } from './app';
import { TFile, type TAbstractFile, type TFolder } from './files';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/;

/** Obsidian's FileManager: frontmatter edits (with the `yaml` package), trash, rename, links. */
export class FileManager {
  constructor(private readonly app: Pick<App, 'vault' | 'metadataCache'>) {}

  async processFrontMatter(file: TFile, fn: (frontmatter: Record<string, unknown>) => void, options?: { ctime?: number; mtime?: number }): Promise<void> {
    await this.app.vault.process(
      file,
      (text) => {
        const m = FRONTMATTER.exec(text);
        let data: Record<string, unknown> = {};
        if (m) {
          const parsed: unknown = parseYaml(m[1]);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
          else if (parsed !== null && parsed !== undefined) throw new Error('Frontmatter is not a YAML mapping');
        }
        fn(data);
        const body = m ? text.slice(m[0].length) : text;
        if (!m && Object.keys(data).length === 0) return text;
        const yaml = Object.keys(data).length ? stringifyYaml(data) : '';
        return `---\n${yaml}---\n${body}`;
      },
      options,
    );
  }

  async trashFile(file: TAbstractFile): Promise<void> {
    await this.app.vault.trash(file, true);
  }

  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    await this.app.vault.rename(file, newPath);
  }

  generateMarkdownLink(file: TFile, sourcePath: string, subpath?: string, alias?: string): string {
    const text = this.app.metadataCache.fileToLinktext(file, sourcePath, true);
    return `[[${text}${subpath ?? ''}${alias ? `|${alias}` : ''}]]`;
  }

  getNewFileParent(_sourcePath: string, _newFilePath?: string): TFolder {
    return this.app.vault.getRoot();
  }

  async promptForDeletion(file: TAbstractFile): Promise<boolean> {
    await this.trashFile(file);
    return true;
  }

  getAvailablePathForAttachment(filename: string): Promise<string> {
    return Promise.resolve(filename);
  }

  isFile(f: unknown): f is TFile {
    return f instanceof TFile;
  }
}
