import type { CanvasDoc, CanvasEdge, CanvasNode } from './canvasFile';

/**
 * A canvas as the text the model reads (issue 31): every node in reading order (by position: top
 * to bottom, then left to right, ties by id), text nodes with their text, file nodes as references
 * to those notes, link nodes with their address, groups with their label and the nodes inside them,
 * then the edges as "A → B (label)". Depends on the file's content only, so the same canvas renders
 * the same bytes on every turn and after reopening.
 */
export function canvasText(path: string, doc: CanvasDoc): string {
  const nodes = [...doc.nodes].sort(byPosition);
  const name = new Map(nodes.map((n) => [n.id, `${shortName(n)} [${n.id}]`]));
  const groupOf = innermostGroups(nodes);
  const members = new Map<string, string[]>();
  for (const n of nodes) {
    const group = groupOf.get(n.id);
    if (group !== undefined) members.set(group, [...(members.get(group) ?? []), n.id]);
  }
  const head = `Canvas ${path}: ${count(nodes.length, 'node')}, ${count(doc.edges.length, 'edge')}. Nodes in reading order (top to bottom, left to right).`;
  const blocks = nodes.map((n) => nodeBlock(n, name, members.get(n.id) ?? [], groupOf.get(n.id)));
  const edges = [...doc.edges].sort(byEnds(nodes)).map((e) => `- ${edgeLine(e, name)}`);
  return [head, ...blocks, ...(edges.length > 0 ? [`Edges:\n${edges.join('\n')}`] : [])].join('\n\n');
}

/** The notes a canvas's file nodes point to, once each, in reading order (for "Attach linked notes"). */
export function canvasFiles(doc: CanvasDoc): string[] {
  const out: string[] = [];
  for (const n of [...doc.nodes].sort(byPosition)) if (n.type === 'file' && !out.includes(n.file)) out.push(n.file);
  return out;
}

function nodeBlock(n: CanvasNode, name: ReadonlyMap<string, string>, inside: readonly string[], group: string | undefined): string {
  const where = group !== undefined ? ` (in ${name.get(group) ?? group})` : '';
  switch (n.type) {
    case 'text':
      return `Text [${n.id}]${where}:\n${n.text.trim() === '' ? '(empty)' : n.text.trimEnd()}`;
    case 'file':
      return `File [${n.id}]${where}: ${fileRef(n.file, n.subpath)}`;
    case 'link':
      return `Link [${n.id}]${where}: ${n.url}`;
    case 'group': {
      const label = n.label !== undefined ? `"${oneLine(n.label)}"` : '(no label)';
      const list = inside.length > 0 ? inside.map((id) => name.get(id) ?? id).join(', ') : 'nothing';
      return `Group ${label} [${n.id}]${where}: contains ${list}`;
    }
  }
}

/** A file node: a note as a wikilink (the model can ask for it by path), other files by path. */
function fileRef(file: string, subpath: string | undefined): string {
  const target = `${file}${subpath ?? ''}`;
  return /\.md$/i.test(file) && !/[[\]|]/.test(target) ? `[[${target}]]` : target;
}

function edgeLine(e: CanvasEdge, name: ReadonlyMap<string, string>): string {
  const from = name.get(e.fromNode) ?? e.fromNode;
  const to = name.get(e.toNode) ?? e.toNode;
  const arrow = { forward: '→', backward: '←', both: '↔', none: '—' }[e.direction];
  return `${from} ${arrow} ${to}${e.label !== undefined ? ` (${oneLine(e.label)})` : ''}`;
}

/** How a node is named in groups and edges: a text's first line, a file's name, a link's address, a group's label. */
function shortName(n: CanvasNode): string {
  switch (n.type) {
    case 'text': {
      const first = n.text.split('\n').map((l) => l.replace(/^#+\s*/, '').trim()).find((l) => l !== '') ?? '';
      return first === '' ? 'Text' : `"${clip(first, 40)}"`;
    }
    case 'file':
      return (n.file.split('/').pop() ?? n.file).replace(/\.md$/i, '') + (n.subpath ?? '');
    case 'link':
      return n.url;
    case 'group':
      return n.label !== undefined ? `Group "${clip(oneLine(n.label), 40)}"` : 'Group';
  }
}

/** Each node's innermost enclosing group (the smallest by area whose box holds it whole; ties by id). */
function innermostGroups(nodes: readonly CanvasNode[]): Map<string, string> {
  const groups = nodes.filter((n) => n.type === 'group');
  const out = new Map<string, string>();
  for (const n of nodes) {
    let best: CanvasNode | undefined;
    for (const g of groups) {
      if (g.id === n.id || !inside(n, g) || (inside(g, n) && g.id > n.id)) continue;
      if (!best || area(g) < area(best) || (area(g) === area(best) && g.id < best.id)) best = g;
    }
    if (best) out.set(n.id, best.id);
  }
  return out;
}

function inside(n: CanvasNode, g: CanvasNode): boolean {
  return n.x >= g.x && n.y >= g.y && n.x + n.width <= g.x + g.width && n.y + n.height <= g.y + g.height;
}

const area = (n: CanvasNode) => n.width * n.height;

function byPosition(a: CanvasNode, b: CanvasNode): number {
  return a.y - b.y || a.x - b.x || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Edges in the reading order of their ends, ties by id. */
function byEnds(nodes: readonly CanvasNode[]): (a: CanvasEdge, b: CanvasEdge) => number {
  const rank = new Map(nodes.map((n, i) => [n.id, i]));
  const r = (id: string) => rank.get(id) ?? 0;
  return (a, b) => r(a.fromNode) - r(b.fromNode) || r(a.toNode) - r(b.toNode) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
