/** The longest title part of a chat note's file name, in characters (cut at a word). */
export const NOTE_NAME_MAX_CHARS = 48;

/**
 * A chat note's file name (without folder and `.md`) for its title: short, and free of what reads
 * badly in a file list or a link: web addresses, wiki and markdown link syntax (their text stays),
 * emphasis and heading marks, and the characters Obsidian or file systems reject.
 */
export function noteTitleName(title: string): string {
  const words = title
    .replace(/\[\[([^\]|]*)\|([^\]]*)\]\]/g, '$2')
    .replace(/\[\[([^\]]*)\]\]/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\b(?:https?|ftp|file):\/\/\S*/gi, ' ')
    .replace(/\bwww\.\S+/gi, ' ')
    .replace(/[*_`~=>]+/g, ' ');
  return shorten(fileSafe(words));
}

function shorten(name: string): string {
  if (name.length <= NOTE_NAME_MAX_CHARS) return name;
  const cut = name.slice(0, NOTE_NAME_MAX_CHARS + 1);
  const space = cut.lastIndexOf(' ');
  return (space > NOTE_NAME_MAX_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, NOTE_NAME_MAX_CHARS)).replace(/[\s.,;:!?-]+$/, '') || 'Chat';
}

/** A file name from a title: no characters Obsidian or file systems reject, bounded length. */
export function fileSafe(title: string): string {
  const clean = title
    .replace(/[\\/:*?"<>|#^[\]]/g, ' ')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/[\ud800-\udfff]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^\.+/, '')
    .trim();
  return (clean.length > 80 ? clean.slice(0, 80).trim() : clean) || 'Chat';
}
