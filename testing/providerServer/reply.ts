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
 * - <question>: the text of the last user-authored message (below) after its last context block
 *   (any of the tags above, <context_refs>, <context_problems>, <context_library>, <tool_output>,
 *   <turn_context> or Claude Code's <system-reminder>), trimmed; when nothing follows the last
 *   block, the message with every such block removed, trimmed. `none` when empty.
 *
 * Scripted tool calling (./toolScript.ts; conversations read per API by ./toolTurns.ts). The
 * "last user-authored message" is the last user message that is not a tool result (Chat: the
 * last role `user` message; Responses: the last `user` message item of the whole conversation,
 * previous_response_id followed; Anthropic: the last `user` message with no tool_result block).
 * It may hold directives:
 *
 *   [[tool NAME JSON]]
 *
 * - NAME matches `[A-Za-z_][A-Za-z0-9_]*`, with spaces or tabs before and after it; JSON is a
 *   JSON object of arguments and runs to the first `]]` after NAME, so JSON containing `]]` is
 *   not supported; a directive lies on one line. A `[[tool` that does not form a directive (bad
 *   name, no `]]`, JSON that does not parse to an object) is plain text.
 * - Each line holding directives is one step, in line order; the directives of a line are that
 *   step's parallel calls, in order.
 * - Only tools the request declares are called (Chat: tools[].function.name of type `function`;
 *   Responses: tools[].name of type `function`; Anthropic: tools[].name with an input_schema).
 *   A directive naming another tool is left out of its step, and a step left empty is dropped
 *   (later steps move up). No declared tools: no steps.
 * - Step index = assistant tool-call turns after the last user-authored message (Chat: assistant
 *   messages with tool_calls; Responses: runs of consecutive function_call items; Anthropic:
 *   assistant messages with tool_use blocks). While it is below the number of steps, the reply is
 *   that step's calls, numbered <step> and <i> from 1: ids `call_<step>_<i>` (Chat, and Responses
 *   call_id with item id `fc_<step>_<i>`) or `toolu_<step>_<i>` (Anthropic); arguments are the
 *   directive's JSON re-serialized compactly. Output tokens: the token count of
 *   JSON.stringify([{ name, arguments: <object> }, ...]).
 * - Otherwise the reply is the text above, its question taken from the last user-authored message
 *   with its directives (and the blanks before them) removed and lines left blank by that dropped,
 *   followed, when tool results come after that message, by ` Tools used: <n1>, <n2>.` (every
 *   result's tool name in order, found through its call id: Chat role `tool` messages by
 *   tool_call_id, else their `name`; Responses function_call_output by call_id; Anthropic
 *   tool_result by tool_use_id; `unknown` when no call matches), then by ` Sources: [1].` when a
 *   result's text has a line starting with `[1] ` (localSearch's numbered source catalog).
 *   E.g. `Seen context: none. Question: Find x. Tools used: localSearch, readNote. Sources: [1].`
 * - Images: when the request holds image parts (Chat `image_url`, Responses `input_image`,
 *   Anthropic `image` blocks; base64 data only, else 400), a text reply ends with ` Images: <n>.`,
 *   n counting every image part of the request (history included; for Responses, the whole
 *   conversation through previous_response_id). E.g. `Seen context: Note.md. Question: What is
 *   in the picture?. Images: 1.` An image is not tokenized as text: it counts 85 tokens plus one
 *   per started 1000 decoded bytes (./prompt.ts SeenImage), in prompt tokens and prefix caching.
 * - Tool calls and results are prompt text like any other, so they count in prompt tokens and
 *   in prefix caching: Chat, an assistant message's tool_calls JSON after its content and a tool
 *   message's content; Responses, `<|function_call|>\nNAME ARGUMENTS` and `<|tool|>\nOUTPUT`;
 *   Anthropic, each tool_use and tool_result block as its JSON (cache_control left out).
 *
 * Scripted apply model (./applyScript.ts): a request whose system text starts with APPLY_MARKER
 * (src/core/edits/applyModel.ts) or SELECTION_MARKER (src/core/edits/selectionEdit.ts) gets the
 * note or passage changed by the `replace "A" with "B"` rules of its reply or instruction.
 *
 * Scripted artifact summaries (./summaryScript.ts): a request with a system text starting with the
 * summary instructions' first line (SUMMARY_MARKER, src/core/planning/summarize.ts) gets, instead of
 * the reply above, a list of `- <heading>: <first sentence under it>` lines of the document in its
 * last user message (the text after its `Document …:` line), within the `Length: at most N words.`
 * it gives (200 when absent); `The document has no text to summarize.` when nothing is left.
 *
 * Scripted artifact planning (./plannerScript.ts; requests read per API by ./plannerTurns.ts). A
 * request with a system text (a system or developer message, Responses `instructions`, an
 * Anthropic system block) starting with the planner's first line (PLANNER_MARKER,
 * src/core/planning/plannerPrompt.ts) is a planner request: it gets a plan, never the reply above.
 * Its question (the planner prompt's text after its first `Question:` line: the chat message's
 * text, so a chat message scripts its own planning) may hold directives, on one line each:
 *
 *   [[plan JSON]]            the plan answered, verbatim (JSON runs to the first `]]` where it parses)
 *   [[plan invalid]]         malformed JSON (`{"artifacts": [{"artifact_id": `)
 *   [[plan error]]           HTTP 500, in the API's error shape
 *   [[plan slow]]            the answer after 35 s (past the planner's 30 s timeout); `[[plan slow MS]]`: after MS ms
 *
 * - `slow` combines with the others; `invalid` wins over JSON. With no answer directive, the plan
 *   is computed from the prompt's artifact blocks, in order: an artifact under 1,500 tokens
 *   include_full, a larger one rag_extract with the question (directives removed) as query;
 *   priorities 1, 2, … in prompt order; focus null.
 * - The form follows the request: a forced tool call (Chat tool_choice {type:'function'}, Responses
 *   tool_choice {type:'function'}, Anthropic tool_choice {type:'tool'}; or `required` / `any` with
 *   one tool) gets that tool called with the plan as arguments (call ids as in step 1 above;
 *   malformed arguments for `invalid`, except on Anthropic, whose tool input is an object: there
 *   the malformed JSON is a text reply); otherwise (response_format or text.format json_schema,
 *   Anthropic output_config, or plain) the plan is the reply's text. Streamed or not, with usage,
 *   as any reply.
 * - In a chat reply's question, `[[plan …]]` directives are removed like `[[tool …]]` ones.
 */

const ITEM_TAGS = ['note_context', 'url_context', 'selection_context', 'folder_context', 'tag_context'];
const BLOCK_TAGS = [...ITEM_TAGS, 'context_refs', 'context_problems', 'context_library', 'tool_output', 'turn_context', 'system-reminder'];

// Attribute values never hold `<` or `>` (escapeAttr), so an opening tag ends at the first of them:
// scanning only that far keeps matching linear on text full of unclosed tags. Blocks are matched
// opening tag first, then their closing tag with indexOf (a lazy `[\s\S]*?</tag>` rescanned to the
// end of the text for every unclosed opening: quadratic).
const ITEM_OR_REFS = new RegExp(`<(?:${ITEM_TAGS.join('|')})\\b[^<>]*?\\bid="([^"<>]*)"|<context_refs>`, 'g');
const CLOSING_PATTERN = new RegExp(`</(?:${BLOCK_TAGS.join('|')})>`, 'g');
const BLOCK_OPENING = new RegExp(`<(${BLOCK_TAGS.join('|')})\\b[^<>]*>`, 'g');
const REFS_CLOSE = '</context_refs>';

function unescapeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** A `- id` line of a <context_refs> block: the id, trimmed; null for any other line. */
function refLine(line: string): string | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('-') || !/^\s/.test(trimmed.slice(1))) return null;
  return trimmed.slice(1).trim() || null;
}

/** Context item ids found in `texts`, in order of first appearance, each once. */
export function seenContextIds(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const add = (id: string): void => {
    if (id.length > 0) seen.add(id);
  };
  for (const text of texts) {
    const pattern = new RegExp(ITEM_OR_REFS);
    let refsCanClose = true;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (match[1] !== undefined) {
        add(unescapeAttr(match[1]));
        continue;
      }
      // No closing tag after this opening means none after any later one either.
      const close = refsCanClose ? text.indexOf(REFS_CLOSE, pattern.lastIndex) : -1;
      if (close < 0) {
        refsCanClose = false;
        continue;
      }
      for (const line of text.slice(pattern.lastIndex, close).split('\n')) {
        const id = refLine(line);
        if (id !== null) add(id);
      }
      pattern.lastIndex = close + REFS_CLOSE.length;
    }
  }
  return [...seen];
}

/** `text` without its whole blocks (an opening tag through its matching closing tag). */
function withoutBlocks(text: string): string {
  const pattern = new RegExp(BLOCK_OPENING);
  const unclosed = new Set<string>();
  let out = '';
  let kept = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const closing = `</${match[1]}>`;
    const close = unclosed.has(match[1]) ? -1 : text.indexOf(closing, pattern.lastIndex);
    if (close < 0) {
      unclosed.add(match[1]);
      continue;
    }
    out += text.slice(kept, match.index);
    kept = close + closing.length;
    pattern.lastIndex = kept;
  }
  return out + text.slice(kept);
}

/** The question in a user message: the text after its last context block, trimmed. */
export function questionOf(userText: string): string {
  let end = -1;
  for (const match of userText.matchAll(CLOSING_PATTERN)) end = (match.index ?? 0) + match[0].length;
  const after = end < 0 ? userText.trim() : userText.slice(end).trim();
  if (after.length > 0) return after;
  return withoutBlocks(userText).trim();
}

export function deterministicReply(allTexts: readonly string[], lastUserText: string): string {
  const ids = seenContextIds(allTexts);
  const question = questionOf(lastUserText);
  return `Seen context: ${ids.length > 0 ? ids.join(', ') : 'none'}. Question: ${question.length > 0 ? question : 'none'}.`;
}

/** Deterministic streaming pieces: one word (with its trailing whitespace) per delta. */
export function replyChunks(reply: string): string[] {
  // `/\s*\S+\s*/g` rescanned a whitespace-only reply from every position (quadratic): words with
  // their trailing whitespace, and the leading whitespace joined to the first word.
  const pieces = reply.match(/\S+\s*/g);
  if (!pieces) return [reply];
  pieces[0] = reply.slice(0, reply.length - pieces.join('').length) + pieces[0];
  return pieces;
}
