import { agentHistoryOf } from '../engine/agentHistory';
import type { AgentHistory } from '../engine/types';
import type { AgentTurn } from './records/agent';
import { basename } from '../context/items';
import { ChipResolver } from '../context/resolver';
import type { VaultReader } from '../ports/vault';
import { PromptContextEngine, type EngineOptions, type EngineState } from '../engine/engine';
import type { CompletedTurn } from '../engine/completedTurn';
import type { ImagePart, ImageRef, LibraryItem } from '../engine/types';
import { sha256BytesHex, sha256Hex } from '../hash';
import { imageRefOf } from '../engine/images';
import { base64Of } from '../context/images';
import { renderItem } from '../engine/render';
import { tokenCounterFor, warmTokenCounts } from '../tokens/tokenCounter';
import type { ChatTurn, Conversation, ItemRef } from './model';
import { latestCompaction } from './compactionRecords';
import { compactionOf } from './toRecords';
import { turnRange } from './compactionCallout';
import { rememberBlockTokens } from './blockTokens';

/**
 * Rebuild the engine for a saved conversation. Chat notes hold no note text, so every library item
 * is read again from the vault: notes and selections by path (then by unique basename when the
 * note moved), folder and tag listings by listing again; URL page text comes from the chat note.
 *
 * - Same text as when it was sent (hash matches): restored exactly, so the next request extends
 *   the last one byte for byte.
 * - Text changed: restored with the current text and reported; the engine is told (edited ids) so
 *   the next turn names the prefix break `note-edited`. Earlier versions of a changed note cannot be
 *   read any more (the vault only has the current text): they are dropped, and said so.
 * - Gone or ambiguous: left out of the library with a warning listing the candidates; also
 *   reported to the engine as edited, since history no longer carries it.
 * The chat's latest compaction is what history renders through (its summary, its masking), as it
 * was when the chat was saved.
 */

export type RehydrationIssueKind = 'moved' | 'edited' | 'missing' | 'ambiguous' | 'version-lost' | 'unreadable' | 'compaction-dropped';

export interface RehydrationIssue {
  readonly kind: RehydrationIssueKind;
  readonly id: string;
  readonly message: string;
  /** For 'moved': the path found; for 'ambiguous': every note with that name. */
  readonly candidates?: readonly string[];
}

export interface Rehydrated {
  readonly engine: PromptContextEngine;
  readonly state: EngineState;
  /** Ids whose text differs from what was sent, or that are gone: the next turn reports them. */
  readonly edited: readonly string[];
  /** Ids the engine no longer has (gone, ambiguous, unreadable). */
  readonly dropped: readonly string[];
  readonly issues: readonly RehydrationIssue[];
}

interface Located {
  readonly content: string;
  readonly source: string;
  /** The content's sha256 when the read already made it (the resolver hashes each note it reads): not hashed again. */
  readonly hash?: string;
}

const NO_IMAGES: { readonly images: ImagePart[]; readonly lost: string[] } = { images: [], lost: [] };

/** Library items located at once: a vault on disk reads several notes in parallel; a few files open at a time. */
const CONCURRENCY = 16;

/**
 * The engine's record of each saved turn rehydrated before (turns are read-only, and a chat reopened
 * in the session has the same turn objects: decodedNotes.ts), so a reopen does not build a thousand
 * again, and the history they render (by record: historyRecords.ts) is found. Kept only for a turn
 * without images (those are read again from the vault) and at the same place in the chat.
 */
const completedTurns = new WeakMap<ChatTurn, CompletedTurn>();

/** An agent turn history replays natively (its steps, from the record the note keeps). */
function agentOf(agent: AgentTurn | undefined): { agent: AgentHistory } | null {
  const history = agentHistoryOf(agent);
  return history ? { agent: history } : null;
}

/**
 * `resolver`: the chat's own (the controller's), so the notes read here are the ones its first
 * request finds unchanged by their stat instead of reading them all again.
 */
export async function rehydrate(conversation: Conversation, vault: VaultReader, options: EngineOptions = {}, resolver = new ChipResolver(vault)): Promise<Rehydrated> {
  // The counts saved with the turns: the first request then tokenizes only what is new or changed.
  rememberBlockTokens(conversation.turns);
  const issues: RehydrationIssue[] = [];
  const edited = new Set<string>();
  const dropped = new Set<string>();

  const turns: CompletedTurn[] = [];
  const lostImages: string[] = [];
  for (const turn of conversation.turns) {
    if (turn.status !== 'complete' || turn.reply === undefined) continue;
    // Most turns send no image: nothing to read, and no await per turn.
    const { images, lost } = turn.images && turn.images.length > 0 ? await reReadImages(turn.images, vault, turns.length + 1, issues) : NO_IMAGES;
    for (const path of lost) if (!lostImages.includes(path)) lostImages.push(path);
    const known = images.length === 0 ? completedTurns.get(turn) : undefined;
    if (known && known.turn === turns.length + 1 && known.model === (turn.model ?? conversation.model)) {
      turns.push(known);
      continue;
    }
    // Keys set one by one in the spread form's order: a thousand turns, no copies per field.
    const completed: { -readonly [K in keyof CompletedTurn]: CompletedTurn[K] } = {
      turn: turns.length + 1,
      userText: turn.sent ?? turn.text,
      reply: turn.reply,
      model: turn.model ?? conversation.model,
      dynamic: turn.dynamic,
      tools: turn.tools,
      referenced: turn.referenced,
      problems: turn.problems,
    };
    if (images.length > 0) completed.images = images;
    if (lost.length > 0) completed.lostImages = lost;
    const agent = turn.agent ? agentOf(turn.agent) : null;
    if (agent) completed.agent = agent.agent;
    if (images.length === 0) completedTurns.set(turn, completed);
    turns.push(completed);
  }

  const latestVersion = new Map<string, number>();
  for (const ref of conversation.library) latestVersion.set(ref.id, Math.max(latestVersion.get(ref.id) ?? 0, ref.version));

  // Every answered turn is in `turns`: their count is where library entries may have entered.
  const located = await locateAll(conversation.library, turns.length, vault, resolver);
  const counter = tokenCounterFor(conversation.model);
  const library: LibraryItem[] = [];
  const restoredVersion = new Map<string, number>();
  for (const ref of conversation.library) {
    // A hand-edited or sync-conflicted note can repeat or reorder library lines: versions must grow.
    if (ref.version <= (restoredVersion.get(ref.id) ?? 0)) {
      issues.push({ kind: 'unreadable', id: ref.id, message: `${ref.id} version ${ref.version} is listed twice or out of order in the chat note; the repeat is left out` });
      continue;
    }
    if (ref.enteredTurn > turns.length) {
      issues.push({ kind: 'version-lost', id: ref.id, message: `${ref.id} entered in turn ${ref.enteredTurn}, which is no longer in the chat; left out` });
      dropped.add(ref.id);
      continue;
    }
    const at = located.get(ref.id);
    // Said where the item is first met, as when items were located one by one.
    if (at && !at.said) {
      at.said = true;
      issues.push(...at.issues);
    }
    const found = at?.found ?? null;
    if (!found) {
      dropped.add(ref.id);
      edited.add(ref.id);
      continue;
    }
    const hash = found.hash ?? sha256Hex(found.content);
    const isLatest = latestVersion.get(ref.id) === ref.version;
    if (hash !== ref.hash && !isLatest) {
      issues.push({
        kind: 'version-lost',
        id: ref.id,
        message: `version ${ref.version} of ${ref.id} (sent in turn ${ref.enteredTurn}) is no longer in the vault; the current text stands for it`,
      });
      edited.add(ref.id);
      continue;
    }
    if (hash !== ref.hash) {
      issues.push({ kind: 'edited', id: ref.id, message: `${ref.id} changed since the chat was saved; its current text is used` });
      edited.add(ref.id);
    }
    const item: LibraryItem = {
      id: ref.id,
      kind: ref.kind,
      title: ref.title,
      source: found.source,
      ...(ref.via !== undefined ? { via: ref.via } : {}),
      version: ref.version,
      hash,
      content: found.content,
      tokens: ref.tokens,
      enteredTurn: ref.enteredTurn,
      ...(ref.planned ? { planned: ref.planned } : {}),
    };
    // Saved counts are reused when the text is unchanged; otherwise the block is counted as sent
    // (a long one first in slices between frames, so reopening does not hold the interface).
    const reuse = hash === ref.hash && ref.tokens > 0;
    if (!reuse) await warmTokenCounts(conversation.model, [renderItem(item)]);
    library.push(reuse ? item : { ...item, tokens: counter.count(renderItem(item)) });
    restoredVersion.set(ref.id, ref.version);
  }
  for (const id of dropped) {
    if (library.some((item) => item.id === id)) dropped.delete(id);
  }
  const latest = latestCompaction(conversation.compactions);
  let compaction = latest ? compactionOf(latest) : null;
  if (latest && latest.through > turns.length) {
    issues.push({
      kind: 'compaction-dropped',
      id: `compaction:${latest.through}`,
      message: `the summary of ${turnRange(latest.through)} covers more messages than the chat has answered (${turns.length}); history is sent in full instead`,
    });
    compaction = null;
  }
  // An id may keep only some of its versions; the library needs them in increasing order, which entry order already is.
  // History now carries a marker where an image was: the next turn names the break (image-changed).
  const pending = [...(conversation.pending ?? []), ...(lostImages.length > 0 ? [{ type: 'image-changed' as const, paths: lostImages }] : [])];
  const state: EngineState = {
    turns,
    library,
    lastRequest: conversation.lastRequest,
    ...(pending.length > 0 ? { pending } : {}),
    ...(compaction ? { compaction } : {}),
    ...(compaction && conversation.condensedLibrary ? { libraryCondensing: conversation.condensedLibrary } : {}),
  };
  const engine = PromptContextEngine.restore(state, options, [...edited]);
  return { engine, state, edited: [...edited], dropped: [...dropped], issues };
}

interface LocateResult {
  readonly found: Located | null;
  readonly issues: RehydrationIssue[];
  said: boolean;
}

/**
 * Each id's current text, for the ref of it the restore loop locates (the first one that entered in
 * a turn still in the chat), `CONCURRENCY` at a time; each keeps its own issues for the loop to say.
 */
async function locateAll(library: readonly ItemRef[], turns: number, vault: VaultReader, resolver: ChipResolver): Promise<Map<string, LocateResult>> {
  const first = new Map<string, ItemRef>();
  for (const ref of library) if (!first.has(ref.id) && ref.version > 0 && ref.enteredTurn <= turns) first.set(ref.id, ref);
  const out = new Map<string, LocateResult>();
  // A note at its path that the resolver read before and the vault reports unchanged (every one, when
  // a chat is reopened in the session) is found at once; the others are located as below.
  const refs: ItemRef[] = [];
  for (const ref of first.values()) {
    const item = ref.kind === 'note' && !ref.planned ? resolver.seen.known(vault, ref.source) : undefined;
    if (item) out.set(ref.id, { found: { content: item.content, source: ref.source, hash: item.hash }, issues: [], said: false });
    else refs.push(ref);
  }
  for (let i = 0; i < refs.length; i += CONCURRENCY) {
    const batch = refs.slice(i, i + CONCURRENCY);
    const results = await Promise.all(
      batch.map(async (ref) => {
        const issues: RehydrationIssue[] = [];
        return { found: await locate(ref, vault, resolver, issues), issues, said: false };
      }),
    );
    batch.forEach((ref, j) => out.set(ref.id, results[j]));
  }
  return out;
}

/**
 * A note's text, read as the chat's first request re-reads its library (through the resolver's
 * stat cache, which this read fills); a note the resolver will not take (binary, too large) is read
 * as it is, as before.
 */
async function readNote(path: string, vault: VaultReader, resolver: ChipResolver): Promise<{ text: string; hash?: string } | null> {
  const item = await resolver.seen.current(vault, path, async () => (await resolver.resolve([{ kind: 'note', path }])).items[0] ?? null);
  if (item) return { text: item.content, hash: item.hash };
  const text = await readSafely(vault, path);
  return text === null ? null : { text };
}

/** Find an item's current text: by path, then by unique basename for notes and selections. */
async function locate(ref: ItemRef, vault: VaultReader, resolver: ChipResolver, issues: RehydrationIssue[]): Promise<Located | null> {
  // A planned summary or extract is kept in the chat note as sent; whether its source changed is the plan's to see next turn.
  if (ref.planned && ref.content !== undefined) return { content: ref.content, source: ref.source };
  switch (ref.kind) {
    case 'url':
      if (ref.content === undefined) {
        issues.push({ kind: 'missing', id: ref.id, message: `the page text of ${ref.id} is not in the chat note; left out` });
        return null;
      }
      return { content: ref.content, source: ref.source };
    case 'folder':
    case 'tag': {
      const chip = ref.kind === 'folder' ? { kind: 'folder' as const, path: ref.source === '/' ? '' : ref.source } : { kind: 'tag' as const, tag: ref.source };
      const { items, problems } = await resolver.resolve([chip]);
      const listing = items.find((i) => i.id === ref.id) ?? items[0];
      if (!listing || listing.kind !== ref.kind) {
        issues.push({ kind: 'missing', id: ref.id, message: `${ref.id}: ${problems[0]?.detail ?? 'nothing to list any more'}; left out` });
        return null;
      }
      return { content: listing.content, source: ref.source, hash: listing.hash };
    }
    case 'pdf': {
      const { items, problems } = await resolver.resolve([{ kind: 'pdf', path: ref.source }]);
      if (items.length === 0) {
        issues.push({ kind: problems[0]?.reason === 'missing' ? 'missing' : 'unreadable', id: ref.id, message: `${problems[0]?.detail ?? `${ref.source} could not be read`}; left out` });
        return null;
      }
      return { content: items[0].content, source: ref.source };
    }
    case 'canvas': {
      const { items, problems } = await resolver.resolve([{ kind: 'canvas', path: ref.source }]);
      if (!items[0]) {
        issues.push({ kind: 'missing', id: ref.id, message: `${ref.source}: ${problems[0]?.detail ?? 'not found'}; left out` });
        return null;
      }
      return { content: items[0].content, source: ref.source };
    }
    case 'dataview': {
      const item = await resolver.dataviewItem(ref.id, ref.source);
      if (!item) {
        issues.push({ kind: 'missing', id: ref.id, message: `${ref.id}: the Dataview block is no longer in ${ref.source}; left out` });
        return null;
      }
      return { content: item.content, source: ref.source };
    }
    case 'note':
    case 'selection': {
      const found = await findNote(ref, vault, resolver, issues);
      if (found === null) return null;
      const { path, read } = found;
      if (read === null) {
        issues.push({ kind: 'unreadable', id: ref.id, message: `${path} could not be read; left out` });
        return null;
      }
      const text = read.text;
      if (ref.kind === 'note') return { content: text, source: path, ...(read.hash !== undefined ? { hash: read.hash } : {}) };
      const range = /#L(\d+)-L(\d+)$/.exec(ref.id);
      if (!range) {
        issues.push({ kind: 'missing', id: ref.id, message: `${ref.id}: the line range cannot be read from its id; left out` });
        return null;
      }
      const lines = text.split(/\r?\n/);
      return { content: lines.slice(Number(range[1]) - 1, Number(range[2])).join('\n'), source: path };
    }
  }
}

/** Where the note is now, and its text (read once: null when it is there but does not read). */
async function findNote(
  ref: ItemRef,
  vault: VaultReader,
  resolver: ChipResolver,
  issues: RehydrationIssue[],
): Promise<{ path: string; read: { text: string; hash?: string } | null } | null> {
  const read = await readNote(ref.source, vault, resolver);
  if (read !== null) return { path: ref.source, read };
  const name = basename(ref.source);
  const candidates = (await vault.listMarkdown()).filter((p) => basename(p) === name);
  if (candidates.length === 1) {
    issues.push({ kind: 'moved', id: ref.id, message: `${ref.source} was not found; using ${candidates[0]} (same name)`, candidates });
    return { path: candidates[0], read: await readNote(candidates[0], vault, resolver) };
  }
  if (candidates.length > 1) {
    issues.push({
      kind: 'ambiguous',
      id: ref.id,
      message: `${ref.source} was not found and ${candidates.length} notes are named "${name}": ${candidates.join(', ')}; left out`,
      candidates,
    });
    return null;
  }
  issues.push({ kind: 'missing', id: ref.id, message: `${ref.source} is no longer in the vault; left out` });
  return null;
}

/**
 * A saved turn's images, read again from the vault: an image whose bytes still hash as sent is
 * re-sent byte for byte; one that is gone, changed or unreadable is lost (history carries a
 * marker for it, `[image <path> is no longer available]`), and said so.
 */
async function reReadImages(
  refs: readonly ImageRef[],
  vault: VaultReader,
  turn: number,
  issues: RehydrationIssue[],
): Promise<{ images: ImagePart[]; lost: string[] }> {
  const images: ImagePart[] = [];
  const lost: string[] = [];
  for (const ref of refs) {
    let bytes: Uint8Array | null = null;
    try {
      bytes = vault.readBinary ? await vault.readBinary(ref.path) : null;
    } catch {
      bytes = null;
    }
    if (bytes !== null && sha256BytesHex(bytes) === ref.hash) {
      images.push({ ...imageRefOf(ref), data: base64Of(bytes) });
      continue;
    }
    lost.push(ref.path);
    const what = bytes === null ? 'is no longer in the vault (or cannot be read)' : 'changed since it was sent';
    issues.push({
      kind: bytes === null ? 'missing' : 'edited',
      id: ref.path,
      message: `the image ${ref.path} sent in turn ${turn} ${what}; history names it instead of sending it`,
    });
  }
  return { images, lost };
}

async function readSafely(vault: VaultReader, path: string): Promise<string | null> {
  try {
    return await vault.read(path);
  } catch {
    return null;
  }
}
