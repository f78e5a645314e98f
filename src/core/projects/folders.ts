import { insideFolder, normalizeFolder } from '../vaultFolders';

export { insideFolder, normalizeFolder };

/**
 * Where a project's chats are saved: the `Chats` folder inside the project's folder. They are chats,
 * not sources: the search index, Vault QA, the agent's tools and attachments by folder or tag leave
 * that folder out, as they do the chat folder (chatFolders in ./projects.ts lists both).
 */
export const PROJECT_CHATS_SUBFOLDER = 'Chats';

/** A project folder's chats folder; null when the project has no folder (its chats go to the chat folder). */
export function projectChatsFolder(folder: string): string | null {
  const root = normalizeFolder(folder);
  return root === '' ? null : `${root}/${PROJECT_CHATS_SUBFOLDER}`;
}
