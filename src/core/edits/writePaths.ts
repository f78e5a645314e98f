import { insideFolder, normalizeFolder } from '../vaultFolders';

/**
 * Where the agent may write (issue 28): a note path as the model gives it, normalized the way
 * Obsidian's normalizePath does, then refused when it leaves the vault, is hidden (a dot folder or
 * file: .obsidian, .trash, .git), is in a folder chats are saved in or the user excluded, or leaves
 * the project's folder. Only markdown notes are written.
 */
export interface WriteRules {
  /** The project folder ('' = the whole vault). */
  readonly scope: string;
  /** Chat folders (and any other the tools never show). */
  readonly hidden: readonly string[];
  /** The user's excluded folders. */
  readonly excluded: readonly string[];
}

export type CheckedPath = { readonly path: string } | { readonly error: string };

/** Characters no note name may hold on some system Obsidian runs on (Windows, Android, iOS). */
const FORBIDDEN_CHARS = /[\\:*?"<>|#^[\]]/;

/** A control character (a line break, a tab, NUL) in a name. */
function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) < 0x20) return true;
  return false;
}

export function checkWritePath(input: string, rules: WriteRules): CheckedPath {
  const raw = input.trim().replace(/\\/g, '/');
  if (raw === '') return { error: 'the path is empty.' };
  if (/^[a-zA-Z]:/.test(raw) || raw.startsWith('~')) return { error: `"${input}" is not a vault path: give a path relative to the vault root.` };
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return { error: `"${input}" leaves the vault ("..").` };
  if (parts.length === 0) return { error: `"${input}" names no note.` };
  const name = parts[parts.length - 1];
  const withExt = /\.md$/i.test(name) ? parts : [...parts.slice(0, -1), `${name}.md`];
  const path = withExt.join('/').normalize('NFC');
  if (withExt.some((p) => p.startsWith('.'))) return { error: `"${path}" is in a hidden folder or is a hidden file: the agent never writes there.` };
  const bad = withExt.find((p) => FORBIDDEN_CHARS.test(p) || hasControl(p));
  if (bad !== undefined) return { error: `"${bad}" holds a character a note name cannot have (\\ : * ? " < > | # ^ [ ]).` };
  if (withExt.some((p) => p.trim() !== p)) return { error: `"${path}": a folder or note name may not start or end with a space.` };
  if (rules.hidden.some((f) => insideFolder(path, normalizeFolder(f)) && normalizeFolder(f) !== '')) return { error: `"${path}" is in a folder where chats are saved: the agent never writes there.` };
  const excluded = rules.excluded.map(normalizeFolder).find((f) => f !== '' && insideFolder(path, f));
  if (excluded !== undefined) return { error: `"${path}" is in "${excluded}", a folder you excluded: the agent never writes there.` };
  const scope = normalizeFolder(rules.scope);
  if (!insideFolder(path, scope)) return { error: `"${path}" is outside the project folder "${scope}": the agent only writes inside it.` };
  return { path };
}
