import type { ChatMessage } from '../engine/messages';
import { sha256Hex } from '../hash';
import type { StrataSettings } from '../settings/settings';
import { excerpt, firstLine, sideCall, SideCallError, type SideCallDeps } from '../sideCall';
import type { QueryRewrite, TurnSearch } from '../conversation/records/search';

/** How long a rewrite may take before the message is searched as it is. */
export const REWRITE_TIMEOUT_MS = 20_000;
/** The turns before the message the rewrite reads (the newest ones), and how much of each. */
const CONTEXT_TURNS = 3;
const EXCERPT_CHARS = 800;
const MAX_QUERY_CHARS = 300;

/** The rewrite prompt. Fixed text: the same message after the same conversation makes the same request. */
export const REWRITE_INSTRUCTIONS = [
  "You turn a user's follow-up message in a conversation into a standalone search query over their notes.",
  'Fold in what the message refers to from the conversation (names, topics, "it", "that one"), keep its language and its key terms.',
  'Reply with the query only, on one line: no quotes, no preamble, no answer to the question.',
].join('\n');

/** A turn before the message, as the model saw it. */
export interface PriorExchange {
  readonly userText: string;
  readonly reply: string;
}

/** The cache key: the message and the conversation up to it (the whole of it: an edit earlier changes the key). */
export function rewriteKey(message: string, prior: readonly PriorExchange[]): string {
  return sha256Hex(JSON.stringify([message, ...prior.map((t) => [t.userText, t.reply])])).slice(0, 32);
}

export function rewriteMessages(message: string, prior: readonly PriorExchange[]): ChatMessage[] {
  const conversation = prior
    .slice(-CONTEXT_TURNS)
    .map((t) => `User: ${excerpt(t.userText, EXCERPT_CHARS)}\nAssistant: ${excerpt(t.reply, EXCERPT_CHARS)}`)
    .join('\n\n');
  return [
    { role: 'system', content: REWRITE_INSTRUCTIONS },
    { role: 'user', content: `Conversation:\n${conversation}\n\nFollow-up message:\n${message.trim()}\n\nStandalone search query:` },
  ];
}

/** The model's reply as a query: its first non-empty line without a "Query:" lead or quotes; null when nothing is left. */
export function cleanQuery(raw: string): string | null {
  const line = firstLine(raw);
  if (!line) return null;
  const query = line
    .replace(/^(?:standalone\s+)?(?:search\s+)?query\s*:\s*/i, '')
    .replace(/^["'“”«»`]+|["'“”«»`]+$/g, '')
    .trim()
    .slice(0, MAX_QUERY_CHARS);
  return query.length > 0 ? query : null;
}

/** `signal` is the turn's: the user's stop stops the rewrite and the turn. */
export interface RewriteDeps extends SideCallDeps {
  readonly timeoutMs?: number;
}

/** Rewritten queries of one chat by key (the controller keeps one per open chat). */
export type RewriteCache = Map<string, string>;

/** A reopened chat's cache: the rewrites its turns recorded (a regenerate after reopening does not pay again). */
export function rewriteCacheOf(turns: ReadonlyArray<{ readonly search?: TurnSearch }>): RewriteCache {
  const cache: RewriteCache = new Map();
  for (const t of turns) {
    const r = t.search?.rewrite;
    if (r && r.key && (r.status === 'rewritten' || r.status === 'cached')) cache.set(r.key, t.search.query);
  }
  return cache;
}

/**
 * The query a Vault QA turn searches with: the message itself on the first turn; from the second,
 * a standalone rewrite on the summary model (the chat's own when none is set), from the cache when
 * the same message after the same conversation was rewritten before. Any failure (no provider, an
 * error, the timeout, an empty reply) searches the message as it is and says why in the record.
 * Only the user's stop throws.
 */
export async function searchQuery(
  settings: StrataSettings,
  chat: { readonly provider: string; readonly model: string },
  message: string,
  prior: readonly PriorExchange[],
  cache: RewriteCache,
  deps: RewriteDeps,
): Promise<{ query: string; rewrite?: QueryRewrite }> {
  if (prior.length === 0) return { query: message };
  const key = rewriteKey(message, prior);
  const cached = cache.get(key);
  if (cached !== undefined) return { query: cached, rewrite: { status: 'cached', key } };
  try {
    const { text, call } = await sideCall(settings, chat, rewriteMessages(message, prior), deps.timeoutMs ?? REWRITE_TIMEOUT_MS, deps);
    const query = cleanQuery(text);
    if (!query) return { query: message, rewrite: { status: 'failed', key, detail: 'the model returned no query', ...call } };
    cache.set(key, query);
    return { query, rewrite: { status: 'rewritten', key, ...call } };
  } catch (error) {
    if (!(error instanceof SideCallError)) throw error;
    return { query: message, rewrite: { status: 'failed', key, detail: error.message } };
  }
}
