/* The engine's choices a user sets (data.json), beside the other settings; src/core/engine re-exports these names. */

/**
 * How the engine treats a library note whose text changed since it was sent.
 * - fresh (default): send the new version, appended where the conversation is now; nothing already
 *   sent is rewritten. Checks every note in the library, attached this turn or not.
 * - fresh-attached: the same, but only for notes attached this turn; others are reported stale.
 * - stable: keep the library copy (cache-friendly, possibly stale) and report it.
 */
export const FRESHNESS_POLICIES = ['fresh', 'fresh-attached', 'stable'] as const;
export type FreshnessPolicy = (typeof FRESHNESS_POLICIES)[number];

/**
 * How layers become messages.
 * - transcript (default): system = static L1 + library instruction; each library item is rendered
 *   once, in the user message of the turn where it entered, and referenced by id afterwards; every
 *   request extends the previous one, so provider prefix caches keep hitting.
 * - seed: the seed document's rendering: system = L1 + L2 (the whole library), then raw L4, then
 *   one user message = tools + L3 + L5. Every new item is sent twice and history is resent when L2 grows.
 */
export const RENDERINGS = ['transcript', 'seed'] as const;
export type Rendering = (typeof RENDERINGS)[number];
