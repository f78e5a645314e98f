/**
 * The local server's deterministic reply, computed only from what the request holds, so tests can
 * assert on content. Exact format (one line):
 *
 *   Seen context: <ids>. Question: <question>.
 *
 * - <ids>: ids of the context items the model can see, comma+space separated, in order of first
 *   appearance over all the request's text (tools, system, then messages in order; for the
 *   Responses API the whole conversation reached through previous_response_id), each listed once:
 *   the `id="..."` attribute of <note_context>, <url_context>, <selection_context>,
 *   <folder_context> and <tag_context> tags, and the `- id` lines of <context_refs> blocks.
 *   `none` when there are none.
 * - <question>: the text of the last user message after its last context block (any of the tags
 *   above, <context_refs>, <context_problems>, <context_library>, <tool_output>, <turn_context>
 *   or Claude Code's <system-reminder>), trimmed; when nothing follows the last block, the message
 *   with every such block removed, trimmed. `none` when empty.
 */

const ITEM_TAGS = ['note_context', 'url_context', 'selection_context', 'folder_context', 'tag_context'];
const BLOCK_TAGS = [...ITEM_TAGS, 'context_refs', 'context_problems', 'context_library', 'tool_output', 'turn_context', 'system-reminder'];

const CONTEXT_PATTERN = new RegExp(
  `<(?:${ITEM_TAGS.join('|')})\\b[^>]*?\\bid="([^"]*)"|<context_refs>([\\s\\S]*?)</context_refs>`,
  'g',
);
const CLOSING_PATTERN = new RegExp(`</(?:${BLOCK_TAGS.join('|')})>`, 'g');
const WHOLE_BLOCK_PATTERN = new RegExp(`<(${BLOCK_TAGS.join('|')})\\b[^>]*>[\\s\\S]*?</\\1>`, 'g');

function unescapeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Context item ids found in `texts`, in order of first appearance, each once. */
export function seenContextIds(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const add = (id: string): void => {
    if (id.length > 0) seen.add(id);
  };
  for (const text of texts) {
    for (const match of text.matchAll(CONTEXT_PATTERN)) {
      if (match[1] !== undefined) {
        add(unescapeAttr(match[1]));
      } else {
        for (const line of (match[2] ?? '').split('\n')) {
          const item = /^\s*-\s+(.+?)\s*$/.exec(line);
          if (item) add(item[1]);
        }
      }
    }
  }
  return [...seen];
}

/** The question in a user message: the text after its last context block, trimmed. */
export function questionOf(userText: string): string {
  let end = -1;
  for (const match of userText.matchAll(CLOSING_PATTERN)) end = (match.index ?? 0) + match[0].length;
  const after = end < 0 ? userText.trim() : userText.slice(end).trim();
  if (after.length > 0) return after;
  return userText.replace(WHOLE_BLOCK_PATTERN, '').trim();
}

export function deterministicReply(allTexts: readonly string[], lastUserText: string): string {
  const ids = seenContextIds(allTexts);
  const question = questionOf(lastUserText);
  return `Seen context: ${ids.length > 0 ? ids.join(', ') : 'none'}. Question: ${question.length > 0 ? question : 'none'}.`;
}

/** Deterministic streaming pieces: one word (with its trailing whitespace) per delta. */
export function replyChunks(reply: string): string[] {
  const pieces = reply.match(/\s*\S+\s*/g);
  return pieces ?? [reply];
}
