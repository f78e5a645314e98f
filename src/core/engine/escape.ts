/**
 * Every tag name the engine writes. Note text is data: any of these appearing in it is neutralised
 * so a note can never close or forge a wrapper. The set is fixed (tools share one wrapper) so the
 * escaping is complete by construction.
 */
export const RESERVED_TAGS = [
  'note_context',
  'url_context',
  'selection_context',
  'folder_context',
  'tag_context',
  'context_library',
  'context_refs',
  'context_problems',
  'tool_output',
  'turn_context',
] as const;

const RESERVED = new RegExp(`<(/?)\\s*(${RESERVED_TAGS.join('|')})\\b`, 'gi');

/** Escape content placed inside a wrapper: `<note_context` becomes `&lt;note_context`. */
export function escapeContent(text: string): string {
  return text.replace(RESERVED, (_m, slash: string, name: string) => `&lt;${slash}${name}`);
}

/** Escape an attribute value (paths, titles, tool inputs) for a double-quoted attribute. */
export function escapeAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n/g, ' ');
}
