import type { ContextItem, ItemKind } from '../context/items';
import { renderCompaction, withoutFormsPast, type Compaction } from './compaction';
import { addSegment, historyRecordOf, imagesNotInHistory } from './historyRecords';
import { maskTurn } from './masking';
import { applyToolForms, formsByTurn, formsKey, type ToolForm } from './toolForms';
import type { ResolutionProblem } from '../context/resolver';
import { tokenCounterFor, TOKENS_REPLY_PRIMING, type TokenCounter } from '../tokens/tokenCounter';
import { LayerToMessagesConverter, plainMessage } from './converter';
import { type Rendering } from '../settings/engineChoices';
import { HistoryRun, type RenderedMessage } from './historyRun';
import { madeOnce } from '../memo';
import { decideItems } from './decide';
import type { FreshnessPolicy } from '../settings/engineChoices';
import { sentTurnOf, type CompletedTurn } from './completedTurn';
import { ContextLibrary } from './library';
import { condensedIds } from './condensedLibrary';
import { imageTokens, itemSegment, layer, Measure, segment, toLibraryItem } from './measure';
import type { ChatMessage } from './messages';
import { detectPrefixChange, type CommittedRequest, type PendingEvent } from './prefix';
export type { CommittedRequest, PendingEvent } from './prefix';
import { renderProblems, renderReferences, renderTool } from './render';
import type {
  AgentHistory,
  CondensedEntry,
  LibraryCondensing,
  Envelope,
  FragmentSegment,
  ImagePart,
  ItemSegment,
  LibraryItem,
  MessageSegment,
  ProblemSegment,
  PromptFragment,
  ReferenceSegment,
  SummarySegment,
  ToolOutput,
  ToolSegment,
} from './types';
import type { TurnAssembly } from './turnAssembly';

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
  /**
   * Images of this turn's user message (the active note's embeds, read and sized by
   * src/core/context/images.ts): sent after its text, counted in L5, kept with the turn for history.
   * An image an earlier turn in history already carries (same bytes) is not sent again.
   */
  readonly images?: readonly ImagePart[];
}

/** Serializable engine state (library contents included): what a saved chat must restore. */
export interface EngineState {
  readonly turns: readonly CompletedTurn[];
  readonly library: readonly LibraryItem[];
  /** Fingerprint of the last successful request, so a reloaded chat can tell whether it still extends it. */
  readonly lastRequest?: CommittedRequest | null;
  /** Deliberate events since that request (removal, compaction…), so a reload keeps their names. */
  readonly pending?: readonly PendingEvent[];
  /** The latest compaction: what history renders as a summary, and what is masked. */
  readonly compaction?: Compaction | null;
  /** Library items condensed out of the library block (condensedLibrary.ts). */
  readonly libraryCondensing?: LibraryCondensing | null;
}

/** assemble() for a compaction that is not (yet) the engine's: planning a compaction measures candidates. */
export interface AssembleOptions {
  readonly compaction?: Compaction | null;
  /** A candidate library condensing (planning one measures candidates), as compaction. */
  readonly libraryCondensing?: LibraryCondensing | null;
}

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
  /** Library notes the chat's agent edited since the last turn, by path, with how to name the change (issue 28). */
  private readonly appliedEdits = new Map<string, string>();
  /** The ones the last assembly named: its commit forgets them (an edit made during the turn is named on the next). */
  private namedEdits: readonly string[] = [];
  private compaction: Compaction | null = null;
  private condensing: LibraryCondensing | null = null;
  /** Condensed ids the user asked to send in full again: they enter the next request as a new version. */
  private fullAgain: string[] = [];
  /** Masked copies of kept turns, per compaction's limits (stable identity, so their counts stay memoised). */
  private masked = new WeakMap<CompletedTurn, { key: string; turn: CompletedTurn }>();
  /** Each compaction's tool forms by turn. */
  private forms = new WeakMap<Compaction, ReadonlyMap<number, readonly ToolForm[]>>();
  /** History as the last assembly built it (L4, its messages, hashes and tokens), extended turn by turn. */
  private run = new HistoryRun();
  /** The summary segment of each compaction, per tokenizer (stable identity: the run continues under it). */
  private summaries = new WeakMap<Compaction, { encoding: string; segment: SummarySegment }>();
  private measure = new Measure();
  /** The last assembly and what it was made of (see assemble). */
  private lastAssembly: { key: readonly unknown[]; assembly: TurnAssembly } | null = null;
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
  libraryItems(): readonly LibraryItem[] {
    return this.library.latest();
  }

  /**
   * Library notes (and PDFs, re-read alike) to re-read before assemble() (freshness): their id and where they are now (a note
   * moved since it was attached keeps its id; its source is the new path).
   */
  libraryNotes(): readonly LibrarySource[] {
    const condensed = this.condensedIds();
    const notes = madeOnce(libraryNotesOf, this.library.latest(), (latest) => latest.filter((item) => RE_READ_KINDS.has(item.kind)).map((item) => ({ id: item.id, source: item.source, kind: item.kind })));
    // A condensed note is not re-read: its compact form stays until it is attached again.
    return condensed.size === 0 ? notes : notes.filter((n) => !condensed.has(n.id));
  }

  /** The library condensing history renders through (null: none yet). */
  currentLibraryCondensing(): LibraryCondensing | null {
    return this.condensing;
  }

  /** Ids whose latest version the library holds only in condensed form. */
  condensedIds(): ReadonlySet<string> {
    return condensedIds(this.condensing, this.library.latestVersions());
  }

  /**
   * A library condensing (issue 27): items leave the library block for the condensed block, a
   * deliberate prefix break named on the next turn (`library-condensed`). Entries already sent stay
   * as they were unless `rewritten` (the block passed its share and was listed tighter).
   */
  condenseLibrary(next: LibraryCondensing, added: readonly CondensedEntry[], rewritten = false): void {
    this.condensing = next;
    this.pending.push({ type: 'library-condensed', ids: added.map((e) => e.id), rewritten });
  }

  /** The user asked for a condensed item in full again: the next request sends it as a new version. */
  sendInFull(id: string): boolean {
    if (!this.condensedIds().has(id) || this.fullAgain.includes(id)) return false;
    this.fullAgain = [...this.fullAgain, id];
    return true;
  }

  /** Condensed ids the next request sends in full again (the user asked). */
  requestedInFull(): readonly string[] {
    return this.fullAgain;
  }

  completedTurns(): readonly CompletedTurn[] {
    return this.turns;
  }

  /**
   * The user removed an item from the library: a deliberate prefix break, reported on the next turn.
   * `replanned`: the artifact plan took it out (the user excluded it), named as such.
   */
  removeFromLibrary(id: string, replanned?: string): boolean {
    const removed = this.library.remove(id);
    if (removed) {
      this.dropCondensed((e) => e.id === id);
      this.pending.push(replanned ? { type: 'replanned', ids: [id], detail: replanned } : { type: 'removed', id });
      this.run.clear();
    }
    return removed;
  }

  /** The compaction history renders through (null: none yet). */
  currentCompaction(): Compaction | null {
    return this.compaction;
  }

  /**
   * A compaction: turns 1..through become the summary, a deliberate prefix break (`condensed`) named
   * on the next turn. Each compaction covers at least what the previous one did.
   */
  condense(compaction: Compaction): void {
    const previous = this.compaction?.through ?? 0;
    if (compaction.through < previous || compaction.through > this.turns.length) {
      throw new Error(`cannot condense through turn ${compaction.through}: the chat has ${this.turns.length} turn(s), ${previous} already condensed`);
    }
    if (compaction.maskedThrough < compaction.through || compaction.maskedThrough > this.turns.length) {
      throw new Error(`cannot mask through turn ${compaction.maskedThrough}`);
    }
    this.compaction = compaction;
    this.pending.push({ type: 'condensed', through: compaction.through, kind: compaction.kind });
    this.run.clear();
  }

  /** History as it renders under a compaction: the kept turns, masked where the compaction says. */
  private keptTurns(c: Compaction | null): CompletedTurn[] {
    if (!c) return this.turns;
    const limits = `${c.masking.maxOutputLines}/${c.masking.maxCodeLines}`;
    const forms = this.formsOf(c);
    return this.turns.slice(c.through).map((t) => {
      if (t.turn > c.maskedThrough) return t;
      const own = forms.get(t.turn);
      const key = `${limits}|${formsKey(own)}`;
      const memo = this.masked.get(t);
      if (memo && memo.key === key) return memo.turn;
      // The compaction's forms first (a digest is short enough that masking leaves it), then masking.
      const masked = maskTurn(applyToolForms(t, own).turn, c.masking).turn;
      this.masked.set(t, { key, turn: masked });
      return masked;
    });
  }

  /** A compaction's tool forms by turn, built once per compaction. */
  private formsOf(c: Compaction): ReadonlyMap<number, readonly ToolForm[]> {
    let map = this.forms.get(c);
    if (!map) {
      map = formsByTurn(c.toolForms);
      this.forms.set(c, map);
    }
    return map;
  }

  /**
   * The chat moved to another project (labels as the user names them): a deliberate event. When the
   * project prompt changes with it, the next request's break is named 'project-switch'.
   */
  switchProject(from: string, to: string): void {
    if (from !== to) this.pending.push({ type: 'project', from, to });
  }

  setRendering(rendering: Rendering): void {
    if (rendering === this.rendering) return;
    this.rendering = rendering;
    this.pending.push({ type: 'rendering', rendering });
  }

  /**
   * The same input object on the same state gives the same assembly, made once: a turn is measured
   * (planning, the usage line) and then sent from one input. The key holds every part of the state an
   * assembly reads; each change to it replaces an object or changes a length.
   */
  assemble(input: TurnInput, options: AssembleOptions = {}): TurnAssembly {
    const library = this.library.all();
    const key = [input, options.compaction, options.libraryCondensing, library, library.length, this.turns, this.turns.length, this.compaction, this.condensing, this.fullAgain, this.pending, this.pending.length, this.lastRequest, this.rendering];
    const last = this.lastAssembly;
    if (last && last.key.length === key.length && last.key.every((k, i) => k === key[i])) return last.assembly;
    const assembly = this.assembleNow(input, options);
    this.lastAssembly = { key, assembly };
    return assembly;
  }

  private assembleNow(input: TurnInput, options: AssembleOptions): TurnAssembly {
    const turn = this.turns.length + 1;
    const compaction = options.compaction !== undefined ? options.compaction : this.compaction;
    // A candidate compaction (planning): rendered apart from the history cache, named as it would be.
    const candidate = compaction !== this.compaction;
    const condensing = options.libraryCondensing !== undefined ? options.libraryCondensing : this.condensing;
    const pending: PendingEvent[] = [...this.pending];
    if (condensing !== this.condensing && condensing) pending.push({ type: 'library-condensed', ids: condensing.entries.slice(this.condensing?.entries.length ?? 0).map((e) => e.id), rewritten: false });
    if (candidate && compaction) pending.push({ type: 'condensed', through: compaction.through, kind: compaction.kind });
    const kept = this.keptTurns(compaction);
    const counter = tokenCounterFor(input.model);
    const latestVersions = this.library.latestVersions();
    const condensed = condensedIds(condensing, latestVersions);
    const { enter, referenced, freshness } = decideItems({
      latest: latestVersions,
      items: this.withRequestedInFull(input.items, condensed),
      current: input.current,
      policy: this.freshness,
      condensed,
      ...(this.appliedEdits.size > 0 ? { appliedEdits: this.appliedEdits } : {}),
    });
    if (!candidate) this.namedEdits = [...this.appliedEdits.keys()];
    const l3Items = enter.map(({ item, mode, version }) => itemSegment(toLibraryItem(item, version, turn, counter), mode, counter));

    const tools = input.tools ?? [];
    const problems = input.problems ?? [];
    const images = imagesNotInHistory(input.images ?? [], kept);
    const l3: Array<ToolSegment | ReferenceSegment | ItemSegment | ProblemSegment> = [];
    for (const tool of tools) l3.push(segment<ToolSegment>({ type: 'tool', tool }, renderTool(tool), counter));
    if (referenced.length > 0) l3.push(segment<ReferenceSegment>({ type: 'references', ids: referenced }, renderReferences(referenced), counter));
    l3.push(...l3Items);
    if (problems.length > 0) l3.push(segment<ProblemSegment>({ type: 'problems', problems }, renderProblems(problems), counter));

    // A candidate compaction (planning) is measured on a run of its own: the engine's stays as it is.
    const run = candidate ? new HistoryRun() : this.run;
    this.extendHistory(run, kept, compaction ? this.summaryOf(compaction, counter) : null, counter);

    const envelope: Envelope = {
      turn,
      model: input.model,
      layers: {
        L1: layer('L1', input.fragments.map((f) => segment({ type: 'fragment', id: f.id, lifecycle: f.lifecycle }, f.text, counter))),
        L2: this.measure.growingLayer('L2', this.library.all().map((item) => itemSegment(item, 'library', counter))),
        L3: layer('L3', l3),
        L4: this.measure.historyLayer(run),
        L5: layer('L5', [userSegment(turn, input.userText, images, counter)]),
      },
      referenced,
      full: l3Items.map((s) => `${s.item.id}@${s.item.version}`),
      freshness,
      unresolved: problems,
      removed: pending.flatMap((e) => (e.type === 'removed' ? [e.id] : [])),
      condensedThrough: compaction?.through ?? 0,
      ...(condensing && condensing.entries.length > 0 ? { condensedLibrary: { entries: condensing.entries, ids: [...condensed] } } : {}),
      ...(images.length > 0 ? { images } : {}),
      history: run.records.slice(),
    };

    if (this.cacheRendering !== this.rendering) {
      // Rendered messages of the other rendering: the run keeps its L4, not its messages.
      if (!candidate) this.clearRendered(run);
      this.cacheRendering = this.rendering;
    }
    const rendered = new LayerToMessagesConverter(this.rendering).render(envelope, run);
    const { messages, messageHashes, promptTokens } = this.measured(rendered, run, envelope.layers.L4.segments.length, counter);
    const prefixHash = this.measure.combineMessages(messageHashes.slice(0, -1));
    const fragments = envelope.layers.L1.segments;
    const prefixChange = detectPrefixChange({
      previous: this.lastRequest,
      messageHashes,
      model: input.model,
      fragments: input.fragments,
      fragmentHashes: fragments.map((f) => f.hash),
      pending,
      combine: (hashes) => this.measure.combineMessages(hashes),
      rendering: this.rendering,
      libraryGrew: this.lastRequest !== null && this.library.all().length > this.lastRequest.libraryVersions,
      ...(this.appliedEdits.size > 0 ? { appliedEdits: [...this.appliedEdits.values()] } : {}),
    });
    return { envelope, messages, messageHashes, promptTokens, prefixHash, prefixChange };
  }

  /** This turn's items with the condensed ones the user asked for in full again (their library text, as a re-attach). */
  private withRequestedInFull(items: readonly ContextItem[], condensed: ReadonlySet<string>): readonly ContextItem[] {
    const asked = this.fullAgain.filter((id) => condensed.has(id) && !items.some((i) => i.id === id));
    if (asked.length === 0) return items;
    const more = asked.flatMap((id) => {
      const lib = this.library.get(id);
      if (!lib) return [];
      const { kind, title, source, via, hash, content } = lib;
      return [{ id, kind, title, source, hash, content, ...(via ? { via } : {}) }];
    });
    return [...items, ...more];
  }

  /** Entries for which `drop` holds leave the condensed block (their item left the library or history went back). */
  private dropCondensed(drop: (e: CondensedEntry) => boolean): void {
    const c = this.condensing;
    if (!c || !c.entries.some(drop)) return;
    const entries = c.entries.filter((e) => !drop(e));
    this.condensing = entries.length > 0 ? { ...c, entries } : null;
  }

  /** The summary a compaction renders as, one segment per compaction and tokenizer. */
  private summaryOf(compaction: Compaction, counter: TokenCounter): SummarySegment {
    const kept = this.summaries.get(compaction);
    if (kept && kept.encoding === counter.encoding) return kept.segment;
    const made = segment<SummarySegment>({ type: 'summary', through: compaction.through }, renderCompaction(compaction), counter);
    this.summaries.set(compaction, { encoding: counter.encoding, segment: made });
    return made;
  }

  /** The run holds L4 for these kept turns: continued with the turns it lacks, or started again when history changed otherwise. */
  private extendHistory(run: HistoryRun, kept: readonly CompletedTurn[], summary: SummarySegment | null, counter: TokenCounter): void {
    if (!run.continues(kept, summary, counter.encoding)) {
      run.clear(summary, counter.encoding);
      if (summary) addSegment(run, summary);
    }
    if (run.turns.length === kept.length) return;
    for (let i = run.turns.length; i < kept.length; i++) {
      run.records.push(historyRecordOf(kept[i]));
      for (const s of this.measure.historySegments(kept[i], counter)) addSegment(run, s);
    }
    run.turns = kept.slice();
  }

  private clearRendered(run: HistoryRun): void {
    const { turns, summary, encoding, segments, segmentHashes, segmentTokens, records } = run;
    run.clear(summary, encoding);
    Object.assign(run, { turns, segments, segmentHashes, segmentTokens, records });
  }

  /**
   * The request as providers get it, its hashes and its tokens. History messages the run rendered
   * (transcript) are taken from it, measured once each; otherwise (seed rendering) every message is.
   */
  private measured(rendered: readonly RenderedMessage[], run: HistoryRun, historySegments: number, counter: TokenCounter): Pick<TurnAssembly, 'messages' | 'messageHashes' | 'promptTokens'> {
    const hashOf = (m: ChatMessage) => this.measure.messageHash(m);
    const fromRun = this.rendering === 'transcript' && run.rendered === historySegments && rendered.length === run.messages.length + 2;
    if (!fromRun) {
      const messages: ChatMessage[] = rendered.map(plainMessage);
      return { messages, messageHashes: messages.map(hashOf), promptTokens: this.measure.promptTokens(rendered, counter) };
    }
    for (let i = run.plain.length; i < run.messages.length; i++) {
      const m = run.messages[i];
      const plain = plainMessage(m);
      run.plain.push(plain);
      run.hashes.push(hashOf(plain));
      run.messageTokens += this.measure.framedTokens(m, counter);
    }
    const first = rendered[0];
    const last = rendered[rendered.length - 1];
    const [system, current] = [plainMessage(first), plainMessage(last)];
    const messages = [system, ...run.plain, current];
    const messageHashes = [hashOf(system), ...run.hashes, hashOf(current)];
    const promptTokens = TOKENS_REPLY_PRIMING + this.measure.framedTokens(first, counter) + run.messageTokens + this.measure.framedTokens(last, counter);
    return { messages, messageHashes, promptTokens };
  }

  /**
   * Record a completed turn: its new item versions join the library, its messages join history. An
   * agent turn (`agent`) answered after tool calls: history replays its steps natively, so the request
   * that extends is the loop's first (`sent`, without the results in its user message), not `assembly`.
   */
  commit(assembly: TurnAssembly, reply: string, agent?: { readonly history: AgentHistory; readonly sent: TurnAssembly }): CompletedTurn {
    const { envelope } = assembly;
    const libraryBefore = this.library.all().length;
    if (envelope.turn !== this.turns.length + 1) {
      throw new Error(`cannot commit turn ${envelope.turn}: the conversation is at turn ${this.turns.length + 1}`);
    }
    for (const s of envelope.layers.L3.segments) if (s.type === 'item') this.library.add(s.item);
    const fragments = envelope.layers.L1.segments;
    const completed: CompletedTurn = { ...sentTurnOf(assembly), reply, ...(agent ? { agent: agent.history } : {}) };
    this.turns.push(completed);
    const replyHash = this.measure.messageHash({ role: 'assistant', content: reply });
    const sent = agent ? agent.sent.messageHashes : assembly.messageHashes;
    this.lastRequest = {
      count: sent.length + 1,
      combined: this.measure.combineMessages([...sent, replyHash]),
      model: envelope.model,
      staticFragments: fragments.filter((f) => f.lifecycle === 'static').map((f) => `${f.id}:${f.hash}`),
      libraryVersions: libraryBefore,
    };
    this.pending = [];
    this.fullAgain = [];
    for (const path of this.namedEdits) this.appliedEdits.delete(path);
    this.namedEdits = [];
    return completed;
  }

  /**
   * The chat applied an edit to the note at `path` (issue 28): if the library holds it, its new
   * version (by the freshness policy) is named "you applied an edit to …" until the next turn commits.
   */
  noteEdited(path: string): void {
    if (this.library.all().some((item) => item.source === path)) this.appliedEdits.set(path, `you applied an edit to ${path}`);
  }

  /** Drop the last completed turns (edit and resend, regenerate): history changes, said as such. */
  truncate(turnCount: number): void {
    if (turnCount >= this.turns.length) return;
    const keep = Math.max(0, turnCount);
    this.library = new ContextLibrary(this.library.all().filter((item) => item.enteredTurn <= keep));
    this.turns = this.turns.slice(0, keep);
    // A compaction of turns now gone is undone (history is back to verbatim); masking never reaches turns sent after this.
    const c = this.compaction;
    if (c) this.compaction = c.through > keep ? null : withoutFormsPast({ ...c, maskedThrough: Math.min(c.maskedThrough, keep) }, keep);
    // Condensed items are carried ones: those no longer carried, or gone, leave the block.
    const through = this.compaction?.through ?? 0;
    this.dropCondensed((e) => {
      const lib = this.library.latestVersions().get(e.id);
      return !lib || lib.version !== e.version || lib.enteredTurn > through;
    });
    this.run.clear();
    this.pending.push({ type: 'truncated', turns: keep });
  }

  snapshot(): EngineState {
    return {
      turns: [...this.turns],
      library: [...this.library.all()],
      lastRequest: this.lastRequest,
      pending: [...this.pending],
      ...(this.compaction ? { compaction: this.compaction } : {}),
      ...(this.condensing ? { libraryCondensing: this.condensing } : {}),
    };
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
    // A compaction past the turns restored (a hand-edited note) cannot be rendered: history goes back to verbatim.
    const c = state.compaction ?? null;
    engine.compaction = c && c.through <= engine.turns.length ? { ...c, maskedThrough: Math.min(c.maskedThrough, engine.turns.length) } : null;
    engine.condensing = state.libraryCondensing ?? null;
    if (edited.length > 0) engine.pending.push({ type: 'edited', ids: [...edited] });
    return engine;
  }
}

export type { FragmentSegment };

/** libraryNotes() per latest() array (the same until the library changes). */
const libraryNotesOf = new WeakMap<readonly LibraryItem[], readonly LibrarySource[]>();
/** Library items read again from the vault before each turn (canvases like notes; a Dataview block's result may change with any note). */
const RE_READ_KINDS: ReadonlySet<ItemKind> = new Set(['note', 'pdf', 'canvas', 'dataview']);
type LibrarySource = { readonly id: string; readonly source: string; readonly kind: ItemKind };

/** L5's segment: the user's text, its images' tokens counted with it (what "your message" costs). */
function userSegment(turn: number, text: string, images: readonly ImagePart[], counter: ReturnType<typeof tokenCounterFor>): MessageSegment {
  const s = segment<MessageSegment>({ type: 'message', role: 'user', turn }, text, counter);
  return images.length > 0 ? { ...s, tokens: s.tokens + imageTokens(images) } : s;
}
