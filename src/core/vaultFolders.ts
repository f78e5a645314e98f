/*
 * Folder paths as the core compares them, shared by the agent's tools, projects, Vault QA, the
 * archive and the settings (a neutral home, so none of them borrows from another).
 */

/** A folder path as the tools compare it: '/' separators, no leading, trailing or doubled slashes. */
export function normalizeFolder(folder: string): string {
  return folder
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** Is path the folder itself or inside it ('' = the vault root, which holds everything)? */
export function insideFolder(path: string, folder: string): boolean {
  return folder === '' || path === folder || path.startsWith(`${folder}/`);
}

export const DEFAULT_CHAT_FOLDER = 'Strata/Chats';

/** The chats folder as the archive uses it: the same shape Obsidian's normalizePath gives, so paths match the vault's. */
export function normalizeChatFolder(folder: string): string {
  return folder.replace(/\\/g, '/').replace(/\/+/g, '/').replace(/^\/+|\/+$/g, '').trim() || DEFAULT_CHAT_FOLDER;
}
