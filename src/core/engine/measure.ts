import type { ContextItem } from '../context/items';
import { HashChain, sha256Hex, combineHashes } from '../hash';
import { TOKENS_PER_MESSAGE, TOKENS_REPLY_PRIMING, type TokenCounter } from '../tokens/tokenCounter';
import { SEP } from './converter';
import type { HistoryRun, HistorySegment, RenderedMessage } from './historyRun';
import { imagesKey, messageHashText, type ChatMessage, type ToolStep } from './messages';
import { stepTokens } from './agentHistory';
import { renderItem } from './render';
import type { ImageRef, ItemSegment, Layer, LayerId, LibraryItem, MessageSegment, Segment } from './types';

const SEP_TOKENS = 0;

/** What a completed turn said (its user text and reply): what history renders of it. */
export interface SpokenExchange {
  readonly turn: number;
  readonly userText: string;
  readonly reply: string;
  /** Images its user message carried: counted with it. */
  readonly images?: readonly ImageRef[];
}

/** Tokens the provider counts for a message's images (its own downscaling rule, see context/images.ts). */
export function imageTokens(images: readonly ImageRef[] | undefined): number {
  let tokens = 0;
  for (const image of images ?? []) tokens += image.tokens;
  return tokens;
}

/**
 * Token counts and hashes for one conversation, memoised. Memos are keyed by string identity-equal
 * content: history strings are reused turn after turn, so a lookup costs O(1) instead of re-hashing
 * the whole conversation (the cost of a turn stays the new content).
 */
export class Measure {
  private hashMemo = { system: new Map<string, string>(), user: new Map<string, string>(), assistant: new Map<string, string>() };
  private tokenMemo = new Map<string, Map<string, number>>();
  // Hash chains for lists that grow turn after turn (messages, history, library): a turn hashes its
  // new parts only. Same values as combineHashes.
  private chains = { messages: new HashChain(), history: new HashChain(), library: new HashChain() };
  private segmentMemo = new WeakMap<SpokenExchange, { encoding: string; segments: MessageSegment[] }>();

  messageHash(message: ChatMessage): string {
    const memo = this.hashMemo[message.role];
    // Text-only messages are keyed (and hashed) by their text alone, exactly as before images.
    const key = message.content + imagesKey(message);
    let hash = memo.get(key);
    if (hash === undefined) {
      hash = sha256Hex(messageHashText(message));
      memo.set(key, hash);
    }
    return hash;
  }

  /** combineHashes over a list of message hashes (a request, or a request and its reply). */
  combineMessages(hashes: readonly string[]): string {
    return this.chains.messages.combine(hashes);
  }

  /** A layer whose segments grow turn after turn (L2, L4): hashed through its chain. */
  growingLayer<S extends Segment>(id: 'L2' | 'L4', segments: S[]): Layer<S> {
    return layer(id, segments, id === 'L2' ? this.chains.library : this.chains.history);
  }

  /** L4 from the engine's history run: its token sum and hash chain are kept as it grows. Same values as growingLayer. */
  historyLayer(run: HistoryRun): Layer<HistorySegment> {
    return { id: 'L4', segments: run.segments.slice(), tokens: SEP_TOKENS + run.segmentTokens, hash: this.chains.history.combine(run.segmentHashes) };
  }

  /** The request's tokens: every message with its framing and its images, plus the reply priming. */
  promptTokens(messages: readonly RenderedMessage[], counter: TokenCounter): number {
    let tokens = TOKENS_REPLY_PRIMING;
    for (const m of messages) tokens += this.framedTokens(m, counter);
    return tokens;
  }

  /** One message's share of promptTokens: its framing, its blocks, its images. */
  framedTokens(message: RenderedMessage, counter: TokenCounter): number {
    return TOKENS_PER_MESSAGE + this.messageTokens(message, counter) + imageTokens(message.images);
  }

  /**
   * A message's tokens as the sum of its blocks' (plus one separator each): every block (a library
   * item, a tool output, a question) is counted once and memoised, so a turn tokenizes only its new
   * blocks. BPE can merge across a block boundary, so this may differ from counting the joined text
   * by a token or so per block; providers report the exact figure.
   */
  private messageTokens(message: RenderedMessage, counter: TokenCounter): number {
    let memo = this.tokenMemo.get(counter.encoding);
    if (!memo) {
      memo = new Map();
      this.tokenMemo.set(counter.encoding, memo);
    }
    let tokens = memo.get(message.content);
    if (tokens === undefined) {
      tokens = counter.count(SEP) * Math.max(0, message.parts.length - 1);
      for (const part of message.parts) tokens += counter.count(part);
      memo.set(message.content, tokens);
    }
    // An agent turn's reply carries its steps (the tool calls and results): they count as the loop counted them.
    if (message.steps && message.steps.length > 0) tokens += this.stepsTokens(message.steps, counter);
    return tokens;
  }

  private stepsMemo = new WeakMap<readonly ToolStep[], { encoding: string; tokens: number }>();

  private stepsTokens(steps: readonly ToolStep[], counter: TokenCounter): number {
    const memo = this.stepsMemo.get(steps);
    if (memo && memo.encoding === counter.encoding) return memo.tokens;
    const tokens = stepTokens(steps, (text) => counter.count(text));
    this.stepsMemo.set(steps, { encoding: counter.encoding, tokens });
    return tokens;
  }

  historySegments(t: SpokenExchange, counter: TokenCounter): MessageSegment[] {
    const memo = this.segmentMemo.get(t);
    if (memo && memo.encoding === counter.encoding) return memo.segments;
    const user = segment<MessageSegment>({ type: 'message', role: 'user', turn: t.turn }, t.userText, counter);
    const segments = [
      // The user message's images count with it (L4's tokens are what history costs).
      t.images && t.images.length > 0 ? { ...user, tokens: user.tokens + imageTokens(t.images) } : user,
      segment<MessageSegment>({ type: 'message', role: 'assistant', turn: t.turn }, t.reply, counter),
    ];
    this.segmentMemo.set(t, { encoding: counter.encoding, segments });
    return segments;
  }
}

export function toLibraryItem(item: ContextItem, version: number, turn: number, counter: TokenCounter): LibraryItem {
  const entry: LibraryItem = {
    id: item.id,
    kind: item.kind,
    title: item.title,
    source: item.source,
    ...(item.via ? { via: item.via } : {}),
    version,
    hash: item.hash,
    content: item.content,
    tokens: 0,
    enteredTurn: turn,
    ...(item.planned ? { planned: item.planned } : {}),
  };
  // Tokens of the item as sent (its block): counted once here, found memoised when the block is
  // counted again as a segment and as part of the message.
  return { ...entry, tokens: counter.count(renderItem(entry)) };
}

// Library items are immutable: render, count and hash each one once per tokenizer, not every turn.
// Module-wide, so an engine restored from the same items finds them rendered.
// The library segment of an item is kept too: L2 holds every item at every assembly.
const renderedItems = new WeakMap<LibraryItem, { encoding: string; text: string; tokens: number; hash: string; library?: ItemSegment }>();

export function itemSegment(item: LibraryItem, mode: ItemSegment['mode'], counter: TokenCounter): ItemSegment {
  let rendered = renderedItems.get(item);
  if (!rendered || rendered.encoding !== counter.encoding) {
    const text = rendered?.text ?? renderItem(item);
    rendered = { encoding: counter.encoding, text, tokens: counter.count(text), hash: rendered?.hash ?? sha256Hex(text) };
    renderedItems.set(item, rendered);
  }
  const { text, tokens, hash } = rendered;
  if (mode === 'library') return (rendered.library ??= { type: 'item', item, mode, text, tokens, hash });
  return { type: 'item', item, mode, text, tokens, hash };
}

export function segment<S extends Segment>(fields: Omit<S, 'text' | 'tokens' | 'hash'>, text: string, counter: TokenCounter): S {
  return { ...fields, text, tokens: counter.count(text), hash: sha256Hex(text) } as S;
}

export function layer<S extends Segment>(id: LayerId, segments: S[], chain?: HashChain): Layer<S> {
  let tokens = SEP_TOKENS;
  for (const s of segments) tokens += s.tokens;
  const hashes = segments.map((s) => s.hash);
  return { id, segments, tokens, hash: chain ? chain.combine(hashes) : combineHashes(hashes) };
}
