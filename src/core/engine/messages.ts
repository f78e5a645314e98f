import type { ImagePart } from './types';

export type Role = 'system' | 'user' | 'assistant';

/**
 * One step of an agent turn as the provider saw it: the model's text and calls, then the results
 * (the shape of the agent loop's AgentStep, records/agent.ts). An assistant message in history that
 * carries steps is sent as the provider's own tool calls and results before its text, exactly as the
 * loop sent them, so the request after an agent turn extends the loop's last request.
 */
export interface ToolStep {
  readonly text: string;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Readonly<Record<string, unknown>> }[];
  readonly results: readonly { readonly callId: string; readonly name: string; readonly content: string; readonly isError: boolean }[];
}

/**
 * A provider message with string content, as a stateless provider receives it. A user message may
 * carry images (from the active note), sent after its text in the provider's own content parts.
 */
export interface ChatMessage {
  readonly role: Role;
  readonly content: string;
  /** Absent (or empty): a text-only message, hashed exactly as before images existed. */
  readonly images?: readonly ImagePart[];
  /**
   * The content as provider content blocks (their concatenation is `content`, so hashes and other
   * providers are unaffected): only Anthropic sends them apart, because its cache reads only at block
   * boundaries. Absent: one block. See systemBlocks.ts.
   */
  readonly blocks?: readonly string[];
  /** Indices of `blocks` whose end is a cache anchor (where a growing stable part ended), earliest first. */
  readonly anchors?: readonly number[];
  /**
   * An assistant message of an agent turn: the loop's steps, sent natively before `content` (the
   * final answer). Not part of the message's hash: they are fixed once the turn is committed (only a
   * compaction, a named break, masks them), and the session cursor hashes the reply alone.
   */
  readonly steps?: readonly ToolStep[];
}

/** What a message's hash covers besides its role and text: its images' media types and byte hashes, in order. */
export function imagesKey(message: Pick<ChatMessage, 'images'>): string {
  const images = message.images;
  if (!images || images.length === 0) return '';
  let key = '';
  for (const image of images) key += `\u0000image ${image.mediaType} ${image.hash}`;
  return key;
}

/** The text a message's hash is taken over: `role\ncontent`, then its images' key (empty for text-only messages). */
export function messageHashText(message: ChatMessage): string {
  return `${message.role}\n${message.content}${imagesKey(message)}`;
}

export function messagesEqual(a: ChatMessage, b: ChatMessage): boolean {
  return a.role === b.role && a.content === b.content && imagesKey(a) === imagesKey(b);
}
