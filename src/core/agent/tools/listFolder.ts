import { z } from 'zod';
import { defineTool, errorText } from '../tool';
import { VaultView } from '../vaultView';
import { insideFolder, normalizeFolder } from '../../vaultFolders';

export const LIST_LIMIT_LINES = 400;
export const LIST_DEFAULT_DEPTH = 2;

interface Folder {
  readonly folders: Map<string, Folder>;
  readonly notes: string[];
  count: number;
}

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function tree(paths: readonly string[], base: string): Folder {
  const root: Folder = { folders: new Map(), notes: [], count: 0 };
  for (const path of paths) {
    const parts = (base === '' ? path : path.slice(base.length + 1)).split('/');
    let folder = root;
    folder.count++;
    for (const part of parts.slice(0, -1)) {
      let child = folder.folders.get(part);
      if (!child) folder.folders.set(part, (child = { folders: new Map(), notes: [], count: 0 }));
      child.count++;
      folder = child;
    }
    folder.notes.push(parts[parts.length - 1]);
  }
  return root;
}

function render(folder: Folder, level: number, depth: number, out: string[]): void {
  const indent = '  '.repeat(level - 1);
  for (const name of [...folder.folders.keys()].sort(byCodePoint)) {
    const child = folder.folders.get(name) as Folder;
    out.push(level >= depth ? `${indent}${name}/ (${child.count} note${child.count === 1 ? '' : 's'})` : `${indent}${name}/`);
    if (level < depth) render(child, level + 1, depth, out);
  }
  for (const note of [...folder.notes].sort(byCodePoint)) out.push(`${indent}${note}`);
}

export const listFolder = defineTool({
  name: 'listFolder',
  description:
    'List the folders and markdown notes of a vault folder as an indented tree (two spaces per level): sub-folders first (ending with "/"), then notes, each sorted by name. ' +
    'A folder deeper than `depth` is shown with its note count instead of its contents. ' +
    `Use it to see how the vault is organized or to find a note's exact path (join the names from the listed folder down). At most ${LIST_LIMIT_LINES} lines; list a sub-folder to see more.`,
  schema: () => z.object({
    path: z.string().optional().describe('Folder to list, vault-relative (e.g. "Projects/2024"); default: the top of the vault (or of the project folder).'),
    depth: z.number().int().min(1).max(5).optional().describe(`How many levels to show (1-5, default ${LIST_DEFAULT_DEPTH}).`),
  }),
  async run({ path, depth = LIST_DEFAULT_DEPTH }, ctx) {
    const view = new VaultView(ctx.host);
    let base = normalizeFolder(path ?? '');
    if (base === '') base = view.scope;
    else if (view.scope !== '' && !insideFolder(base, view.scope)) {
      // A folder named from inside the project folder ("Notes" for "Project/Notes"), when it exists.
      const inner = `${view.scope}/${base}`;
      if ((await view.notes()).some((p) => insideFolder(p, inner))) base = inner;
    }
    const visibility = base === '' ? 'visible' : view.visibility(`${base}/x.md`);
    if (visibility !== 'visible') return errorText(view.refusal(base, visibility));
    const notes = await view.notes();
    let under = notes.filter((p) => insideFolder(p, base) && p !== base);
    if (under.length === 0 && base !== '') {
      const lower = base.toLowerCase();
      const folders = [...new Set(notes.map((p) => p.slice(0, p.lastIndexOf('/'))).flatMap((dir) => ancestors(dir)))].filter((f) => f.toLowerCase() === lower);
      if (folders.length === 1) {
        base = folders[0];
        under = notes.filter((p) => insideFolder(p, base));
      }
    }
    if (under.length === 0) {
      if (notes.includes(base) || notes.includes(`${base}.md`)) return errorText(`"${base}" is a note, not a folder: read it with readNote.`);
      if (base === view.scope) return base === '' ? 'The vault has no markdown notes.' : `The project folder "${base}" has no markdown notes.`;
      return errorText(`no folder "${base}" with markdown notes${view.scope ? ` in the project folder "${view.scope}"` : ''}. List ${view.scope ? 'the project folder' : 'the vault'} without a path to see its folders.`);
    }
    const lines: string[] = [];
    render(tree(under, base), 1, depth, lines);
    const where = base === '' ? 'the vault' : base === view.scope ? `the project folder "${base}/"` : `"${base}/"`;
    const header = `Contents of ${where}: ${under.length} note${under.length === 1 ? '' : 's'} (depth ${depth}).`;
    if (lines.length > LIST_LIMIT_LINES) {
      const more = lines.length - LIST_LIMIT_LINES;
      return [header, ...lines.slice(0, LIST_LIMIT_LINES), `… ${more} more line${more === 1 ? '' : 's'} not shown: list a sub-folder, or use a smaller depth.`].join('\n');
    }
    return [header, ...lines].join('\n');
  },
});

/** A folder and the folders above it ('a/b/c' → a, a/b, a/b/c). */
function ancestors(dir: string): string[] {
  if (dir === '') return [];
  const parts = dir.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
