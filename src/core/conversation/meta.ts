import type { ContextChip } from '../context/items';
import { FLAG_KEYS } from './chatFlags';
import { LAYER_IDS, type ImageRef } from '../engine/types';
import { sha256HexKept } from '../contentHashes';
import { readLenient } from '../lenient';
import { EMPTY_FRONTMATTER, FORMAT_VERSION, Frontmatter, type ParsedTurnRecord } from './metaSchema';
import type { ChatTurn, CompactionRecord, Conversation, EnvelopeRecord, ItemRef } from './model';
import { isoFromEpoch } from './time';
import { madeOnce } from '../memo';
import { writePlanBook, writePlanRecord } from './planSchema';
import type { TurnSearch } from './records/search';
import type { AgentTurn } from './records/agent';
import { KEPT_HUNK_CHARS, type EditEntry } from './records/edits';

/**
 * The chat's metadata as one record: readable properties at the top (title, times, model), the
 * machine state under `strata` (id, provider session, last request fingerprint, library refs, one
 * record per compaction and per turn). The codec splits it (splitMeta): the frontmatter keeps the
 * readable properties and `strata`'s format, id and title source; the rest goes to the chat data
 * callout (chatData.ts), so Obsidian's Properties view stays short however long the chat. Format-1
 * notes kept all of it in the frontmatter; both read through readMeta.
 * Reading validates field by field (metaSchema.ts): a bad field falls back to a safe default with a warning.
 */

export { FORMAT_VERSION };

/** Short hash of a message as written, to tell a hand-edited message on load. */
export function textHash(text: string): string {
  // Each message is hashed when saved, when its note is decoded and when it is saved after that: found again by its content.
  return sha256HexKept(text).slice(0, 16);
}

/**
 * Frontmatter keys Strata writes; any other key is the user's and is kept as it is. EMPTY_FRONTMATTER
 * has the schema's keys in its order (a test holds them equal): the schema is built when a note is read, not at load.
 */
export const OWNED_KEYS: readonly string[] = Object.keys(EMPTY_FRONTMATTER);

/**
 * What the frontmatter keeps of a turn, as read: its metadata (the text lives in the body) and the
 * hashes that tell a hand-edited message, with an unreadable time replaced by the chat's creation.
 */
export type TurnRecord = Omit<ParsedTurnRecord, 'at'> & { readonly at: number };

/** What the frontmatter keeps of a compaction: all but its text (the summary callout), and the text's hash. */
export type CompactionMeta = Omit<CompactionRecord, 'text'> & { readonly textHash?: string };

export interface ReadMeta {
  /** The conversation without turns, library or preamble (those need the body). */
  readonly conversation: Conversation;
  readonly turns: TurnRecord[];
  readonly library: ItemRef[];
  /** Compaction records, as written (oldest first); the codec pairs them with their summary callouts. */
  readonly compactions: CompactionMeta[];
  /** False when the library could not be read (the codec rebuilds it from the context lists). */
  readonly libraryFromData: boolean;
}

// ---------------------------------------------------------------- write

/**
 * `lists: false` leaves out the library, compaction and turn records (the codec writes their lines
 * from the objects, through keptRecordOf, joining only the new ones).
 */
export function writeMeta(c: Conversation, { lists = true }: { lists?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    title: c.title,
    created: isoFromEpoch(c.created),
    updated: isoFromEpoch(c.updated),
    provider: c.provider,
    model: c.model,
    mode: c.mode,
    strata: {
      format: FORMAT_VERSION,
      id: c.id,
      ...(c.project !== undefined ? { project: c.project } : {}),
      titleSource: c.titleSource,
      ...(c.titleCall ? { titleCall: { provider: c.titleCall.provider, model: c.titleCall.model, usage: { ...c.titleCall.usage }, cost: c.titleCall.cost } } : {}),
      session: c.session ? { ...c.session } : null,
      lastRequest: c.lastRequest ? { ...c.lastRequest, staticFragments: [...c.lastRequest.staticFragments] } : null,
      ...(c.pending && c.pending.length > 0 ? { pending: c.pending.map((e) => ({ ...e })) } : {}),
      ...(c.condensedLibrary ? { condensedLibrary: { rounds: c.condensedLibrary.rounds, entries: c.condensedLibrary.entries.map((e) => ({ ...e })) } } : {}),
      ...(lists ? { library: c.library.map(keptRecordOf.item) } : {}),
      ...(lists && c.compactions && c.compactions.length > 0 ? { compactions: c.compactions.map(keptRecordOf.compaction) } : {}),
      ...(lists ? { turns: c.turns.map(keptRecordOf.turn) } : {}),
      ...(c.plan && (c.plan.decisions.length > 0 || c.plan.overrides.length > 0) ? { plan: writePlanBook(c.plan) } : {}),
      ...(c.writePolicy ? { writePolicy: { mode: c.writePolicy.mode, folders: [...c.writePolicy.folders] } } : {}),
      ...(c.edits && c.edits.length > 0 ? { edits: c.edits.map(writeEdit) } : {}),
    },
  };
  for (const [key, value] of Object.entries(c.extra ?? {})) if (!OWNED_KEYS.includes(key)) out[key] = value;
  return flagsBeforeData(c.propertyOrder ? inOrder(out, c.propertyOrder) : out);
}

/** An applied edit as the chat data keeps it: its hunks left out when they are too large to keep. */
function writeEdit(e: EditEntry): Record<string, unknown> {
  const { at, hunks, ...rest } = e;
  const keep = !e.hunksLeftOut && JSON.stringify(hunks).length <= KEPT_HUNK_CHARS;
  return { ...rest, at: isoFromEpoch(at), hunks: keep ? hunks : [], ...(keep ? {} : { hunksLeftOut: true }) };
}

/**
 * Records of turns, library refs and compactions, kept by the (immutable) object they record: a
 * save reuses them, and the chat data keeps each one's line by the record (chatData.ts). Frozen,
 * as they are shared between saves.
 */
const turnRecords = new WeakMap<ChatTurn, Record<string, unknown>>();
const refRecords = new WeakMap<ItemRef, Record<string, unknown>>();
const compactionRecords = new WeakMap<CompactionRecord, Record<string, unknown>>();

function kept<K extends object>(memo: WeakMap<K, Record<string, unknown>>, key: K, write: (key: K) => Record<string, unknown>): Record<string, unknown> {
  return madeOnce(memo, key, (k) => Object.freeze(write(k)));
}

/** The record of a library item, compaction or turn, made once per object (what writeMeta lists). */
export const keptRecordOf = {
  item: (r: ItemRef) => kept(refRecords, r, writeRef),
  compaction: (r: CompactionRecord) => kept(compactionRecords, r, writeCompaction),
  turn: (t: ChatTurn) => kept(turnRecords, t, writeTurn),
};

/** `strata`'s keys that stay in the frontmatter: small, and what the chat list reads without decoding the note. */
export const FRONTMATTER_STRATA_KEYS: readonly string[] = ['format', 'id', 'project', 'titleSource'];

/** writeMeta's record apart: the frontmatter (readable properties, a short `strata`) and the chat data (the rest of `strata`). */
export function splitMeta(record: Record<string, unknown>): { frontmatter: Record<string, unknown>; data: Record<string, unknown> } {
  const strata = record.strata as Record<string, unknown>;
  const head: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(strata)) (FRONTMATTER_STRATA_KEYS.includes(key) ? head : data)[key] = value;
  return { frontmatter: { ...record, strata: head }, data };
}

/**
 * One turn's record: a pure function of the turn (a save can reuse it while the turn is unchanged).
 * Empty lists and a null prefix change are left out: the reader's defaults.
 */
function writeTurn(t: ChatTurn): Record<string, unknown> {
  const record: Record<string, unknown> = { status: t.status, at: isoFromEpoch(t.at) };
  if (t.replyAt !== undefined && t.reply !== undefined) record.replyAt = isoFromEpoch(t.replyAt);
  if (t.provider !== undefined) record.provider = t.provider;
  if (t.model !== undefined) record.model = t.model;
  record.textHash = textHash(t.text);
  if (t.reply !== undefined) record.replyHash = textHash(t.reply);
  if (t.chips !== undefined) record.chips = t.chips.map(writeChip);
  if (t.referenced.length > 0) record.referenced = [...t.referenced];
  if (t.problems.length > 0) record.problems = t.problems.map((p) => ({ chipId: p.chipId, reason: p.reason, detail: p.detail }));
  if (t.images && t.images.length > 0) record.images = t.images.map(writeImageRef);
  if (t.search) record.search = writeSearch(t.search);
  if (t.agent) record.agent = writeAgent(t.agent);
  if (t.plan) record.plan = writePlanRecord(t.plan);
  if (t.envelope) record.envelope = writeEnvelope(t.envelope);
  if (t.usage !== undefined) record.usage = t.usage ? { ...t.usage } : null;
  if (t.cost !== undefined) record.cost = t.cost;
  if (t.error !== undefined) record.error = t.error;
  if (t.tokens !== undefined) record.tokens = t.tokens;
  return record;
}

function writeAgent(a: AgentTurn): Record<string, unknown> {
  return {
    stop: a.stop,
    steps: a.steps.map((s) => ({
      text: s.text,
      calls: s.calls.map((c) => ({ id: c.id, name: c.name, args: { ...c.args }, chars: c.chars, ms: c.ms, isError: c.isError })),
      usage: { ...s.usage },
      usageReported: s.usageReported,
      promptTokens: s.promptTokens,
    })),
  };
}

function writeSearch(s: TurnSearch): Record<string, unknown> {
  const r = s.rewrite;
  return {
    query: s.query,
    sources: s.sources.map((x) => ({ path: x.path, heading: x.heading })),
    ...(r
      ? {
          rewrite: {
            status: r.status,
            key: r.key,
            ...(r.detail !== undefined ? { detail: r.detail } : {}),
            ...(r.provider !== undefined ? { provider: r.provider } : {}),
            ...(r.model !== undefined ? { model: r.model } : {}),
            ...(r.usage !== undefined ? { usage: { ...r.usage } } : {}),
            ...(r.cost !== undefined ? { cost: r.cost } : {}),
          },
        }
      : {}),
  };
}

/** Pinned and archived go before the chat's own data, where the chat list reads the note's head (chatFlags.ts). */
function flagsBeforeData(out: Record<string, unknown>): Record<string, unknown> {
  if (!FLAG_KEYS.some((key) => key in out)) return out;
  const sorted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'strata') for (const flag of FLAG_KEYS) if (flag in out) sorted[flag] = out[flag];
    if (!(key in sorted)) sorted[key] = value;
  }
  return sorted;
}

/** The properties in the order the note had them; keys it did not have follow, in the written order. */
function inOrder(out: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of order) if (key in out) sorted[key] = out[key];
  for (const [key, value] of Object.entries(out)) if (!(key in sorted)) sorted[key] = value;
  return sorted;
}

/** The note's property order, when it is not the one writeMeta uses (a user's properties first, keys moved by hand). */
function propertyOrderOf(data: Record<string, unknown>): string[] | undefined {
  const keys = Object.keys(data);
  const owned = keys.filter((k) => OWNED_KEYS.includes(k));
  const ownedInOrder = OWNED_KEYS.filter((k) => owned.includes(k));
  const userAfterOwned = keys.slice(0, owned.length).every((k) => OWNED_KEYS.includes(k));
  return userAfterOwned && owned.every((k, i) => k === ownedInOrder[i]) ? undefined : keys;
}

function writeRef(r: ItemRef): Record<string, unknown> {
  // URL page text lives in the body (it is text people may want to read, and long).
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    source: r.source,
    ...(r.via !== undefined ? { via: r.via } : {}),
    version: r.version,
    hash: r.hash,
    tokens: r.tokens,
    enteredTurn: r.enteredTurn,
    // A planned item's summary or extract is what was sent: kept as it is, so reopening sends the same bytes.
    ...(r.planned ? { planned: { ...r.planned }, content: r.content } : {}),
  };
}

function writeCompaction(r: CompactionRecord): Record<string, unknown> {
  return {
    trigger: r.trigger,
    through: r.through,
    previous: r.previous,
    kind: r.kind,
    turnsDropped: r.turnsDropped,
    outputsMasked: r.outputsMasked,
    ...(r.outputsShortened !== undefined ? { outputsShortened: r.outputsShortened } : {}),
    tokensBefore: r.tokensBefore,
    tokensAfter: r.tokensAfter,
    summary: r.summary ? { provider: r.summary.provider, model: r.summary.model, usage: { ...r.summary.usage }, calls: r.summary.calls } : null,
    ...(r.fallback !== undefined ? { fallback: r.fallback } : {}),
    ...(r.library ? { library: { ...r.library } } : {}),
    maskedThrough: r.maskedThrough,
    masking: { maxOutputLines: r.masking.maxOutputLines, maxCodeLines: r.masking.maxCodeLines },
    ...(r.toolForms && r.toolForms.length > 0 ? { toolForms: r.toolForms.map((f) => ({ turn: f.turn, index: f.index, kind: f.kind, hash: f.hash, text: f.text })) } : {}),
    at: isoFromEpoch(r.at),
    cost: r.cost,
    textHash: textHash(r.text),
  };
}

/** An image a turn sent, without its bytes (the vault has them; reopening reads and checks them). */
function writeImageRef(i: ImageRef): Record<string, unknown> {
  return { path: i.path, mediaType: i.mediaType, width: i.width, height: i.height, bytes: i.bytes, hash: i.hash, tokens: i.tokens };
}

function writeChip(chip: ContextChip): Record<string, unknown> {
  switch (chip.kind) {
    case 'url':
      return { kind: 'url', url: chip.url, ...(chip.title !== undefined ? { title: chip.title } : {}) };
    case 'selection':
      return { kind: 'selection', path: chip.path, fromLine: chip.fromLine, toLine: chip.toLine };
    case 'pdf':
      return { kind: 'pdf', path: chip.path };
    default:
      return { ...chip };
  }
}

function writeEnvelope(e: EnvelopeRecord): Record<string, unknown> {
  const layers: Record<string, unknown> = {};
  for (const id of LAYER_IDS) layers[id] = { tokens: e.layers[id].tokens };
  return {
    layers,
    promptTokens: e.promptTokens,
    ...(e.prefixChange ? { prefixChange: { reason: e.prefixChange.reason, detail: e.prefixChange.detail } } : {}),
    ...(e.full.length > 0 ? { full: [...e.full] } : {}),
    ...(e.freshness.length > 0
      ? { freshness: e.freshness.map((f) => ({ id: f.id, status: f.status, fromVersion: f.fromVersion, ...(f.toVersion !== undefined ? { toVersion: f.toVersion } : {}) })) }
      : {}),
    ...(e.removed.length > 0 ? { removed: [...e.removed] } : {}),
    ...(e.compile ? { compile: { mode: e.compile.mode, reason: e.compile.reason } } : {}),
  };
}

// ---------------------------------------------------------------- read

export function readMeta(data: Record<string, unknown> | null, fallback: { id: string; now: number }, warnings: string[]): ReadMeta {
  const read = readLenient(Frontmatter(), data ?? {}, EMPTY_FRONTMATTER, 'the metadata is rebuilt from the text', 'the frontmatter');
  // Without frontmatter the codec has said so already; a missing field is then no news.
  if (data) {
    warnings.push(...read.warnings);
    if (data.created === undefined) warnings.push('created: missing; the load time is used');
  }
  const d = read.value;
  const s = d.strata;
  const created = d.created ?? fallback.now;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data ?? {})) if (!OWNED_KEYS.includes(key)) extra[key] = value;
  const propertyOrder = data ? propertyOrderOf(data) : undefined;
  const conversation: Conversation = {
    id: s?.id ?? fallback.id,
    title: d.title,
    titleSource: s?.titleSource ?? 'first-message',
    ...(s?.titleCall ? { titleCall: s.titleCall } : {}),
    ...(s?.project !== undefined ? { project: s.project.trim() } : {}),
    provider: d.provider,
    model: d.model,
    mode: d.mode,
    created,
    updated: d.updated ?? created,
    session: s?.session ?? null,
    turns: [],
    library: [],
    lastRequest: s?.lastRequest ?? null,
    ...(s && s.pending.length > 0 ? { pending: s.pending } : {}),
    ...(s?.condensedLibrary && s.condensedLibrary.entries.length > 0 ? { condensedLibrary: s.condensedLibrary } : {}),
    ...(s?.plan ? { plan: s.plan } : {}),
    ...(s?.writePolicy ? { writePolicy: s.writePolicy } : {}),
    ...(s && s.edits.length > 0 ? { edits: s.edits } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
    ...(propertyOrder ? { propertyOrder } : {}),
  };
  return {
    conversation,
    // A readable time (nearly every record) keeps the record as read: no copy per turn.
    turns: (s?.turns ?? []).map((turn) => (turn.at !== null ? (turn as TurnRecord) : { ...turn, at: created })),
    library: s?.library ?? [],
    compactions: (s?.compactions ?? []).map(({ at, ...record }) => ({ ...record, at: at ?? created })),
    libraryFromData: Boolean(s?.library),
  };
}
