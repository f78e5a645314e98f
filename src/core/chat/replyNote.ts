/** Longest note name made from a chat title (file systems allow 255 bytes; titles this long are rare). */
const MAX_NAME = 80;

/**
 * A note name from a chat's title: characters Obsidian does not allow in file names or that break
 * links (\ / : * ? " < > | # ^ [ ]) become spaces; an empty result is the fallback.
 */
export function noteNameFromTitle(title: string, fallback = 'Strata reply'): string {
  let name = [...title]
    .map((ch) => (ch.charCodeAt(0) < 32 ? ' ' : ch))
    .join('')
    .replace(/[\\/:*?"<>|#^[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  if (name.length > MAX_NAME) {
    const cut = name.slice(0, MAX_NAME);
    const space = cut.lastIndexOf(' ');
    name = (space > MAX_NAME / 2 ? cut.slice(0, space) : cut).trim();
  }
  name = name.replace(/[. ]+$/, '');
  return name || fallback;
}

/**
 * `folder/name.md`, or `folder/name 1.md`, `name 2.md`… when taken (Obsidian's own way of naming
 * "Untitled 1"). `taken` is asked with the full path; folder '' or '/' is the vault's root.
 */
export function uniqueNotePath(folder: string, name: string, taken: (path: string) => boolean): string {
  const base = folder === '/' ? '' : folder.replace(/\/+$/, '');
  const at = (n: number): string => `${base ? `${base}/` : ''}${n === 0 ? name : `${name} ${n}`}.md`;
  let n = 0;
  while (taken(at(n))) n++;
  return at(n);
}
