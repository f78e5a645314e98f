import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { MAX_BREAKPOINTS, type CacheBreakpoint } from '../core/compiler/cacheBreakpoints';
import type { ChatMessage } from '../core/engine/messages';
import type { ImagePart } from '../core/engine/types';
import { escapeContent } from '../core/engine/escape';
import { anthropicStepMessages, openAiStepMessages } from './toolMessages';

/** A data URL of an image's bytes. */
export function imageDataUrl(image: ImagePart): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/**
 * A message's text for a model that takes no images (a chat switched to a text-only model keeps its
 * history): each image is named where it would have gone, so nothing is dropped silently.
 */
function textOnly(message: ChatMessage): string {
  const images = message.images ?? [];
  if (images.length === 0) return message.content;
  return [message.content, ...images.map((i) => `[image ${escapeContent(i.path)} not sent: this model does not accept images]`)].join('\n\n');
}

/**
 * Plain conversion for providers that cache automatically (OpenAI, compatible endpoints). A user
 * message with images becomes content parts: its text, then one `image_url` part per image (a data
 * URL, high detail: the detail the tokens are counted at). LangChain turns those into Responses'
 * `input_image` items. `images` false: the model takes none, they are named in the text instead.
 */
export function toLangChainMessages(messages: readonly ChatMessage[], images = true): BaseMessage[] {
  return messages.flatMap((message): BaseMessage[] => {
    // An agent turn's reply: its steps first, as the loop sent them (see agentHistory.ts).
    if (message.role === 'assistant' && message.steps && message.steps.length > 0) return [...openAiStepMessages(message.steps), new AIMessage(message.content)];
    return [one(message)];
  });
  function one(message: ChatMessage): BaseMessage {
    switch (message.role) {
      case 'system':
        return new SystemMessage(message.content);
      case 'user':
        if (message.images && message.images.length > 0 && images) {
          return new HumanMessage({
            content: [
              { type: 'text', text: message.content },
              ...message.images.map((i) => ({ type: 'image_url' as const, image_url: { url: imageDataUrl(i), detail: 'high' as const } })),
            ],
          });
        }
        return new HumanMessage(textOnly(message));
      case 'assistant':
        return new AIMessage(message.content);
    }
  }
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Stands in for an empty message (deterministic, so the cached prefix stays stable). */
export const EMPTY_TEXT = '(empty)';

/**
 * Anthropic conversion: each message becomes one text block; the blocks of the messages named by
 * `breakpoints` carry `cache_control: {type: 'ephemeral'}` (at most four, Anthropic's limit: the
 * first four distinct indices are kept). Leading system messages become the request's system
 * blocks. Anthropic has no system role inside the conversation, so a later system message is sent
 * as user content (consecutive user messages are merged by the adapter, which keeps the blocks and
 * their cache_control). A user message's images follow its text block as base64 `image` blocks; the
 * message's breakpoint then goes on its last block, so the cached prefix covers the images too. A
 * leading system message with `blocks` is sent as those text blocks, a breakpoint on the block it names.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[], breakpoints: readonly CacheBreakpoint[] = [], images = true): BaseMessage[] {
  // Marked blocks by message: -1 stands for the message's last block.
  const marked = new Map<number, Set<number>>();
  let count = 0;
  for (const bp of breakpoints) {
    if (count >= MAX_BREAKPOINTS) break;
    if (!Number.isInteger(bp.messageIndex) || bp.messageIndex < 0 || bp.messageIndex >= messages.length) continue;
    const blocks = messages[bp.messageIndex].blocks ?? [];
    const block = bp.block !== undefined && Number.isInteger(bp.block) && bp.block >= 0 && bp.block < blocks.length - 1 ? bp.block : -1;
    const set = marked.get(bp.messageIndex) ?? new Set<number>();
    if (set.has(block)) continue;
    set.add(block);
    marked.set(bp.messageIndex, set);
    count++;
  }
  let leadingSystem = true;
  return messages.flatMap((message, index): BaseMessage | BaseMessage[] => {
    // Anthropic rejects empty or whitespace-only text blocks; an empty reply in history would fail every later turn.
    const withImages = message.role === 'user' && images && (message.images?.length ?? 0) > 0;
    const content = message.role === 'user' && !images ? textOnly(message) : message.content;
    const text = content.trim() === '' ? EMPTY_TEXT : content;
    const marks = marked.get(index);
    const cache = marks?.has(-1) ? { cache_control: EPHEMERAL } : {};
    const block = { type: 'text' as const, text, ...(withImages ? {} : cache) };
    if (message.role !== 'system') leadingSystem = false;
    if (message.role === 'system' && leadingSystem) {
      // A system message of several blocks (its stable parts, see systemBlocks.ts) goes as those blocks.
      const parts = message.blocks && message.blocks.length > 1 && message.blocks.join('') === message.content ? message.blocks : null;
      if (!parts) return new SystemMessage({ content: [block] });
      return new SystemMessage({
        content: parts.map((t, i) => ({
          type: 'text' as const,
          text: t,
          ...(marks?.has(i) || (i === parts.length - 1 && marks?.has(-1)) ? { cache_control: EPHEMERAL } : {}),
        })),
      });
    }
    if (message.role === 'assistant') {
      const reply = new AIMessage({ content: [block] });
      // An agent turn's reply: its steps first, as the loop sent them (no breakpoint of their own).
      return message.steps && message.steps.length > 0 ? [...anthropicStepMessages(message.steps, false), reply] : reply;
    }
    if (withImages) {
      const parts = (message.images ?? []).map((i, n, all) => ({
        type: 'image' as const,
        source: { type: 'base64' as const, media_type: i.mediaType, data: i.data },
        ...(n === all.length - 1 ? cache : {}),
      }));
      return new HumanMessage({ content: [block, ...parts] });
    }
    return new HumanMessage({ content: [block] });
  });
}
