import { insideFolder, normalizeFolder } from '../vaultFolders';

/**
 * What the agent may write (issue 28), set for all chats (settings), a project, or one chat:
 * - 'ask': every change is a proposal the user reviews (the default);
 * - 'auto': changes to notes inside `folders` apply without asking, others are asked;
 * - 'read-only': no write tools are offered (their definitions cost no tokens either).
 */
export const WRITE_MODES = ['ask', 'auto', 'read-only'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

export interface WritePolicy {
  readonly mode: WriteMode;
  /** For 'auto': vault-relative folders ('' = the whole vault). */
  readonly folders: readonly string[];
}

export const DEFAULT_WRITE_POLICY: WritePolicy = { mode: 'ask', folders: [] };

/** The chat's own policy, else its project's, else the settings'. */
export function effectiveWritePolicy(chat: WritePolicy | undefined, project: WritePolicy | undefined, settings: WritePolicy): WritePolicy {
  return chat ?? project ?? settings;
}

/** Whether a change to `path` (and, for a move, to `newPath`) is applied without a review. */
export function appliesWithoutAsking(policy: WritePolicy, path: string, newPath?: string): boolean {
  if (policy.mode !== 'auto') return false;
  const inside = (p: string) => policy.folders.some((f) => insideFolder(p, normalizeFolder(f)));
  return inside(path) && (newPath === undefined || inside(newPath));
}

/** One line for the settings and the chat: "Ask each time", "Apply without asking in Inbox, Daily", "Read-only". */
export function describeWritePolicy(policy: WritePolicy): string {
  if (policy.mode === 'read-only') return 'Read-only';
  if (policy.mode === 'ask') return 'Ask each time';
  const folders = policy.folders.map((f) => normalizeFolder(f) || 'the whole vault');
  return folders.length === 0 ? 'Ask each time (no folder chosen to apply without asking)' : `Apply without asking in ${folders.join(', ')}`;
}
