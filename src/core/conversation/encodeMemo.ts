import { stringifyYaml } from '../markdown/frontmatter';
import { chatDataJoins, type ChatDataJoins } from './chatData';
import { PrefixJoin } from './prefixJoin';
import { madeOnce, RecentByKey } from '../memo';
import type { ChatTurn, CompactionRecord, Conversation, ItemRef } from './model';
import { encodeCompactionCallout } from './compactionCallout';
import { contextList } from './contextList';
import { writePageCallout, writeTurnParts, type MessageBlocks } from './turnBlocks';

/**
 * What the chat-note encoder keeps between saves, so a save re-encodes what changed only: each
 * turn's parts, context list, compaction and page callout by the (immutable) object it encodes; per
 * chat, the joiners of its growing lists and the body as the last encode left it (which leading
 * turns encode as last time, reusableTurns); the library's index while the library only grows.
 * Whatever it keeps, the note is byte for byte the one a full encode writes (encodeMemo.test.ts).
 */

/**
 * The body's parts as the last encode of this chat left them (by turn), with what they were made
 * from: turns, library and compactions. A turn's parts depend on the turn, its number, the library
 * (its context list, its page texts) and where compaction callouts fall.
 */
export interface BodyMemo {
  turns: readonly ChatTurn[];
  library: readonly ItemRef[];
  /** The ids of `library` (grown with it while it only grows). */
  ids: Set<string>;
  compactions: readonly CompactionRecord[];
  parts: string[];
  /** After turn i: parts.length and answered turns so far. */
  ends: number[];
  answered: number[];
  /** The library's index, when an encode needed it (extended with the items added since). */
  index: LibraryIndex | null;
}

/**
 * How many leading turns encode as last time: the same turn objects under the same compactions,
 * and a library that only grew by items of new ids (a new version of an earlier item can change an
 * earlier turn's context list: then everything is encoded again, as anything else that changed).
 */
export function reusableTurns(memo: BodyMemo | null, c: Conversation, compactions: readonly CompactionRecord[]): number {
  if (!memo || memo.compactions.length !== compactions.length || memo.library.length > c.library.length) return 0;
  for (let i = 0; i < compactions.length; i++) if (memo.compactions[i] !== compactions[i]) return 0;
  for (let i = 0; i < memo.library.length; i++) if (memo.library[i] !== c.library[i]) return 0;
  for (let i = memo.library.length; i < c.library.length; i++) if (memo.ids.has(c.library[i].id)) return 0;
  const limit = Math.min(memo.turns.length, c.turns.length);
  let k = 0;
  while (k < limit && memo.turns[k] === c.turns[k]) k++;
  // A new page entered in a turn kept as it was would belong in that turn's parts.
  const answered = k > 0 ? memo.answered[k - 1] : 0;
  for (let i = memo.library.length; i < c.library.length; i++) if (c.library[i].kind === 'url' && c.library[i].enteredTurn <= answered) return 0;
  return k;
}

/** The joiners of a chat's note (by chat id): its chat data lists and its body. */
export const noteJoins = new RecentByKey<{ readonly data: ChatDataJoins; readonly body: PrefixJoin; memo: BodyMemo | null }>(() => ({ data: chatDataJoins(), body: new PrefixJoin(), memo: null }));

const turnPartsMemo = new WeakMap<ChatTurn, MessageBlocks>();
const compactionCallouts = new WeakMap<CompactionRecord, string>();
const pageCallouts = new WeakMap<ItemRef, string>();

/** A turn's own parts, kept until the turn or its number changes. */
export function turnParts(turn: ChatTurn, n: number): MessageBlocks {
  const kept = turnPartsMemo.get(turn);
  if (kept && kept.n === n) return kept;
  const parts = writeTurnParts(turn, n);
  turnPartsMemo.set(turn, parts);
  return parts;
}

export function compactionCallout(compaction: CompactionRecord): string {
  return madeOnce(compactionCallouts, compaction, encodeCompactionCallout);
}

export function pageCallout(item: ItemRef): string {
  return madeOnce(pageCallouts, item, writePageCallout);
}

/** The frontmatter's YAML, kept for the next save (it changes with the title and times only). */
let lastFrontmatter: { readonly key: string; readonly yaml: string } | null = null;

export function frontmatterYaml(frontmatter: Record<string, unknown>): string {
  const key = JSON.stringify(frontmatter);
  if (lastFrontmatter?.key !== key) lastFrontmatter = { key, yaml: stringifyYaml(frontmatter) };
  return lastFrontmatter.yaml;
}

/**
 * The library by version (`id@version`), each id's latest version, and URL items by the turn they
 * entered: built once per encode (not per turn), and extended while the library only grows.
 */
export interface LibraryIndex {
  readonly byVersion: Map<string, ItemRef>;
  readonly latest: Map<string, ItemRef>;
  readonly urlByTurn: Map<number, ItemRef[]>;
}

export function libraryIndex(library: readonly ItemRef[], into: LibraryIndex = { byVersion: new Map(), latest: new Map(), urlByTurn: new Map() }, from = 0): LibraryIndex {
  for (let i = from; i < library.length; i++) {
    const item = library[i];
    into.byVersion.set(`${item.id}@${item.version}`, item);
    into.latest.set(item.id, item);
    if (item.kind !== 'url') continue;
    const list = into.urlByTurn.get(item.enteredTurn);
    if (list) list.push(item);
    else into.urlByTurn.set(item.enteredTurn, [item]);
  }
  return into;
}

/** Each turn's context list with the library items it was written from: the same items (refs are kept per item) give the same list. */
const contextCallouts = new WeakMap<ChatTurn, { readonly items: readonly (ItemRef | undefined)[]; readonly text: string | null }>();

/** The context of a turn for people: what went in full, then what was attached again by reference. */
export function contextCallout(turn: ChatTurn, { byVersion, latest }: LibraryIndex): string | null {
  const keys = turn.envelope?.full ?? [];
  const kept = contextCallouts.get(turn);
  if (kept && sameItems(kept.items, keys, turn.referenced, byVersion, latest)) return kept.text;
  const full = keys.map((key) => byVersion.get(key));
  const again = turn.referenced.map((id) => latest.get(id));
  const text = contextList(turn, full, again);
  contextCallouts.set(turn, { items: [...full, ...again], text });
  return text;
}

/** The items a context list was written from are still the library's (checked without building anything: it runs per turn per save). */
function sameItems(
  items: readonly (ItemRef | undefined)[],
  keys: readonly string[],
  referenced: readonly string[],
  byVersion: ReadonlyMap<string, ItemRef>,
  latest: ReadonlyMap<string, ItemRef>,
): boolean {
  if (items.length !== keys.length + referenced.length) return false;
  for (let i = 0; i < keys.length; i++) if (items[i] !== byVersion.get(keys[i])) return false;
  for (let i = 0; i < referenced.length; i++) if (items[keys.length + i] !== latest.get(referenced[i])) return false;
  return true;
}
