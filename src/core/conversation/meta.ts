import type { ContextChip, ItemKind } from '../context/items';
import type { ProblemReason, ResolutionProblem } from '../context/resolver';
import { parseProviderSession } from '../compiler/session';
import type { CommittedRequest, PendingEvent } from '../engine/prefix';
import type { FreshnessStatus, LayerId, PrefixChange, PrefixChangeReason } from '../engine/types';
import type { Usage } from '../usage';
import { sha256Hex } from '../hash';
import { DEFAULT_MODE, TURN_STATUSES, type ChatTurn, type Conversation, type EnvelopeRecord, type ItemRef, type TitleSource, type TurnStatus } from './model';
import { epochFromIso, isoFromEpoch } from './time';

/**
 * The frontmatter: readable properties at the top (title, times, model), the machine state under
 * `strata` (id, provider session, last request fingerprint, library refs, one record per turn).
 * Reading validates field by field: a bad field falls back to a safe default with a warning.
 */

export const FORMAT_VERSION = 1;

/** Short hash of a message as written, to tell a hand-edited message on load. */
export function textHash(text: string): string {
  return sha256Hex(text).slice(0, 16);
}

export const OWNED_KEYS = ['title', 'created', 'updated', 'provider', 'model', 'mode', 'strata'] as const;

/** What the frontmatter keeps of a turn: its metadata (the text lives in the body), plus hashes to spot hand edits. */
export type TurnMeta = Pick<
  ChatTurn,
  'status' | 'at' | 'replyAt' | 'provider' | 'model' | 'chips' | 'referenced' | 'problems' | 'envelope' | 'usage' | 'cost' | 'error'
> & {
  readonly textHash?: string;
  readonly replyHash?: string;
};

export interface ReadMeta {
  /** The conversation without turns, library or preamble (those need the body). */
  readonly conversation: Conversation;
  readonly turns: TurnMeta[];
  readonly library: ItemRef[];
  /** False when the library could not be read (the codec rebuilds it from the context lists). */
  readonly libraryFromData: boolean;
}

const LAYERS: readonly LayerId[] = ['L1', 'L2', 'L3', 'L4', 'L5'];
const KINDS: readonly ItemKind[] = ['note', 'url', 'selection', 'folder', 'tag'];
const REASONS: readonly ProblemReason[] = ['missing', 'binary', 'too-large', 'unreadable', 'outside-vault', 'empty', 'bad-range'];
const PREFIX_REASONS: readonly PrefixChangeReason[] = [
  'settings-changed',
  'model-switch',
  'library-item-removed',
  'compaction',
  'note-edited',
  'library-grew',
  'history-edited',
  'history-context-dropped',
  'rendering-changed',
];
const FRESHNESS: readonly FreshnessStatus[] = ['updated', 'stale-kept', 'missing-kept'];

// ---------------------------------------------------------------- write

export function writeMeta(c: Conversation): Record<string, unknown> {
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
      titleSource: c.titleSource,
      session: c.session ? { ...c.session } : null,
      lastRequest: c.lastRequest ? { ...c.lastRequest, staticFragments: [...c.lastRequest.staticFragments] } : null,
      ...(c.pending && c.pending.length > 0 ? { pending: c.pending.map((e) => ({ ...e })) } : {}),
      library: c.library.map(writeRef),
      turns: c.turns.map((t) => {
        const record: Record<string, unknown> = { status: t.status, at: isoFromEpoch(t.at) };
        if (t.replyAt !== undefined && t.reply !== undefined) record.replyAt = isoFromEpoch(t.replyAt);
        if (t.provider !== undefined) record.provider = t.provider;
        if (t.model !== undefined) record.model = t.model;
        record.textHash = textHash(t.text);
        if (t.reply !== undefined) record.replyHash = textHash(t.reply);
        if (t.chips !== undefined) record.chips = t.chips.map(writeChip);
        record.referenced = [...t.referenced];
        record.problems = t.problems.map((p) => ({ chipId: p.chipId, reason: p.reason, detail: p.detail }));
        if (t.envelope) record.envelope = writeEnvelope(t.envelope);
        if (t.usage !== undefined) record.usage = t.usage ? { ...t.usage } : null;
        if (t.cost !== undefined) record.cost = t.cost;
        if (t.error !== undefined) record.error = t.error;
        return record;
      }),
    },
  };
  for (const [key, value] of Object.entries(c.extra ?? {})) if (!(OWNED_KEYS as readonly string[]).includes(key)) out[key] = value;
  return out;
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
  };
}

function writeChip(chip: ContextChip): Record<string, unknown> {
  switch (chip.kind) {
    case 'url':
      return { kind: 'url', url: chip.url, ...(chip.title !== undefined ? { title: chip.title } : {}) };
    case 'selection':
      return { kind: 'selection', path: chip.path, fromLine: chip.fromLine, toLine: chip.toLine };
    default:
      return { ...chip };
  }
}

function writeEnvelope(e: EnvelopeRecord): Record<string, unknown> {
  const layers: Record<string, unknown> = {};
  for (const id of LAYERS) layers[id] = { tokens: e.layers[id].tokens, hash: e.layers[id].hash };
  return {
    layers,
    promptTokens: e.promptTokens,
    prefixHash: e.prefixHash,
    prefixChange: e.prefixChange ? { reason: e.prefixChange.reason, detail: e.prefixChange.detail } : null,
    full: [...e.full],
    freshness: e.freshness.map((f) => ({ id: f.id, status: f.status, fromVersion: f.fromVersion, ...(f.toVersion !== undefined ? { toVersion: f.toVersion } : {}) })),
    removed: [...e.removed],
    ...(e.compile ? { compile: { mode: e.compile.mode, reason: e.compile.reason } } : {}),
  };
}

// ---------------------------------------------------------------- read

type Warn = (message: string) => void;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function time(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v instanceof Date) return v.getTime();
  return isString(v) ? epochFromIso(v) : null;
}

export function readMeta(data: Record<string, unknown> | null, fallback: { id: string; now: number }, warnings: string[]): ReadMeta {
  const warn: Warn = (m) => warnings.push(m);
  const d = data ?? {};
  const s = isObject(d.strata) ? d.strata : null;
  if (data && !s) warn('the strata properties are missing: the chat is read from its text only');
  if (s && s.format !== undefined && s.format !== FORMAT_VERSION) warn(`unknown chat note format ${JSON.stringify(s.format)}; read as format ${FORMAT_VERSION}`);

  const str = (value: unknown, name: string, def: string): string => {
    if (isString(value) && value.trim() !== '') return value;
    if (value !== undefined && data) warn(`${name}: expected text; "${def}" is used`);
    return def;
  };
  const created = time(d.created);
  if (created === null && data) warn('created: missing or not a date; the load time is used');
  const updated = time(d.updated);
  const titleSource: TitleSource = s && (s.titleSource === 'generated' || s.titleSource === 'user' || s.titleSource === 'first-message') ? s.titleSource : 'first-message';

  let session = null;
  if (s && s.session !== undefined && s.session !== null) {
    session = parseProviderSession(s.session);
    if (!session) warn('session: could not be read; the provider starts a new session');
  }
  let lastRequest: CommittedRequest | null = null;
  if (s && s.lastRequest !== undefined && s.lastRequest !== null) {
    lastRequest = readLastRequest(s.lastRequest);
    if (!lastRequest) warn('lastRequest: could not be read; the next request cannot prove it extends the last one');
  }

  const pending: PendingEvent[] = [];
  if (s && s.pending !== undefined) {
    if (Array.isArray(s.pending)) {
      for (const raw of s.pending) {
        const event = readPendingEvent(raw);
        if (event) pending.push(event);
        else warn('pending: an event could not be read; the next prefix break may be named history-edited');
      }
    } else warn('pending: not a list');
  }

  let libraryFromData = s !== null && Array.isArray(s.library);
  const library: ItemRef[] = [];
  if (s && s.library !== undefined && !Array.isArray(s.library)) {
    warn('library: not a list');
    libraryFromData = false;
  }
  if (s && Array.isArray(s.library)) {
    s.library.forEach((raw, i) => {
      const ref = readRef(raw);
      if (ref) library.push(ref);
      else warn(`library item ${i + 1} could not be read and was left out`);
    });
  }

  const turns: TurnMeta[] = [];
  if (s && Array.isArray(s.turns)) {
    s.turns.forEach((raw, i) => turns.push(readTurn(raw, i + 1, created ?? fallback.now, warn)));
  } else if (s && s.turns !== undefined) warn('turns: not a list; turn metadata is rebuilt from the text');

  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(d)) if (!(OWNED_KEYS as readonly string[]).includes(key)) extra[key] = value;

  const conversation: Conversation = {
    id: s && isString(s.id) && s.id ? s.id : fallback.id,
    title: str(d.title, 'title', 'Untitled chat'),
    titleSource,
    provider: str(d.provider, 'provider', 'unknown'),
    model: str(d.model, 'model', 'unknown'),
    mode: str(d.mode, 'mode', DEFAULT_MODE),
    created: created ?? fallback.now,
    updated: updated ?? created ?? fallback.now,
    session,
    turns: [],
    library: [],
    lastRequest,
    ...(pending.length > 0 ? { pending } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
  return { conversation, turns, library, libraryFromData };
}

function readPendingEvent(v: unknown): PendingEvent | null {
  if (!isObject(v)) return null;
  switch (v.type) {
    case 'removed':
      return isString(v.id) ? { type: 'removed', id: v.id } : null;
    case 'compacted':
      return isCount(v.dropped) ? { type: 'compacted', dropped: v.dropped } : null;
    case 'truncated':
      return isCount(v.turns) ? { type: 'truncated', turns: v.turns } : null;
    case 'rendering':
      return v.rendering === 'transcript' || v.rendering === 'seed' ? { type: 'rendering', rendering: v.rendering } : null;
    case 'edited':
      return isStringList(v.ids) ? { type: 'edited', ids: [...v.ids] } : null;
    default:
      return null;
  }
}

function readLastRequest(v: unknown): CommittedRequest | null {
  if (!isObject(v)) return null;
  if (!isCount(v.count) || !isString(v.combined) || !isString(v.model) || !isStringList(v.staticFragments) || !isCount(v.libraryVersions)) return null;
  return { count: v.count, combined: v.combined, model: v.model, staticFragments: v.staticFragments, libraryVersions: v.libraryVersions };
}

function readRef(v: unknown): ItemRef | null {
  if (!isObject(v)) return null;
  if (!isString(v.id) || !KINDS.includes(v.kind as ItemKind) || !isString(v.source)) return null;
  if (!isCount(v.version) || v.version < 1 || !isCount(v.enteredTurn) || v.enteredTurn < 1) return null;
  return {
    id: v.id,
    kind: v.kind as ItemKind,
    title: isString(v.title) ? v.title : v.id,
    source: v.source,
    ...(isString(v.via) ? { via: v.via } : {}),
    version: v.version,
    hash: isString(v.hash) ? v.hash : '',
    tokens: isCount(v.tokens) ? v.tokens : 0,
    enteredTurn: v.enteredTurn,
  };
}

function readTurn(v: unknown, n: number, defaultAt: number, warn: Warn): TurnMeta {
  if (!isObject(v)) {
    warn(`turn ${n}: its metadata could not be read`);
    return { status: 'complete', at: defaultAt, referenced: [], problems: [] };
  }
  const at = time(v.at);
  const known = (TURN_STATUSES as readonly unknown[]).includes(v.status);
  const status: TurnStatus = known ? (v.status as TurnStatus) : 'complete';
  if (!known) warn(`turn ${n}: unknown status; read as complete if it has a reply`);
  const problems = Array.isArray(v.problems)
    ? v.problems.flatMap((p): ResolutionProblem[] =>
        isObject(p) && isString(p.chipId) && REASONS.includes(p.reason as ProblemReason) && isString(p.detail)
          ? [{ chipId: p.chipId, reason: p.reason as ProblemReason, detail: p.detail }]
          : [],
      )
    : [];
  const replyAt = time(v.replyAt);
  const usage = v.usage === null ? null : readUsage(v.usage);
  const envelope = readEnvelope(v.envelope);
  if (v.envelope !== undefined && !envelope) warn(`turn ${n}: its envelope record could not be read`);
  return {
    status,
    at: at ?? defaultAt,
    ...(replyAt !== null ? { replyAt } : {}),
    ...(isString(v.provider) ? { provider: v.provider } : {}),
    ...(isString(v.model) ? { model: v.model } : {}),
    ...(isString(v.textHash) ? { textHash: v.textHash } : {}),
    ...(isString(v.replyHash) ? { replyHash: v.replyHash } : {}),
    ...(Array.isArray(v.chips) ? { chips: v.chips.flatMap(readChip) } : {}),
    referenced: isStringList(v.referenced) ? v.referenced : [],
    problems,
    ...(envelope ? { envelope } : {}),
    ...(usage !== undefined ? { usage } : {}),
    ...(v.cost === null || (typeof v.cost === 'number' && Number.isFinite(v.cost)) ? { cost: v.cost } : {}),
    ...(isString(v.error) ? { error: v.error } : {}),
  };
}

function readUsage(v: unknown): Usage | undefined {
  if (!isObject(v)) return undefined;
  const { inputTokens, outputTokens, cachedReadTokens, cacheWriteTokens } = v;
  if (![inputTokens, outputTokens, cachedReadTokens, cacheWriteTokens].every(isCount)) return undefined;
  return { inputTokens, outputTokens, cachedReadTokens, cacheWriteTokens } as Usage;
}

function readChip(v: unknown): ContextChip[] {
  if (!isObject(v)) return [];
  switch (v.kind) {
    case 'note':
    case 'folder':
      return isString(v.path) ? [{ kind: v.kind, path: v.path }] : [];
    case 'tag':
      return isString(v.tag) ? [{ kind: 'tag', tag: v.tag }] : [];
    case 'url':
      return isString(v.url) ? [{ kind: 'url', url: v.url, ...(isString(v.title) ? { title: v.title } : {}) }] : [];
    case 'selection':
      return isString(v.path) && isCount(v.fromLine) && isCount(v.toLine) ? [{ kind: 'selection', path: v.path, fromLine: v.fromLine, toLine: v.toLine }] : [];
    default:
      return [];
  }
}

function readEnvelope(v: unknown): EnvelopeRecord | undefined {
  if (!isObject(v) || !isObject(v.layers)) return undefined;
  const layers = {} as Record<LayerId, { tokens: number; hash: string }>;
  for (const id of LAYERS) {
    const layer = v.layers[id];
    if (!isObject(layer) || !isCount(layer.tokens) || !isString(layer.hash)) return undefined;
    layers[id] = { tokens: layer.tokens, hash: layer.hash };
  }
  let prefixChange: PrefixChange | null = null;
  if (isObject(v.prefixChange) && PREFIX_REASONS.includes(v.prefixChange.reason as PrefixChangeReason) && isString(v.prefixChange.detail)) {
    prefixChange = { reason: v.prefixChange.reason as PrefixChangeReason, detail: v.prefixChange.detail };
  }
  const freshness = Array.isArray(v.freshness)
    ? v.freshness.flatMap((f) =>
        isObject(f) && isString(f.id) && FRESHNESS.includes(f.status as FreshnessStatus) && isCount(f.fromVersion)
          ? [{ id: f.id, status: f.status as FreshnessStatus, fromVersion: f.fromVersion, ...(isCount(f.toVersion) ? { toVersion: f.toVersion } : {}) }]
          : [],
      )
    : [];
  return {
    layers,
    promptTokens: isCount(v.promptTokens) ? v.promptTokens : 0,
    prefixHash: isString(v.prefixHash) ? v.prefixHash : '',
    prefixChange,
    full: isStringList(v.full) ? v.full : [],
    freshness,
    removed: isStringList(v.removed) ? v.removed : [],
    ...(isObject(v.compile) && (v.compile.mode === 'full' || v.compile.mode === 'delta') && isString(v.compile.reason)
      ? { compile: { mode: v.compile.mode, reason: v.compile.reason } }
      : {}),
  };
}
