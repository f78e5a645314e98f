import { normalizeChatFolder } from '../vaultFolders';
import type { VaultReader } from '../ports/vault';
import { extractTags, tagMatches } from './tags';

/** The tag the Copilot plugin puts on every chat it saves. */
export const COPILOT_CHAT_TAG = '#copilot-conversation';

/**
 * The vault as a chat's context sees it: chat notes are not listed, so a folder or tag listing never
 * takes in chats, Strata's own (the chats folder) or Copilot's saved ones (tagged
 * #copilot-conversation). A chat names the tags and notes it used ("- Tag: #seedlings"): listed,
 * a Strata chat joined the very tag listing it had attached once it was saved, and reopening it
 * reported the listing as edited (a false `note-edited` prefix break); an imported Copilot chat
 * pulled its own transcript in as context. A chat note can still be read, and attached, by its path.
 */
export function withoutChatNotes(vault: VaultReader, chatFolder: () => string | readonly string[]): VaultReader {
  const isCopilotChat = async (path: string): Promise<boolean> => {
    const tags = (await vault.tagsOf?.(path)) ?? extractTags((await vault.read(path).catch(() => null)) ?? '');
    return tags.some((t) => tagMatches(t, COPILOT_CHAT_TAG));
  };
  return {
    read: (path) => vault.read(path),
    listMarkdown: async () => {
      // The chat folder, or every folder chats are saved in (projects' chats folders too).
      const given = chatFolder();
      const folders = (typeof given === 'string' ? [given] : given).map((f) => `${normalizeChatFolder(f)}/`);
      const out: string[] = [];
      for (const path of await vault.listMarkdown()) if (!folders.some((f) => path.startsWith(f)) && !(await isCopilotChat(path))) out.push(path);
      return out;
    },
    ...(vault.tagsOf ? { tagsOf: vault.tagsOf.bind(vault) } : {}),
    ...(vault.readBinary ? { readBinary: vault.readBinary.bind(vault) } : {}),
    ...(vault.resolveLink ? { resolveLink: vault.resolveLink.bind(vault) } : {}),
    ...(vault.readPdf ? { readPdf: vault.readPdf.bind(vault) } : {}),
    // Asked each turn: Dataview may be turned on or off while the chat is open.
    get dataview() {
      return vault.dataview;
    },
  };
}
