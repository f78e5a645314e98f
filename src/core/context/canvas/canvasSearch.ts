import type { VaultReader } from '../../ports/vault';
import { UnreadableNoteError } from '../vaultReader';
import { isCanvasPath } from './canvasFile';
import { readCanvasText } from './canvasRead';

/**
 * The vault as the search index reads it (issue 31: Vault QA over canvases): its notes and its
 * canvases, a canvas read as its text rendering (never its JSON), so localSearch finds a canvas's
 * cards and cites it by path, and readNote reads it the same way. A canvas that is not valid JSON
 * Canvas is not indexed (UnreadableNoteError, as for a file that does not read).
 */
export function withCanvasText(vault: VaultReader, listCanvases: () => Promise<string[]>): VaultReader {
  return {
    read: async (path) => {
      if (!isCanvasPath(path)) return vault.read(path);
      const canvas = await readCanvasText(vault, path);
      if (canvas === null) return null;
      if ('error' in canvas) throw new UnreadableNoteError(path, 'unreadable', canvas.error);
      return canvas.text;
    },
    listMarkdown: async () => [...(await vault.listMarkdown()), ...(await listCanvases())].sort(), // code-unit order, as `<`
    ...(vault.stat ? { stat: vault.stat.bind(vault) } : {}),
    ...(vault.statNow ? { statNow: vault.statNow.bind(vault) } : {}),
    ...(vault.tagsOf ? { tagsOf: vault.tagsOf.bind(vault) } : {}),
  };
}
