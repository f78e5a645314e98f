import { makeItem, noteId, basename, type ContextItem } from '../items';
import { CanvasError, parseCanvas } from './canvasFile';
import { canvasText } from './canvasText';

/** A canvas file's item (id = its path, like a note's), or why it is not valid JSON Canvas (for the chip's problem). */
export function canvasItem(path: string, fileText: string): ContextItem | { readonly invalid: string } {
  try {
    const content = canvasText(path, parseCanvas(fileText));
    return makeItem({ id: noteId(path), kind: 'canvas', title: basename(path), source: path, content });
  } catch (error) {
    if (!(error instanceof CanvasError)) throw error;
    return { invalid: `${path} is ${error.message}` };
  }
}
