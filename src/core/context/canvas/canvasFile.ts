/**
 * A `.canvas` file read as JSON Canvas 1.0 (jsoncanvas.org): the nodes and edges the text
 * rendering needs, checked. A file that is not valid JSON Canvas throws CanvasError with what is
 * wrong and where; the file itself is never touched.
 */

export type CanvasNode =
  | (NodeBox & { readonly type: 'text'; readonly text: string })
  | (NodeBox & { readonly type: 'file'; readonly file: string; readonly subpath?: string })
  | (NodeBox & { readonly type: 'link'; readonly url: string })
  | (NodeBox & { readonly type: 'group'; readonly label?: string });

export interface NodeBox {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface CanvasEdge {
  readonly id: string;
  readonly fromNode: string;
  readonly toNode: string;
  readonly label?: string;
  /** `toEnd: 'none'` with `fromEnd: 'arrow'` points backwards; both ends arrows (or none) is two-way. */
  readonly direction: 'forward' | 'backward' | 'both' | 'none';
}

export interface CanvasDoc {
  readonly nodes: readonly CanvasNode[];
  readonly edges: readonly CanvasEdge[];
}

export class CanvasError extends Error {
  constructor(detail: string) {
    super(`not a valid JSON Canvas file: ${detail}`);
    this.name = 'CanvasError';
  }
}

export function isCanvasPath(path: string): boolean {
  return /\.canvas$/i.test(path);
}

/** The file's text as a canvas; an empty file is an empty canvas (Obsidian writes `{}` or nothing for a new one). */
export function parseCanvas(text: string): CanvasDoc {
  if (text.trim() === '') return { nodes: [], edges: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CanvasError(`the JSON does not parse (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(raw)) throw new CanvasError('the top level is not an object');
  const nodes = listOf(raw, 'nodes').map((n, i) => node(n, i));
  const ids = new Set<string>();
  for (const n of nodes) {
    if (ids.has(n.id)) throw new CanvasError(`two nodes have the id "${n.id}"`);
    ids.add(n.id);
  }
  const edges = listOf(raw, 'edges').map((e, i) => edge(e, i, ids));
  return { nodes, edges };
}

function listOf(raw: Record<string, unknown>, key: 'nodes' | 'edges'): unknown[] {
  const value = raw[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new CanvasError(`"${key}" is not a list`);
  return value;
}

function node(value: unknown, index: number): CanvasNode {
  const where = `node ${index + 1}`;
  if (!isRecord(value)) throw new CanvasError(`${where} is not an object`);
  const id = text(value, 'id', where);
  const at = `${where} ("${id}")`;
  const box: NodeBox = { id, x: num(value, 'x', at), y: num(value, 'y', at), width: num(value, 'width', at), height: num(value, 'height', at) };
  switch (value.type) {
    case 'text':
      return { ...box, type: 'text', text: text(value, 'text', at, true) };
    case 'file': {
      const subpath = optionalText(value, 'subpath', at);
      return { ...box, type: 'file', file: text(value, 'file', at), ...(subpath ? { subpath } : {}) };
    }
    case 'link':
      return { ...box, type: 'link', url: text(value, 'url', at) };
    case 'group': {
      const label = optionalText(value, 'label', at);
      return { ...box, type: 'group', ...(label ? { label } : {}) };
    }
    default:
      throw new CanvasError(`${at} has the unknown type ${JSON.stringify(value.type)}`);
  }
}

function edge(value: unknown, index: number, ids: ReadonlySet<string>): CanvasEdge {
  const where = `edge ${index + 1}`;
  if (!isRecord(value)) throw new CanvasError(`${where} is not an object`);
  const id = text(value, 'id', where);
  const at = `${where} ("${id}")`;
  const fromNode = text(value, 'fromNode', at);
  const toNode = text(value, 'toNode', at);
  for (const end of [fromNode, toNode]) if (!ids.has(end)) throw new CanvasError(`${at} points to the missing node "${end}"`);
  const label = optionalText(value, 'label', at);
  const fromArrow = value.fromEnd === 'arrow';
  const toArrow = value.toEnd !== 'none';
  const direction = fromArrow && toArrow ? 'both' : toArrow ? 'forward' : fromArrow ? 'backward' : 'none';
  return { id, fromNode, toNode, direction, ...(label ? { label } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: Record<string, unknown>, key: string, at: string, emptyOk = false): string {
  const v = value[key];
  if (typeof v !== 'string' || (!emptyOk && v === '')) throw new CanvasError(`${at} has no "${key}" text`);
  return v;
}

function optionalText(value: Record<string, unknown>, key: string, at: string): string | undefined {
  const v = value[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new CanvasError(`${at}: "${key}" is not text`);
  return v === '' ? undefined : v;
}

function num(value: Record<string, unknown>, key: string, at: string): number {
  const v = value[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new CanvasError(`${at} has no number "${key}"`);
  return v;
}
