import { createHash } from 'node:crypto';
import { encodingForModel, type EncodingName } from '../../src/core/tokens/encodings';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import type { CacheBoundary } from './anthropicCacheRule';
import { RequestError } from './errors';

/**
 * A request flattened the way the server "sees" it: one block per tool definition, system block
 * and message content block, in wire order. The first block of each message starts with a role
 * marker (`<|user|>\n`), so the same text under another role is a different prefix.
 */
export interface PromptBlock {
  readonly text: string;
  /** Anthropic `cache_control` on this block. */
  readonly breakpoint?: boolean;
  readonly ttlMs?: number;
  /** Images in this block (after its text), each counted as `tokens` tokens of its own. */
  readonly images?: readonly SeenImage[];
}

/**
 * An image part as the server counts it. Images are not tokenized as text: each costs a fixed
 * IMAGE_BASE_TOKENS plus one token per started 1000 bytes (decoded), a stand-in for the providers'
 * pixel rules that tests can compute, and occupies that many tokens of the prompt (ids derived from
 * its bytes' hash), so the same image in the same place is a cacheable prefix like text.
 */
export interface SeenImage {
  readonly mediaType: string;
  /** sha256 (hex) of the base64 data. */
  readonly hash: string;
  /** Decoded size. */
  readonly bytes: number;
  readonly tokens: number;
}

export const IMAGE_BASE_TOKENS = 85;
/** Anthropic's per-image limit, on the base64 data. */
export const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function imageTokens(bytes: number): number {
  return IMAGE_BASE_TOKENS + Math.ceil(bytes / 1000);
}

/** The media type and base64 data of an image part of any of the four APIs; null when `part` is no image part. */
function imageSource(part: unknown): { mediaType: unknown; data: unknown } | null {
  if (!part || typeof part !== 'object') return null;
  const record = part as Record<string, unknown>;
  const dataUrl = (url: unknown) => {
    const match = typeof url === 'string' ? /^data:([^;,]*);base64,(.*)$/s.exec(url) : null;
    if (!match) throw new RequestError(400, { message: 'Invalid image: only base64 data URLs (data:image/...;base64,...) are accepted here.', code: 'invalid_image_url' });
    return { mediaType: match[1], data: match[2] };
  };
  // Chat Completions: {type: 'image_url', image_url: {url} | url}.
  if (record.type === 'image_url') {
    const inner = record.image_url;
    return dataUrl(typeof inner === 'string' ? inner : (inner as Record<string, unknown> | null)?.url);
  }
  // Gemini: {inlineData: {mimeType, data}}.
  const inline = record.inlineData as Record<string, unknown> | undefined;
  if (inline && typeof inline === 'object') return { mediaType: inline.mimeType, data: inline.data };
  // Responses: {type: 'input_image', image_url}.
  if (record.type === 'input_image') return dataUrl(record.image_url);
  // Anthropic: {type: 'image', source: {type: 'base64', media_type, data}}.
  if (record.type === 'image') {
    const source = record.source as Record<string, unknown> | undefined;
    if (!source || source.type !== 'base64') throw new RequestError(400, { message: 'image.source: only base64 image sources are accepted here.' });
    return { mediaType: source.media_type, data: source.data };
  }
  return null;
}

/** The image a content part holds (validated: a 400 for a bad one), or null for any other part. */
export function seenImage(part: unknown): SeenImage | null {
  const source = imageSource(part);
  if (!source) return null;
  const { mediaType, data } = source;
  if (typeof mediaType !== 'string' || !MEDIA_TYPES.includes(mediaType)) {
    throw new RequestError(400, { message: `Invalid image media type ${JSON.stringify(mediaType)}: expected one of ${MEDIA_TYPES.join(', ')}.` });
  }
  if (typeof data !== 'string' || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) {
    throw new RequestError(400, { message: 'Invalid image data: expected base64.' });
  }
  if (data.length > MAX_IMAGE_BASE64) {
    throw new RequestError(400, { message: `image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64} bytes` });
  }
  const bytes = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  return { mediaType, hash: createHash('sha256').update(data).digest('hex'), bytes, tokens: imageTokens(bytes) };
}

/** Whether a content part is an image part of one of the three APIs (not validated). */
export function isImagePart(part: unknown): boolean {
  const type = part && typeof part === 'object' ? (part as Record<string, unknown>).type : undefined;
  return type === 'image_url' || type === 'input_image' || type === 'image' || (!!part && typeof part === 'object' && 'inlineData' in part);
}

/** The images among a content value's parts (a string holds none), in order. */
export function imagesOf(content: unknown): SeenImage[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const image = seenImage(part);
    return image ? [image] : [];
  });
}

/** Image parts of a whole prompt. */
export function imageCount(blocks: readonly PromptBlock[]): number {
  let n = 0;
  for (const block of blocks) n += block.images?.length ?? 0;
  return n;
}

export interface ParsedPrompt {
  readonly blocks: readonly PromptBlock[];
  /** Text of the last user message (text parts joined by newlines). */
  readonly lastUserText: string;
}

export interface EncodedPrompt {
  /** The whole prompt as one token sequence. */
  readonly tokens: number[];
  /** One boundary per block (for Anthropic's rule). */
  readonly boundaries: CacheBoundary[];
}

export function roleMarker(role: string): string {
  return `<|${role}|>\n`;
}

/** Deterministic text for a content part that is not plain text (images, tool calls): its JSON. */
export function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part && typeof part === 'object') {
    const record = part as Record<string, unknown>;
    // An image is not text: a short marker names it (its tokens are counted apart, see SeenImage).
    const image = seenImage(part);
    if (image) return `[image ${image.mediaType} ${image.bytes} bytes sha256:${image.hash.slice(0, 16)}]`;
    if (typeof record.text === 'string' && (record.type === 'text' || record.type === 'input_text' || record.type === 'output_text')) {
      return record.text;
    }
    const { cache_control: _ignored, ...rest } = record;
    return JSON.stringify(rest);
  }
  return JSON.stringify(part ?? null);
}

// Conversations resend the same blocks turn after turn: remember their tokens (LRU, bounded by
// total tokens) so a long benchmark does not re-tokenize its whole history on every request.
const MEMO_MAX_TOKENS = 4_000_000;
const MEMO_MIN_CHARS = 64;
const memo = new Map<EncodingName, Map<string, number[]>>();
let memoTokens = 0;

function encodeBlock(model: string, text: string): readonly number[] {
  if (text.length < MEMO_MIN_CHARS) return tokenCounterFor(model).encode(text);
  const encoding = encodingForModel(model);
  let byText = memo.get(encoding);
  if (!byText) {
    byText = new Map();
    memo.set(encoding, byText);
  }
  const hit = byText.get(text);
  if (hit) {
    byText.delete(text);
    byText.set(text, hit);
    return hit;
  }
  const tokens = tokenCounterFor(model).encode(text);
  byText.set(text, tokens);
  memoTokens += tokens.length;
  while (memoTokens > MEMO_MAX_TOKENS) {
    const oldest = [...memo.values()].find((m) => m.size > 0);
    const first = oldest?.entries().next().value;
    if (!oldest || !first) break;
    oldest.delete(first[0]);
    memoTokens -= first[1].length;
  }
  return tokens;
}

/** Token sequence and per-block prefix identities for a prompt, under `model`'s tokenizer. */
export function encodePrompt(model: string, blocks: readonly PromptBlock[]): EncodedPrompt {
  const tokens: number[] = [];
  const boundaries: CacheBoundary[] = [];
  const hash = createHash('sha256').update(model).update('\u0000');
  for (const block of blocks) {
    for (const token of encodeBlock(model, block.text)) tokens.push(token);
    hash.update(block.text).update('\u0000');
    for (const image of block.images ?? []) {
      // Ids far above any vocabulary, derived from the image's hash: equal images, equal tokens.
      const base = 0x40000000 + parseInt(image.hash.slice(0, 7), 16);
      for (let i = 0; i < image.tokens; i++) tokens.push(base + i);
      hash.update(`image:${image.hash}`).update('\u0000');
    }
    boundaries.push({
      key: hash.copy().digest('hex'),
      prefixTokens: tokens.length,
      breakpoint: block.breakpoint === true,
      ttlMs: block.ttlMs,
    });
  }
  return { tokens, boundaries };
}

export function countTokens(model: string, text: string): number {
  return tokenCounterFor(model).encode(text).length;
}
