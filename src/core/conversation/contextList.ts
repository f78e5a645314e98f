import type { ChatTurn, ItemRef } from './model';

/**
 * A turn's context list in the chat note, both ways: written for people (what went in full, then
 * what was attached again by reference, then what could not be attached), and read back to rebuild
 * the library when the chat data is lost.
 */

/** The context callout of a turn from the library items it names (null when it names none). */
export function contextList(turn: ChatTurn, full: readonly (ItemRef | undefined)[], again: readonly (ItemRef | undefined)[]): string | null {
  const lines: string[] = [];
  for (const item of full) if (item) lines.push(contextLine(item, item.version > 1 ? `v${item.version}` : ''));
  turn.referenced.forEach((id, i) => {
    const item = again[i];
    lines.push(item ? contextLine(item, 'again') : `- ${code(id)} · again`);
  });
  for (const problem of turn.problems) lines.push(`- ${code(problem.chipId)} · not attached (${problem.reason})`);
  if (lines.length === 0) return null;
  return `> [!strata-context]- Context (${lines.length})\n${lines.map((l) => `> ${l}`).join('\n')}\n\n`;
}

/**
 * Names shown in the context list (paths, ids, tags) are free text: a file name may hold a line
 * break (legal on Linux and macOS), which would put a line of its own, a forged heading, into the
 * note. Line breaks, other control characters and U+2028/U+2029 are shown as `\uXXXX` instead;
 * refFromContextLine reads them back.
 */
const UNSAFE_INLINE = /[\p{Cc}\u2028\u2029]/gu;
const HAS_UNSAFE = /[\p{Cc}\u2028\u2029]/u;

function inline(text: string): string {
  return text.replace(UNSAFE_INLINE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function uninline(text: string): string {
  return text.replace(/\\u([0-9a-f]{4})/g, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return HAS_UNSAFE.test(c) ? c : escape;
  });
}

/** A name as inline code (backticks cannot be escaped inside one: they become quotes). */
function code(text: string): string {
  return `\`${inline(text).replace(/`/g, "'")}\``;
}

function link(path: string): string {
  return /[[\]|#^]/.test(path) || HAS_UNSAFE.test(path) ? code(path) : `[[${path}]]`;
}

function contextLine(item: ItemRef, note: string): string {
  const suffix = [note, item.via ? `via ${inline(item.via)}` : ''].filter(Boolean).map((s) => ` · ${s}`).join('');
  switch (item.kind) {
    case 'note':
    case 'canvas':
      return `- ${link(item.source)}${suffix}`;
    case 'dataview':
      return `- ${link(item.source)} · Dataview ${code(item.id.slice(item.id.lastIndexOf('#') + 1))}${suffix}`;
    case 'selection': {
      const range = /#L(\d+)-L(\d+)$/.exec(item.id);
      return `- ${link(item.source)} · lines ${range ? `${range[1]}-${range[2]}` : '?'}${suffix}`;
    }
    case 'folder':
      return `- Folder: ${code(item.source)}${suffix}`;
    case 'tag':
      return `- Tag: ${inline(item.source)}${suffix}`;
    case 'url':
      return `- URL: <${item.source.replace(/[<>\s\p{Cc}]/gu, encodeURIComponent)}>${suffix}`;
    case 'pdf':
      return `- PDF: ${link(item.source)}${suffix}`;
  }
}

/**
 * Metadata lost: rebuild library refs from the context lists people can read. Hashes are unknown,
 * so every item will count as changed on load (reported as note-edited), but nothing is forgotten.
 */
export function libraryFromContext(bodyTurns: readonly { readonly context: readonly string[] }[], turns: readonly ChatTurn[], warnings: string[]): ItemRef[] {
  const refs: ItemRef[] = [];
  const seen = new Set<string>();
  let engineTurn = 0;
  bodyTurns.forEach((body, i) => {
    if (turns[i]?.status !== 'complete') return;
    engineTurn++;
    for (const line of body.context) {
      const ref = refFromContextLine(line, engineTurn);
      if (!ref || seen.has(ref.id)) continue;
      seen.add(ref.id);
      refs.push(ref);
    }
  });
  if (refs.length > 0) warnings.push(`the Context Library was rebuilt from the context lists (${refs.length} item(s)); their versions are unknown`);
  return refs;
}

function refFromContextLine(line: string, turn: number): ItemRef | null {
  const base = { version: 1, hash: '', tokens: 0, enteredTurn: turn };
  const viaText = / · via (\S+)/.exec(line)?.[1];
  const via = viaText === undefined ? undefined : uninline(viaText);
  const linkMatch = /^- (?:\[\[([^\]]+)\]\]|`([^`]+)`)(?: · lines (\d+)-(\d+))?/.exec(line);
  if (line.startsWith('- Folder: `')) {
    const path = uninline(/`([^`]*)`/.exec(line)?.[1] ?? '');
    return { ...base, id: `folder:${path}`, kind: 'folder', title: path || '/', source: path || '/' };
  }
  if (line.startsWith('- Tag: ')) {
    const tag = uninline(line.slice(7).split(' · ')[0].trim());
    return { ...base, id: `tag:${tag}`, kind: 'tag', title: tag, source: tag };
  }
  if (line.startsWith('- PDF: ')) {
    const m = /^- PDF: (?:\[\[([^\]]+)\]\]|`([^`]+)`)/.exec(line);
    if (!m) return null;
    const path = m[1] ?? uninline(m[2]);
    return { ...base, id: path, kind: 'pdf', title: path.split('/').pop() ?? path, source: path };
  }
  if (line.startsWith('- URL: ')) return null; // page text lives with the library item; without it nothing can be rebuilt
  if (!linkMatch || line.includes('· not attached')) return null;
  const path = linkMatch[1] ?? uninline(linkMatch[2]);
  const name = (path.split('/').pop() ?? path).replace(/\.md$/i, '');
  if (line.includes(' · Dataview `')) return null; // rebuilt with its note: a note attached again brings its blocks
  if (/\.canvas$/i.test(path)) return { ...base, id: path, kind: 'canvas', title: name.replace(/\.canvas$/i, ''), source: path };
  if (linkMatch[3]) {
    const id = `${path}#L${linkMatch[3]}-L${linkMatch[4]}`;
    return { ...base, id, kind: 'selection', title: `${name} (lines ${linkMatch[3]}-${linkMatch[4]})`, source: path };
  }
  return { ...base, id: path, kind: 'note', title: name, source: path, ...(via ? { via } : {}) };
}
