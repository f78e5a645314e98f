import type { VaultReader } from '../../ports/vault';
import { CanvasError, isCanvasPath, parseCanvas } from './canvasFile';
import { canvasText } from './canvasText';

/**
 * A canvas named by path, as text (the agent's readNote reads a `.canvas` file as its rendering, not
 * its JSON): the text, null when there is no such file, or why it does not read.
 */
export async function readCanvasText(vault: VaultReader, path: string): Promise<{ text: string } | { error: string } | null> {
  if (!isCanvasPath(path)) return null;
  let raw: string | null;
  try {
    raw = await vault.read(path);
  } catch (error) {
    return { error: `${path} could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
  if (raw === null) return null;
  try {
    return { text: canvasText(path, parseCanvas(raw)) };
  } catch (error) {
    if (error instanceof CanvasError) return { error: `${path} is ${error.message}.` };
    throw error;
  }
}
