import type { ContextItem } from '../context/items';
import type { ResolutionProblem } from '../context/resolver';
import { HashChain, sha256Hex, combineHashes } from '../hash';
import { TOKENS_PER_MESSAGE, TOKENS_REPLY_PRIMING, tokenCounterFor, type TokenCounter } from '../tokens/tokenCounter';
import { LayerToMessagesConverter, SEP, type HistoryCache, type Rendering, type RenderedMessage } from './converter';
import { sendsUpdate, type FreshnessPolicy } from './freshness';
import { ContextLibrary } from './library';
import type { ChatMessage } from './messages';
import { detectPrefixChange, type CommittedRequest, type PendingEvent } from './prefix';
export type { CommittedRequest, PendingEvent } from './prefix';
import { renderItem, renderProblems, renderReferences, renderTool } from './render';
import type {
  Envelope,
  FragmentSegment,
  FreshnessEvent,
  HistoryTurn,
  ItemSegment,
  Layer,
  LayerId,
  LibraryItem,
  MessageSegment,
  PrefixChange,
  ProblemSegment,
  PromptFragment,
  ReferenceSegment,
  Segment,
  ToolOutput,
  ToolSegment,
} from './types';

export interface EngineOptions {
  rendering?: Rendering;
  freshness?: FreshnessPolicy;
}

export interface TurnInput {
  readonly userText: string;
  /** This turn's resolved items, in chip order. */
  readonly items: readonly ContextItem[];
  readonly problems?: readonly ResolutionProblem[];
  readonly tools?: readonly ToolOutput[];
  /** L1 for this turn. */
  readonly fragments: readonly PromptFragment[];
  readonly model: string;
  /**
   * Current text of library notes not attached this turn (by id), for the freshness policy:
   * an item means "this is the note now", null means "the note is gone". Ids left out are not checked.
   */
  readonly current?: ReadonlyMap<string, ContextItem | null>;
}

/** One turn, assembled: the envelope, the messages a stateless provider gets, and the prefix verdict. */
export interface TurnAssembly {
  readonly envelope: Envelope;
  readonly messages: ChatMessage[];
  /** sha256 of each message's role and content. */
  readonly messageHashes: readonly string[];
  readonly promptTokens: number;
  /** Hash of every message before the final user message: what a prefix cache can serve. */
  readonly prefixHash: string;
  /** Null when this request extends the previous one; otherwise the named reason. */
  readonly prefixChange: PrefixChange | null;
}

/** A completed turn as the engine remembers it (everything needed to re-render it byte for byte). */
export interface CompletedTurn extends HistoryTurn {
  readonly userText: string;
  readonly reply: string;
  readonly model: string;
}

/** Serializable engine state (library contents included): what a saved chat must restore. */
export interface EngineState {
  readonly turns: readonly CompletedTurn[];
  readonly library: readonly LibraryItem[];
  /** Fingerprint of the last successful request, so a reloaded chat can tell whether it still extends it. */
  readonly lastRequest?: CommittedRequest | null;
  /** Deliberate events since that request (removal, compaction…), so a reload keeps their names. */
  readonly pending?: readonly PendingEvent[];
}

const SEP_TOKENS = 0;

/**
 * The PromptContextEngine: per conversation, builds each turn's envelope (L1–L5) and messages.
 * assemble() is pure with respect to engine state, so a failed or aborted request changes nothing;
 * commit() records the turn once the reply is complete.
 */
export class PromptContextEngine {
  private library = new ContextLibrary();
  private turns: CompletedTurn[] = [];
  private lastRequest: CommittedRequest | null = null;
  private pending: PendingEvent[] = [];
  private historyCache: HistoryCache = new Map();
  // Memos keyed by string identity-equal content: history strings are reused turn after turn, so a
  // lookup costs O(1) instead of re-hashing the whole conversation (the cost of a turn stays the new content).
  private hashMemo = { system: new Map<string, string>(), user: new Map<string, string>(), assistant: new Map<string, string>() };
  private tokenMemo = new Map<string, Map<string, number>>();
  // Hash chains for lists that grow turn after turn (messages, history, library): a turn hashes its
  // new parts only. Same values as combineHashes.
  private chains = { messages: new HashChain(), history: new HashChain(), library: new HashChain() };
  private segmentMemo = new WeakMap<CompletedTurn, { encoding: string; segments: MessageSegment[] }>();
  private cacheRendering: Rendering;
  readonly freshness: FreshnessPolicy;
  private rendering: Rendering;

  constructor(options: EngineOptions = {}) {
    this.rendering = options.rendering ?? 'transcript';
    this.cacheRendering = this.rendering;
    this.freshness = options.freshness ?? 'fresh';
  }

  get turnCount(): number {
    return this.turns.length;
  }

  get renderingMode(): Rendering {
    return this.rendering;
  }

  /** The library as the next turn will see it: latest version of each item, first-appearance order. */
  libraryItems(): LibraryItem[] {
    return this.library.latest();
  }

  /**
   * Library notes to re-read before assemble() (freshness): their id and where they are now (a note
   * moved since it was attached keeps its id; its source is the new path).
   */
  libraryNotes(): Array<{ id: string; source: string }> {
    return this.library
      .latest()
      .filter((item) => item.kind === 'note')
      .map((item) => ({ id: item.id, source: item.source }));
  }

  completedTurns(): readonly CompletedTurn[] {
    return this.turns;
  }

  /** The user removed an item from the library: a deliberate prefix break, reported on the next turn. */
  removeFromLibrary(id: string): boolean {
    const removed = this.library.remove(id);
    if (removed) {
      this.pending.push({ type: 'removed', id });
      this.historyCache.clear();
    }
    return removed;
  }

  /** Deliberate compaction: drop superseded versions. Returns how many versions were dropped. */
  compact(): number {
    const dropped = this.library.compact();
    if (dropped > 0) {
      this.pending.push({ type: 'compacted', dropped });
      this.historyCache.clear();
    }
    return dropped;
  }

  setRendering(rendering: Rendering): void {
    if (rendering === this.rendering) return;
    this.rendering = rendering;
    this.pending.push({ type: 'rendering', rendering });
  }

  assemble(input: TurnInput): TurnAssembly {
    const turn = this.turns.length + 1;
    const counter = tokenCounterFor(input.model);
    const freshness: FreshnessEvent[] = [];
    const referenced: string[] = [];
    const l3Items: ItemSegment[] = [];
    const attached = new Set<string>();
    const nextVersion = new Map<string, number>();

    const enter = (item: ContextItem, mode: 'new' | 'update') => {
      const latest = this.library.get(item.id);
      const version = mode === 'new' ? 1 : (latest?.version ?? 0) + 1;
      nextVersion.set(item.id, version);
      l3Items.push(itemSegment(toLibraryItem(item, version, turn, counter), mode, counter));
    };

    for (const item of input.items) {
      if (attached.has(item.id)) continue;
      attached.add(item.id);
      const latest = this.library.get(item.id);
      if (!latest) {
        enter(item, 'new');
      } else if (latest.hash === item.hash) {
        referenced.push(item.id);
      } else if (sendsUpdate(this.freshness, true)) {
        freshness.push({
          id: item.id,
          status: 'updated',
          fromVersion: latest.version,
          toVersion: latest.version + 1,
          detail: 'the note changed since it was sent; the new version is sent in full',
        });
        enter(item, 'update');
      } else {
        referenced.push(item.id);
        freshness.push({
          id: item.id,
          status: 'stale-kept',
          fromVersion: latest.version,
          detail: 'the note changed since it was sent; the library copy is kept (stable policy)',
        });
      }
    }

    for (const latest of this.library.latest()) {
      if (attached.has(latest.id) || !input.current?.has(latest.id)) continue;
      const now = input.current.get(latest.id);
      if (now === null || now === undefined) {
        freshness.push({
          id: latest.id,
          status: 'missing-kept',
          fromVersion: latest.version,
          detail: 'the note is no longer in the vault; the library copy is kept',
        });
      } else if (now.hash !== latest.hash) {
        if (sendsUpdate(this.freshness, false)) {
          freshness.push({
            id: latest.id,
            status: 'updated',
            fromVersion: latest.version,
            toVersion: latest.version + 1,
            detail: 'a library note changed since it was sent; the new version is sent in full',
          });
          enter({ ...now, via: latest.via }, 'update');
        } else {
          freshness.push({
            id: latest.id,
            status: 'stale-kept',
            fromVersion: latest.version,
            detail: `a library note changed since it was sent; the library copy is kept (${this.freshness} policy)`,
          });
        }
      }
    }

    const tools = input.tools ?? [];
    const problems = input.problems ?? [];
    const l3: Array<ToolSegment | ReferenceSegment | ItemSegment | ProblemSegment> = [];
    for (const tool of tools) l3.push(segment<ToolSegment>({ type: 'tool', tool }, renderTool(tool), counter));
    if (referenced.length > 0) l3.push(segment<ReferenceSegment>({ type: 'references', ids: referenced }, renderReferences(referenced), counter));
    l3.push(...l3Items);
    if (problems.length > 0) l3.push(segment<ProblemSegment>({ type: 'problems', problems }, renderProblems(problems), counter));

    const l4: MessageSegment[] = [];
    for (const t of this.turns) l4.push(...this.historySegments(t, counter));

    const envelope: Envelope = {
      turn,
      model: input.model,
      layers: {
        L1: layer('L1', input.fragments.map((f) => segment({ type: 'fragment', id: f.id, lifecycle: f.lifecycle }, f.text, counter))),
        L2: layer('L2', this.library.all().map((item) => itemSegment(item, 'library', counter)), this.chains.library),
        L3: layer('L3', l3),
        L4: layer('L4', l4, this.chains.history),
        L5: layer('L5', [segment({ type: 'message', role: 'user', turn }, input.userText, counter)]),
      },
      referenced,
      full: l3Items.map((s) => `${s.item.id}@${s.item.version}`),
      freshness,
      unresolved: problems,
      removed: this.pending.flatMap((e) => (e.type === 'removed' ? [e.id] : [])),
      history: this.turns.map(({ turn: n, dynamic, tools: t, referenced: r, problems: p }) => ({
        turn: n,
        dynamic,
        tools: t,
        referenced: r,
        problems: p,
      })),
    };

    if (this.cacheRendering !== this.rendering) {
      this.historyCache.clear();
      this.cacheRendering = this.rendering;
    }
    const rendered = new LayerToMessagesConverter(this.rendering).render(envelope, this.historyCache);
    const messages: ChatMessage[] = rendered.map(({ role, content }) => ({ role, content }));
    const messageHashes = messages.map((m) => this.messageHash(m));
    const prefixHash = this.chains.messages.combine(messageHashes.slice(0, -1));
    const fragments = envelope.layers.L1.segments;
    const prefixChange = detectPrefixChange({
      previous: this.lastRequest,
      messageHashes,
      model: input.model,
      fragments: input.fragments,
      fragmentHashes: fragments.map((f) => f.hash),
      pending: this.pending,
      combine: (hashes) => this.chains.messages.combine(hashes),
      rendering: this.rendering,
      libraryGrew: this.lastRequest !== null && this.library.all().length > this.lastRequest.libraryVersions,
    });
    let promptTokens = TOKENS_REPLY_PRIMING;
    for (const m of rendered) promptTokens += TOKENS_PER_MESSAGE + this.messageTokens(m, counter);
    return { envelope, messages, messageHashes, promptTokens, prefixHash, prefixChange };
  }

  /** Record a completed turn: its new item versions join the library, its messages join history. */
  commit(assembly: TurnAssembly, reply: string): CompletedTurn {
    const { envelope } = assembly;
    const libraryBefore = this.library.all().length;
    if (envelope.turn !== this.turns.length + 1) {
      throw new Error(`cannot commit turn ${envelope.turn}: the conversation is at turn ${this.turns.length + 1}`);
    }
    for (const s of envelope.layers.L3.segments) if (s.type === 'item') this.library.add(s.item);
    const fragments = envelope.layers.L1.segments;
    const completed: CompletedTurn = {
      turn: envelope.turn,
      userText: envelope.layers.L5.segments[0].text,
      reply,
      model: envelope.model,
      dynamic: fragments.filter((f) => f.lifecycle === 'dynamic').map((f) => ({ id: f.id, lifecycle: f.lifecycle, text: f.text })),
      tools: envelope.layers.L3.segments.flatMap((s) => (s.type === 'tool' ? [s.tool] : [])),
      referenced: envelope.referenced,
      problems: envelope.unresolved,
    };
    this.turns.push(completed);
    const replyHash = this.messageHash({ role: 'assistant', content: reply });
    this.lastRequest = {
      count: assembly.messageHashes.length + 1,
      combined: this.chains.messages.combine([...assembly.messageHashes, replyHash]),
      model: envelope.model,
      staticFragments: fragments.filter((f) => f.lifecycle === 'static').map((f) => `${f.id}:${f.hash}`),
      libraryVersions: libraryBefore,
    };
    this.pending = [];
    return completed;
  }

  /** Drop the last completed turns (edit and resend, regenerate): history changes, said as such. */
  truncate(turnCount: number): void {
    if (turnCount >= this.turns.length) return;
    const keep = Math.max(0, turnCount);
    this.library = new ContextLibrary(this.library.all().filter((item) => item.enteredTurn <= keep));
    this.turns = this.turns.slice(0, keep);
    this.historyCache.clear();
    this.pending.push({ type: 'truncated', turns: keep });
  }

  snapshot(): EngineState {
    return { turns: [...this.turns], library: [...this.library.all()], lastRequest: this.lastRequest, pending: [...this.pending] };
  }

  /**
   * Rebuild from saved state. `edited` lists ids whose text differs from what was sent (a note
   * edited while the chat was closed): the next turn reports that as the reason if the prefix broke.
   */
  static restore(state: EngineState, options: EngineOptions = {}, edited: readonly string[] = []): PromptContextEngine {
    const engine = new PromptContextEngine(options);
    engine.library = new ContextLibrary(state.library);
    engine.turns = [...state.turns];
    engine.lastRequest = state.lastRequest ?? null;
    engine.pending = [...(state.pending ?? [])];
    if (edited.length > 0) engine.pending.push({ type: 'edited', ids: [...edited] });
    return engine;
  }

  private messageHash(message: ChatMessage): string {
    const memo = this.hashMemo[message.role];
    let hash = memo.get(message.content);
    if (hash === undefined) {
      hash = sha256Hex(`${message.role}\n${message.content}`);
      memo.set(message.content, hash);
    }
    return hash;
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
    return tokens;
  }

  private historySegments(t: CompletedTurn, counter: TokenCounter): MessageSegment[] {
    const memo = this.segmentMemo.get(t);
    if (memo && memo.encoding === counter.encoding) return memo.segments;
    const segments = [
      segment<MessageSegment>({ type: 'message', role: 'user', turn: t.turn }, t.userText, counter),
      segment<MessageSegment>({ type: 'message', role: 'assistant', turn: t.turn }, t.reply, counter),
    ];
    this.segmentMemo.set(t, { encoding: counter.encoding, segments });
    return segments;
  }
}

function toLibraryItem(item: ContextItem, version: number, turn: number, counter: TokenCounter): LibraryItem {
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
  };
  // Tokens of the item as sent (its block): counted once here, found memoised when the block is
  // counted again as a segment and as part of the message.
  return { ...entry, tokens: counter.count(renderItem(entry)) };
}

// Library items are immutable: render, count and hash each one once per tokenizer, not every turn.
const renderedItems = new WeakMap<LibraryItem, { encoding: string; text: string; tokens: number; hash: string }>();

function itemSegment(item: LibraryItem, mode: ItemSegment['mode'], counter: TokenCounter): ItemSegment {
  let rendered = renderedItems.get(item);
  if (!rendered || rendered.encoding !== counter.encoding) {
    const text = rendered?.text ?? renderItem(item);
    rendered = { encoding: counter.encoding, text, tokens: counter.count(text), hash: rendered?.hash ?? sha256Hex(text) };
    renderedItems.set(item, rendered);
  }
  const { text, tokens, hash } = rendered;
  return { type: 'item', item, mode, text, tokens, hash };
}

function segment<S extends Segment>(fields: Omit<S, 'text' | 'tokens' | 'hash'>, text: string, counter: TokenCounter): S {
  return { ...fields, text, tokens: counter.count(text), hash: sha256Hex(text) } as S;
}

function layer<S extends Segment>(id: LayerId, segments: S[], chain?: HashChain): Layer<S> {
  let tokens = SEP_TOKENS;
  for (const s of segments) tokens += s.tokens;
  const hashes = segments.map((s) => s.hash);
  return { id, segments, tokens, hash: chain ? chain.combine(hashes) : combineHashes(hashes) };
}

export type { FragmentSegment };
