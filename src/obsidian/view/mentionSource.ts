import { getAllTags, TFolder, type App } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import { fuzzyFilter, type Candidate } from '../../core/fuzzy';
import { shortUrl } from '../../core/context/urlChip';
import { openWebViewerTabs } from '../webViewerTabs';

export interface Mention {
  readonly chip: ContextChip;
  /** Shown in the picker. */
  readonly label: string;
  /** Secondary text (the folder a note lives in, "folder", "tag"). */
  readonly detail: string;
  /** What stays in the message where the `@query` was: `[[link]]`, the folder's name, `#tag`. */
  readonly text: string;
}

/**
 * Open Web viewer tabs, then notes, PDFs, folders and tags of the vault, for the `@` picker. Read fresh each time the picker opens.
 * `exclude`: a folder (the chat folder) whose notes and subfolders are not offered: chats are not context.
 */
export function vaultMentions(app: App, exclude: string | null = null): Candidate<Mention>[] {
  // Open Web viewer tabs first: with `@` alone they are what is on screen.
  const out: Candidate<Mention>[] = openWebViewerTabs(app).map(({ url, title }) => ({
    item: { chip: { kind: 'url', url, title }, label: title, detail: `Web viewer · ${shortUrl(url)}`, text: url },
    text: `${title} ${shortUrl(url)}`,
  }));
  const excluded = (path: string): boolean => exclude !== null && exclude !== '' && (path === exclude || path.startsWith(`${exclude}/`));
  const notes = app.vault.getMarkdownFiles().filter((f) => !excluded(f.path));
  notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of notes) {
    const folder = file.parent && file.parent.path !== '/' ? file.parent.path : '';
    const link = `[[${app.metadataCache.fileToLinktext(file, '', true)}]]`;
    out.push({ item: { chip: { kind: 'note', path: file.path }, label: file.basename, detail: folder, text: link }, text: file.path.replace(/\.md$/i, '') });
  }
  const pdfs = app.vault.getFiles().filter((f) => f.extension.toLowerCase() === 'pdf' && !excluded(f.path));
  pdfs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of pdfs) {
    const folder = file.parent && file.parent.path !== '/' ? file.parent.path : '';
    const link = `[[${app.metadataCache.fileToLinktext(file, '', false)}]]`;
    out.push({ item: { chip: { kind: 'pdf', path: file.path }, label: file.name, detail: folder ? `PDF · ${folder}` : 'PDF', text: link }, text: file.path });
  }
  // Canvases (issue 31): attached as their text.
  const canvases = app.vault.getFiles().filter((f) => f.extension === 'canvas' && !excluded(f.path));
  canvases.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of canvases) {
    out.push({ item: { chip: { kind: 'canvas', path: file.path }, label: file.basename, detail: 'Canvas', text: `[[${file.path}]]` }, text: file.path.replace(/\.canvas$/i, '') });
  }
  const folders = app.vault
    .getAllLoadedFiles()
    .filter((f): f is TFolder => f instanceof TFolder && f.path !== '/' && f.path !== '' && !excluded(f.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of folders) out.push({ item: { chip: { kind: 'folder', path: f.path }, label: `${f.path}/`, detail: 'Folder', text: f.name }, text: f.path });
  const tags = new Set<string>();
  for (const file of notes) {
    const cache = app.metadataCache.getFileCache(file);
    if (cache) for (const tag of getAllTags(cache) ?? []) tags.add(tag);
  }
  for (const tag of [...tags].sort()) out.push({ item: { chip: { kind: 'tag', tag }, label: tag, detail: 'Tag', text: tag }, text: tag });
  return out;
}

/** Longest text after `@` the picker searches with (a name with spaces fits; a whole sentence is not searched). */
const MAX_QUERY = 80;

/**
 * The `@` mention being typed before the caret: where its `@` is and what follows it, spaces
 * included ("@Lesson 4", "@Climate l"), up to a newline or another `@`; null when there is none.
 * The `@` starts the text or follows a space (an e-mail address is not a mention), and a space
 * right after it ("meet @ 5") is no mention either.
 */
export function mentionAt(before: string): { start: number; query: string } | null {
  const at = new RegExp(`(^|\\s)@((?:[^\\s@][^\\n@]{0,${MAX_QUERY - 1}})?)$`).exec(before);
  if (!at) return null;
  return { start: before.length - at[2].length - 1, query: at[2] };
}

export function matchMentions(query: string, candidates: readonly Candidate<Mention>[], limit = 12): Mention[] {
  return fuzzyFilter(query, candidates, limit);
}

/** The `@` picker's row for a typed or pasted http(s) address: "Attach web page <url>"; the address stays in the words. */
export function urlMention(url: string): Mention {
  return { chip: { kind: 'url', url }, label: 'Attach web page', detail: url, text: url };
}
