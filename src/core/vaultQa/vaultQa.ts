import type { ToolOutput } from '../engine/types';
import type { StrataSettings } from '../settings/settings';
import { chatFolders } from '../projects/projects';
import { insideFolder, normalizeFolder } from '../vaultFolders';
import type { VaultSearch } from '../search/types';
import { localSearchBlock } from './localSearchBlock';
import { searchQuery, type PriorExchange, type RewriteCache, type RewriteDeps } from './queryRewrite';
import type { TurnSearch } from '../conversation/records/search';

/** The chat mode that searches the vault every turn. */
export const VAULT_QA_MODE = 'vault-qa';
/** Hits per search, and at most this many from one note (so one long note cannot fill the block). */
export const VAULT_QA_RESULTS = 8;
export const VAULT_QA_PER_NOTE = 3;

export const INDEX_NOT_READY =
  'The vault index is not ready yet, so Vault QA cannot search your notes: nothing was sent. Your message is kept: retry once the index is built (or switch to the Chat mode).';

/** The search is not available (the index is still being built): the turn is not sent. */
export class IndexNotReadyError extends Error {
  readonly userMessage = INDEX_NOT_READY;
  constructor() {
    super(INDEX_NOT_READY);
    this.name = 'IndexNotReadyError';
  }
}

export interface VaultQaDeps extends RewriteDeps {
  readonly search: VaultSearch | null;
  readonly cache: RewriteCache;
}

/**
 * A Vault QA turn's search: the query (the message, or its standalone rewrite), the hits, and the
 * localSearch block that carries them as the turn's tool output. `chat.scope`: a project's folder,
 * the only one hits come from.
 */
export async function vaultQaSearch(
  settings: StrataSettings,
  chat: { readonly provider: string; readonly model: string; readonly scope?: string },
  message: string,
  prior: readonly PriorExchange[],
  deps: VaultQaDeps,
): Promise<{ tool: ToolOutput; search: TurnSearch }> {
  if (!deps.search) throw new IndexNotReadyError();
  const { query, rewrite } = await searchQuery(settings, chat, message, prior, deps.cache, deps);
  const scope = normalizeFolder(chat.scope ?? '');
  // A project asks for more: the hits outside its folder are dropped after.
  const hits = await deps.search.search(query, { k: scope ? VAULT_QA_RESULTS * 4 : VAULT_QA_RESULTS, perNote: VAULT_QA_PER_NOTE, signal: deps.signal });
  if (deps.signal.aborted) throw new DOMException('The reply was stopped.', 'AbortError');
  // Chats are not sources (the index leaves their folders out by default; a chat citing a chat would echo itself).
  const chats = chatFolders(settings);
  const kept = hits.filter((h) => h.score > 0 && insideFolder(h.path, scope) && !chats.some((f) => insideFolder(h.path, f))).slice(0, VAULT_QA_RESULTS);
  const { tool, sources } = localSearchBlock(query, kept);
  return { tool, search: { query, sources, ...(rewrite ? { rewrite } : {}) } };
}
