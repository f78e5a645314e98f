import type { VaultSearch } from '../search/types';
import type { VaultReader } from './vault';

/** A web page as the agent's fetchUrl tool reads it: already converted to markdown by the host. */
export interface FetchedPage {
  /** The page's address after redirects. */
  readonly url: string;
  /** The HTML <title>, when there was one. */
  readonly title?: string;
  /** The page as markdown (HTML converted; a text page as it is). Empty when the status is an error. */
  readonly markdown: string;
  /** The HTTP status; >= 400 is an error the tool reports (the host does not throw for it). */
  readonly status?: number;
}

/**
 * What the agent's read-only tools (issue 14) run against: the vault, its search, and what only the
 * host knows (the open note, the link graph, the network). Obsidian and Node each implement it
 * (src/obsidian/toolHost.ts, src/node/toolHost.ts). Hosts throw for failures (network down, a page
 * that is not HTML or text); the tools turn every failure into a clear text for the model.
 */
export interface ToolHost {
  readonly vault: VaultReader;
  /** The vault search (null while the index is being built: the tool then says so). */
  search(): VaultSearch | null;
  /** Project scope: a folder (vault-relative, no trailing slash) the tools stay inside; undefined = whole vault. */
  readonly scope?: string;
  /** Folders the tools never show (the chat folder: chats are not sources). */
  readonly hidden?: readonly string[];
  /** Path of the note open in the editor (null: none is open). Absent: the host cannot tell. */
  activeNote?(): Promise<string | null>;
  /** Notes linking to path, sorted by code point; null = unknown. Absent: the host cannot tell. */
  backlinks?(path: string): Promise<string[] | null>;
  /**
   * GET an http(s) page and convert it to markdown. Absent: the host cannot fetch. The agent's
   * fetches: unless allowLocalAddresses() says so, the host refuses local addresses (its names
   * resolved where it can, every redirect hop where it sees them) with a LocalAddressError.
   */
  fetchUrl?(url: string, signal: AbortSignal): Promise<FetchedPage>;
  /** Whether the agent may fetch local addresses (the setting, off by default). Absent: never. */
  allowLocalAddresses?(): boolean;
}
