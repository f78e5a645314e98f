/**
 * How the engine treats a library note whose text changed since it was sent.
 * - fresh (default): send the new version, appended where the conversation is now; nothing already
 *   sent is rewritten. Checks every note in the library, attached this turn or not.
 * - fresh-attached: the same, but only for notes attached this turn; others are reported stale.
 * - stable: keep the library copy (cache-friendly, possibly stale) and report it.
 */
export const FRESHNESS_POLICIES = ['fresh', 'fresh-attached', 'stable'] as const;
export type FreshnessPolicy = (typeof FRESHNESS_POLICIES)[number];

export function sendsUpdate(policy: FreshnessPolicy, attachedThisTurn: boolean): boolean {
  return policy === 'fresh' || (policy === 'fresh-attached' && attachedThisTurn);
}
