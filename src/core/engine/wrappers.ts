/**
 * The registry of every wrapper any renderer emits: the engine's context blocks, the seed
 * rendering's library, and the Claude Code prompt's history. Renderers take tag names only from
 * here (openTag/closeTag accept nothing else), and escapeContent escapes every name here, so no
 * renderer can emit a wrapper that content could forge or close.
 */
export const WRAPPER_TAGS = [
  'note_context',
  'url_context',
  'selection_context',
  'folder_context',
  'tag_context',
  'context_library',
  // Library items condensed at a library condensing (condensedLibrary.ts).
  'condensed_library',
  'condensed_item',
  'context_refs',
  'context_problems',
  'tool_output',
  'turn_context',
  'conversation_summary',
  // The Claude Code prompt (one text for the whole history).
  'conversation_history',
  'user',
  'assistant',
] as const;

export type WrapperTag = (typeof WRAPPER_TAGS)[number];

/** `<tag>`, or `<tag attrs>` (attribute values escaped by the caller with escapeAttr). */
export function openTag(tag: WrapperTag, attrs: readonly string[] = []): string {
  return attrs.length > 0 ? `<${tag} ${attrs.join(' ')}>` : `<${tag}>`;
}

export function closeTag(tag: WrapperTag): string {
  return `</${tag}>`;
}

/**
 * The line marker of dynamic context sent in a session-stateful provider's turn (the compiler, the
 * Claude Code prompt): a line starting with it is context. Content escaping neutralises it too.
 */
export const SYSTEM_CONTEXT = '[System Context]';
