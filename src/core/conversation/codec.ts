import { z } from 'zod';
import { LIFECYCLES, type PromptFragment, type ToolOutput } from '../engine/types';
import { splitFrontmatter, parseYaml, stringifyYaml } from '../markdown/frontmatter';
import { readMeta, splitMeta, textHash, writeMeta, type TurnRecord } from './meta';
import { chatDataJoins, encodeChatDataJoined, extractChatData, readChatData, withChatData, type ChatDataJoins } from './chatData';
import { PrefixJoin } from './prefixJoin';
import { madeOnce, RecentByKey } from '../memo';
import { FORMAT_VERSIONS } from './metaSchema';
import { fromLf, isLfNote, LF_NOTE, noteFormat, toLf } from './lineEndings';
import type { ChatTurn, CompactionRecord, Conversation, ItemRef, NoteFormat } from './model';
import { decodeText, encodeText, isStructureLine, ROLE_HEADING, STRATA_CALLOUT } from './textBlock';
import { calloutPositions, encodeCompactionCallout, readCompactionCallout, SUMMARY_CALLOUT, type BodyCompaction } from './compactionCallout';
import { pairCompactions } from './compactionRecords';
import { decodePartialCallout, encodePartialCallout, PARTIAL_CALLOUT } from './partialCallout';

/**
 * The chat-note codec: Conversation ↔ markdown. Pure and deterministic (encode(decode(x)) is x for
 * any note this module wrote). The body is for people: a heading per message, the context list as
 * wikilinks, the reply as markdown; tool outputs, URL page text and other sent text sit in folded
 * callouts; a compaction's summary is a folded callout at its boundary (compactionCallout.ts). The
 * frontmatter holds the readable properties and the chat's id; the machine state is the chat data
 * callout right under it (chatData.ts). Never note contents, never secrets.
 */

export { FORMAT_VERSION, textHash } from './meta';

export interface DecodedChat {
  readonly conversation: Conversation;
  /** Everything that did not read cleanly, for the user to see. Decoding never throws. */
  readonly warnings: string[];
  /** The note's line breaks and BOM (also on the conversation when they are not the default). */
  readonly format: NoteFormat;
}

// ---------------------------------------------------------------- encode

/**
 * The chat note for a conversation, with the line breaks and BOM of `format`: by default those
 * the conversation was read with (a note checked out with CRLF stays CRLF), else LF.
 * A save re-encodes what changed only: each turn's parts, each record's chat data line, each
 * compaction's and page's callout are kept by the (immutable) object they encode (turnParts,
 * chatData.ts, meta.ts), and the note's growing lists (the chat data's lines, the body's parts) are
 * joined on from the last save's (PrefixJoin): a save at turn 1,000 costs the new turn.
 */
export function encodeChatNote(conversation: Conversation, format: NoteFormat = conversation.format ?? LF_NOTE): string {
  const { frontmatter, data } = splitMeta(writeMeta(conversation, { lists: false }));
  const joins = noteJoins.for(conversation.id);
  const lists = { library: conversation.library, compactions: conversation.compactions ?? [], turns: conversation.turns };
  const head = `---\n${frontmatterYaml(frontmatter)}---\n\n${encodeChatDataJoined(data, lists, joins.data)}\n${conversation.preamble ?? ''}`;
  return fromLf(head + joins.body.join(bodyParts(conversation, joins)), format);
}

/**
 * The body's parts as the last encode of this chat left them (by turn), with what they were made
 * from: turns, library and compactions. A turn's parts depend on the turn, its number, the library
 * (its context list, its page texts) and where compaction callouts fall.
 */
interface BodyMemo {
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
function reusableTurns(memo: BodyMemo | null, c: Conversation, compactions: readonly CompactionRecord[]): number {
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

/** The body's parts; the turns encoded last time (reusableTurns) are taken as they were. */
function bodyParts(conversation: Conversation, holder: { memo: BodyMemo | null }): string[] {
  const compactions = conversation.compactions ?? [];
  const kept = holder.memo;
  const reuse = reusableTurns(kept, conversation, compactions);
  const parts = kept && reuse > 0 ? kept.parts.slice(0, kept.ends[reuse - 1]) : [];
  const ends = kept && reuse > 0 ? kept.ends.slice(0, reuse) : [];
  const answeredAfter = kept && reuse > 0 ? kept.answered.slice(0, reuse) : [];
  let engineTurn = reuse > 0 ? answeredAfter[reuse - 1] : 0;
  const positions = compactions.length > 0 ? calloutPositions(conversation.turns, compactions) : [];
  const calloutsBefore = (at: number): void => {
    compactions.forEach((c, k) => {
      if (positions[k] === at) parts.push(memo(compactionCallouts, c, encodeCompactionCallout));
    });
  };
  // Kept from the last encode while the library only grew; built when a turn needs it.
  let index = kept && reuse > 0 && kept.index ? libraryIndex(conversation.library, kept.index, kept.library.length) : null;
  const turns = conversation.turns;
  for (let i = reuse; i < turns.length; i++) {
    const turn = turns[i];
    const library = (index ??= libraryIndex(conversation.library));
    if (turn.status === 'complete') engineTurn++;
    calloutsBefore(i);
    const own = turnParts(turn, i + 1);
    parts.push(own.head);
    const context = contextCallout(turn, library);
    if (context) parts.push(context);
    parts.push(own.tail);
    if (turn.status === 'complete') for (const item of library.urlByTurn.get(engineTurn) ?? []) parts.push(memo(pageCallouts, item, pageCallout));
    parts.push(own.reply);
    ends.push(parts.length);
    answeredAfter.push(engineTurn);
  }
  let ids: Set<string>;
  if (kept && reuse > 0) {
    ids = kept.ids;
    for (let i = kept.library.length; i < conversation.library.length; i++) ids.add(conversation.library[i].id);
  } else ids = new Set(conversation.library.map((item) => item.id));
  holder.memo = {
    turns: turns.slice(),
    library: conversation.library.slice(),
    ids,
    compactions: compactions.slice(),
    parts: parts.slice(),
    ends,
    answered: answeredAfter,
    index,
  };
  calloutsBefore(turns.length);
  return parts;
}

/** The joiners of a chat's note (by chat id): its chat data lists and its body. */
const noteJoins = new RecentByKey<{ readonly data: ChatDataJoins; readonly body: PrefixJoin; memo: BodyMemo | null }>(() => ({ data: chatDataJoins(), body: new PrefixJoin(), memo: null }));

/** What a turn writes of itself (its context list and page texts depend on the library: written apart). */
interface TurnParts {
  readonly n: number;
  /** The user's message, and the not-answered and partial-reply callouts. */
  readonly head: string;
  /** The sent text, turn context and tool callouts. */
  readonly tail: string;
  /** The reply (empty without one). */
  readonly reply: string;
}

const turnPartsMemo = new WeakMap<ChatTurn, TurnParts>();
const compactionCallouts = new WeakMap<CompactionRecord, string>();
const pageCallouts = new WeakMap<ItemRef, string>();

const memo = madeOnce;

/** A turn's own parts: a pure function of the turn and its number, kept until either changes. */
function turnParts(turn: ChatTurn, n: number): TurnParts {
  const kept = turnPartsMemo.get(turn);
  if (kept && kept.n === n) return kept;
  let head = section(`## User · ${n}`, turn.text);
  if (turn.status !== 'complete') head += failedCallout(turn);
  if (turn.status !== 'complete' && turn.partial) head += encodePartialCallout(turn.partial);
  let tail = '';
  if (turn.sent !== undefined) tail += jsonCallout('sent', 'Sent to the model', turn.sent);
  if (turn.dynamic.length > 0) tail += jsonCallout('turn-context', 'Turn context', turn.dynamic);
  for (const tool of turn.tools) tail += jsonCallout('tool', `Tool: ${oneLine(tool.name)}`, tool);
  const parts: TurnParts = { n, head, tail, reply: turn.reply !== undefined ? section(`## Assistant · ${n}`, turn.reply) : '' };
  turnPartsMemo.set(turn, parts);
  return parts;
}

function pageCallout(item: ItemRef): string {
  return jsonCallout('url', `Page text: ${oneLine(item.source)}`, { id: item.id, version: item.version, content: item.content ?? '' });
}

/** The frontmatter's YAML, kept for the next save (it changes with the title and times only). */
let lastFrontmatter: { readonly key: string; readonly yaml: string } | null = null;

function frontmatterYaml(frontmatter: Record<string, unknown>): string {
  const key = JSON.stringify(frontmatter);
  if (lastFrontmatter?.key !== key) lastFrontmatter = { key, yaml: stringifyYaml(frontmatter) };
  return lastFrontmatter.yaml;
}

function section(heading: string, text: string): string {
  return `${heading}\n\n${encodeText(text)}\n\n`;
}

function failedCallout(turn: ChatTurn): string {
  const reason = turn.error ? `: ${oneLine(turn.error)}` : '';
  return `> [!strata-failed] Not answered${reason}\n> This message was not answered. Retry it from the chat.\n\n`;
}

/** One line of display text: no line breaks (or other controls), no markup that could open a block. */
function oneLine(text: string): string {
  const flat = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').replace(/[[\]<>`]/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

function jsonCallout(type: string, title: string, payload: unknown): string {
  // One JSON line: JSON never holds a raw line break, and a line starting with `>` cannot end the callout early.
  return `> [!strata-${type}]- ${title}\n> \`\`\`json\n> ${JSON.stringify(payload)}\n> \`\`\`\n\n`;
}


/**
 * The library by version (`id@version`), each id's latest version, and URL items by the turn they
 * entered: built once per encode (not per turn), and extended while the library only grows.
 */
interface LibraryIndex {
  readonly byVersion: Map<string, ItemRef>;
  readonly latest: Map<string, ItemRef>;
  readonly urlByTurn: Map<number, ItemRef[]>;
}

function libraryIndex(library: readonly ItemRef[], into: LibraryIndex = { byVersion: new Map(), latest: new Map(), urlByTurn: new Map() }, from = 0): LibraryIndex {
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
function contextCallout(turn: ChatTurn, { byVersion, latest }: LibraryIndex): string | null {
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

function contextList(turn: ChatTurn, full: readonly (ItemRef | undefined)[], again: readonly (ItemRef | undefined)[]): string | null {
  const lines: string[] = [];
  for (const item of full) if (item) lines.push(contextLine(item, item.version > 1 ? `v${item.version}` : ''));
  turn.referenced.forEach((id, i) => {
    const item = again[i];
    lines.push(item ? contextLine(item, 'again') : `- ${code(id)} · again`);
  });
  for (const problem of turn.problems) lines.push(`- ${code(problem.chipId)} · not attached (${problem.reason})`);
  if (lines.length === 0) return null;
  return `> [!strata-context]- Context (${lines.length})\n${lines.map((l) => `> ${l}`).join('\n')}\n\n`;
}

/**
 * Names shown in the context list (paths, ids, tags) are free text: a file name may hold a line
 * break (legal on Linux and macOS), which would put a line of its own, a forged heading, into the
 * note. Line breaks, other control characters and U+2028/U+2029 are shown as `\uXXXX` instead;
 * refFromContextLine reads them back.
 */
const UNSAFE_INLINE = /[\p{Cc}\u2028\u2029]/gu;
const HAS_UNSAFE = /[\p{Cc}\u2028\u2029]/u;

function inline(text: string): string {
  return text.replace(UNSAFE_INLINE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function uninline(text: string): string {
  return text.replace(/\\u([0-9a-f]{4})/g, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return HAS_UNSAFE.test(c) ? c : escape;
  });
}

/** A name as inline code (backticks cannot be escaped inside one: they become quotes). */
function code(text: string): string {
  return `\`${inline(text).replace(/`/g, "'")}\``;
}

function link(path: string): string {
  return /[[\]|#^]/.test(path) || HAS_UNSAFE.test(path) ? code(path) : `[[${path}]]`;
}

function contextLine(item: ItemRef, note: string): string {
  const suffix = [note, item.via ? `via ${inline(item.via)}` : ''].filter(Boolean).map((s) => ` · ${s}`).join('');
  switch (item.kind) {
    case 'note':
      return `- ${link(item.source)}${suffix}`;
    case 'selection': {
      const range = /#L(\d+)-L(\d+)$/.exec(item.id);
      return `- ${link(item.source)} · lines ${range ? `${range[1]}-${range[2]}` : '?'}${suffix}`;
    }
    case 'folder':
      return `- Folder: ${code(item.source)}${suffix}`;
    case 'tag':
      return `- Tag: ${inline(item.source)}${suffix}`;
    case 'url':
      return `- URL: <${item.source.replace(/[<>\s\p{Cc}]/gu, encodeURIComponent)}>${suffix}`;
  }
}

// ---------------------------------------------------------------- decode

interface BodyTurn {
  n: number | null;
  text: string | null;
  reply: string | null;
  failed: boolean;
  /** What had arrived of a cut reply (partialCallout.ts). */
  partial?: string;
  sent?: string;
  dynamic?: PromptFragment[];
  tools: ToolOutput[];
  context: string[];
}

interface ParsedBody {
  preamble: string;
  turns: BodyTurn[];
  urls: Map<string, string>;
  compactions: BodyCompaction[];
}

/** Read a chat note. Never throws; whatever is missing or garbled is reported and replaced by a safe default. */
export function decodeChatNote(note: string, fallback: { id: string; now: number }): DecodedChat {
  const warnings: string[] = [];
  const format = noteFormat(note);
  const text = toLf(note);
  const { yaml, body } = splitFrontmatter(text, isStructureLine);
  let data: Record<string, unknown> | null = null;
  if (yaml === null) warnings.push('the chat note has no frontmatter: its metadata is rebuilt from the text');
  else {
    const parsed = parseYaml(yaml);
    if (parsed.error) warnings.push(`${parsed.error}: metadata is rebuilt from the text`);
    data = parsed.value;
  }
  const { inside, rest: bodyLines } = extractChatData((body.startsWith('\n') ? body.slice(1) : body).split('\n'), warnings);
  if (inside) data = withChatData(data, readChatData(inside, warnings), warnings);
  else if (formatOf(data) >= 2) warnings.push("the chat data callout under the properties is missing: the library and each message's details are rebuilt from the text");
  const meta = readMeta(data, fallback, warnings);
  const parsedBody = parseBody(bodyLines, warnings);

  const turns: ChatTurn[] = [];
  const used = new Set<number>();
  const recordOf: number[] = [];
  const records = meta.turns;
  parsedBody.turns.forEach((bodyTurn, position) => {
    let index = bodyTurn.n !== null ? bodyTurn.n - 1 : position;
    if (index < 0 || index >= records.length || used.has(index)) index = -1;
    if (index < 0 && bodyTurn.n === null && position < records.length && !used.has(position)) index = position;
    const record = index >= 0 ? records[index] : undefined;
    if (record) used.add(index);
    recordOf.push(record ? index : -1);
    const label = `message ${bodyTurn.n ?? position + 1}`;
    turns.push(buildTurn(bodyTurn, record, label, fallback.now, warnings));
  });
  const missing = records.length - used.size;
  if (missing > 0) warnings.push(`${missing} turn(s) recorded in the frontmatter are no longer in the text and were left out`);

  const renumber = engineTurnMap(records, recordOf, turns);
  const library = meta.library.flatMap((item): ItemRef[] => {
    const enteredTurn = renumber.get(item.enteredTurn);
    if (enteredTurn === undefined) {
      warnings.push(`${item.id} (version ${item.version}) entered in a turn that is no longer in the note; left out of the library`);
      return [];
    }
    const moved = enteredTurn === item.enteredTurn ? item : { ...item, enteredTurn };
    if (item.kind !== 'url') return [moved];
    const content = parsedBody.urls.get(`${item.id}@${item.version}`);
    if (content === undefined) {
      warnings.push(`the page text of ${item.id} (version ${item.version}) is missing from the note`);
      return [moved];
    }
    return [{ ...moved, content }];
  });

  const { pending: _pending, ...rest } = meta.conversation;
  const paired = pairCompactions(
    { records: meta.compactions, callouts: parsedBody.compactions, turns, pending: meta.conversation.pending, at: meta.conversation.updated },
    warnings,
  );
  const conversation: Conversation = {
    ...rest,
    ...(paired.pending && paired.pending.length > 0 ? { pending: paired.pending } : {}),
    turns,
    library: meta.libraryFromData ? library : libraryFromContext(parsedBody.turns, turns, warnings),
    ...(paired.compactions.length > 0 ? { compactions: paired.compactions } : {}),
    ...(parsedBody.preamble ? { preamble: parsedBody.preamble } : {}),
    ...(isLfNote(format) ? {} : { format }),
  };
  return { conversation, warnings, format };
}

/** The format a note's frontmatter says it is in (1 when it does not say: the notes written before the number was). */
function formatOf(data: Record<string, unknown> | null): number {
  const strata = data?.strata;
  const format = typeof strata === 'object' && strata !== null ? (strata as Record<string, unknown>).format : undefined;
  return (FORMAT_VERSIONS as readonly unknown[]).includes(format) ? (format as number) : 1;
}

/**
 * Library refs count turns the way the engine does (answered turns only). When turns were deleted
 * by hand or lost their reply, map each recorded engine turn to its new number.
 */
function engineTurnMap(records: readonly TurnRecord[], recordOf: readonly number[], turns: readonly ChatTurn[]): Map<number, number> {
  const oldNumber = new Map<number, number>();
  let n = 0;
  records.forEach((r, i) => {
    if (r.status === 'complete') oldNumber.set(i, ++n);
  });
  const map = new Map<number, number>();
  let m = 0;
  turns.forEach((t, i) => {
    if (t.status !== 'complete') return;
    m++;
    const old = oldNumber.get(recordOf[i]);
    if (old !== undefined) map.set(old, m);
  });
  return map;
}

function buildTurn(body: BodyTurn, record: TurnRecord | undefined, label: string, now: number, warnings: string[]): ChatTurn {
  const text = body.text ?? '';
  if (body.text === null) warnings.push(`${label}: the user's text is missing`);
  if (!record) {
    if (body.reply === null && !body.failed) warnings.push(`${label}: no reply and no metadata; shown as not answered`);
    const status = body.reply === null ? 'failed' : 'complete';
    return {
      status,
      text,
      at: now,
      ...(body.reply !== null ? { reply: body.reply } : {}),
      dynamic: body.dynamic ?? [],
      tools: body.tools,
      referenced: [],
      problems: [],
      ...(status === 'failed' ? { error: 'not answered' } : {}),
      ...(body.sent !== undefined ? { sent: body.sent } : {}),
      ...(status === 'failed' && body.partial !== undefined ? { partial: body.partial } : {}),
    };
  }
  if (record.textHash && textHash(text) !== record.textHash) warnings.push(`${label}: the user's text was edited by hand; the edited text is kept`);
  let status = record.status;
  let reply = body.reply ?? undefined;
  if (status === 'complete' && reply === undefined) {
    warnings.push(`${label}: the reply is missing; the message is shown as not answered`);
    status = 'failed';
  }
  if (status !== 'complete' && reply !== undefined) {
    warnings.push(`${label}: a reply was added to a message marked not answered; it is kept as the reply`);
    status = 'complete';
  }
  if (reply !== undefined && record.replyHash && textHash(reply) !== record.replyHash) {
    warnings.push(`${label}: the reply was edited by hand; the edited text is kept`);
  }
  if (status !== 'complete') reply = undefined;
  return {
    status,
    text,
    ...(body.sent !== undefined ? { sent: body.sent } : {}),
    at: record.at,
    ...(reply !== undefined ? { reply } : {}),
    ...(reply !== undefined && record.replyAt !== undefined ? { replyAt: record.replyAt } : {}),
    ...(record.provider !== undefined ? { provider: record.provider } : {}),
    ...(record.model !== undefined ? { model: record.model } : {}),
    ...(record.chips !== undefined ? { chips: record.chips } : {}),
    dynamic: body.dynamic ?? [],
    tools: body.tools,
    referenced: record.referenced,
    problems: record.problems,
    ...(record.images && record.images.length > 0 ? { images: record.images } : {}),
    ...(record.search !== undefined ? { search: record.search } : {}),
    ...(record.agent !== undefined ? { agent: record.agent } : {}),
    ...(record.plan !== undefined ? { plan: record.plan } : {}),
    ...(record.envelope !== undefined ? { envelope: record.envelope } : {}),
    ...(record.usage !== undefined ? { usage: record.usage } : {}),
    ...(record.cost !== undefined ? { cost: record.cost } : {}),
    ...(status !== 'complete' ? { error: record.error ?? 'not answered' } : {}),
    ...(status !== 'complete' && body.partial !== undefined ? { partial: body.partial } : {}),
    ...(record.tokens !== undefined ? { tokens: record.tokens } : {}),
  };
}

interface Structure {
  readonly line: number;
  readonly kind: 'user' | 'assistant' | 'callout';
  readonly n: number | null;
  readonly callout?: string;
}

function parseBody(lines: readonly string[], warnings: string[]): ParsedBody {
  const structure: Structure[] = [];
  lines.forEach((line, i) => {
    // Structure lines start with `#` or `>`: the others (nearly all) skip the patterns.
    const first = line.charCodeAt(0);
    if (first !== 0x23 && first !== 0x3e) return;
    const role = ROLE_HEADING.exec(line);
    if (role) {
      structure.push({ line: i, kind: role[1].toLowerCase() === 'user' ? 'user' : 'assistant', n: role[2] ? Number(role[2]) : null });
      return;
    }
    const callout = STRATA_CALLOUT.exec(line);
    if (callout) structure.push({ line: i, kind: 'callout', n: null, callout: callout[1].toLowerCase() });
  });
  const out: ParsedBody = { preamble: '', turns: [], urls: new Map(), compactions: [] };
  const firstLine = structure.length > 0 ? structure[0].line : lines.length;
  out.preamble = firstLine === 0 ? '' : lines.slice(0, firstLine).join('\n') + (firstLine < lines.length ? '\n' : '');
  let current: BodyTurn | null = null;
  const newTurn = (n: number | null): BodyTurn => ({ n, text: null, reply: null, failed: false, tools: [], context: [] });
  structure.forEach((s, k) => {
    const end = k + 1 < structure.length ? structure[k + 1].line : lines.length;
    const segment = lines.slice(s.line + 1, end).join('\n') + (end < lines.length ? '\n' : '');
    if (s.kind === 'user') {
      current = newTurn(s.n);
      out.turns.push(current);
      current.text = messageText(segment, warnings);
    } else if (s.kind === 'assistant') {
      const open: BodyTurn | null = current;
      if (!open || open.reply !== null || (s.n !== null && open.n !== null && s.n !== open.n)) {
        warnings.push(`a reply (${s.n ?? 'unnumbered'}) has no user message before it; kept with an empty one`);
        current = newTurn(s.n);
        current.text = '';
        out.turns.push(current);
      }
      (current as BodyTurn).reply = messageText(segment, warnings);
    } else if (s.callout === SUMMARY_CALLOUT) {
      // Before the message that follows it: its boundary is the answered messages above it.
      out.compactions.push(readCompactionCallout(lines[s.line], calloutLines(SUMMARY_CALLOUT, segment, warnings), out.turns.length));
    } else {
      readCallout(s.callout ?? '', segment, current, out, warnings);
    }
  });
  return out;
}

/** A message block: one blank line after the heading, the encoded text, one blank line before the next heading. */
function messageText(segment: string, warnings: string[]): string {
  let block = segment.startsWith('\n') ? segment.slice(1) : segment;
  if (block.endsWith('\n\n')) block = block.slice(0, -2);
  else if (block.endsWith('\n')) block = block.slice(0, -1);
  const decoded = decodeText(block);
  if (decoded.warning) warnings.push(decoded.warning);
  return decoded.text;
}

/** A callout's lines without their `> `; text after the callout (not quoted) is reported. */
function calloutLines(type: string, segment: string, warnings: string[]): string[] {
  const lines = segment.split('\n');
  const inside: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('>')) break;
    inside.push(line.replace(/^> ?/, ''));
  }
  const trailing = lines.slice(inside.length).join('\n').trim();
  if (trailing) warnings.push(`text after a ${type} callout is not part of any message and was left out: "${trailing.slice(0, 60)}"`);
  return inside;
}

function readCallout(type: string, segment: string, turn: BodyTurn | null, out: ParsedBody, warnings: string[]): void {
  const inside = calloutLines(type, segment, warnings);
  if (type === 'failed') {
    if (turn) turn.failed = true;
    return;
  }
  if (type === 'context') {
    if (turn) turn.context = inside.filter((l) => l.startsWith('- '));
    return;
  }
  if (type === PARTIAL_CALLOUT) {
    const partial = decodePartialCallout(inside);
    if (partial.warning) warnings.push(partial.warning);
    if (turn && partial.text) turn.partial = partial.text;
    return;
  }
  const json = inside.filter((l) => !/^```/.test(l)).join('\n');
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    warnings.push(`a ${type} callout could not be read and was left out`);
    return;
  }
  const where = turn ? `message ${turn.n ?? '?'}` : 'the note';
  if (!turn && type !== 'url') {
    warnings.push(`a ${type} callout before the first message was left out`);
    return;
  }
  switch (type) {
    case 'sent':
      if (typeof payload === 'string' && turn) turn.sent = payload;
      else warnings.push(`${where}: the sent text is not a string; left out`);
      return;
    case 'turn-context': {
      const dynamic = TurnContextPayload.safeParse(payload);
      if (dynamic.success && turn) turn.dynamic = dynamic.data;
      else warnings.push(`${where}: the turn context could not be read; left out`);
      return;
    }
    case 'tool': {
      const tool = ToolPayload.safeParse(payload);
      if (tool.success && turn) turn.tools.push(tool.data);
      else warnings.push(`${where}: a tool output could not be read; left out`);
      return;
    }
    case 'url': {
      const page = PagePayload.safeParse(payload);
      if (page.success) out.urls.set(`${page.data.id}@${page.data.version}`, page.data.content);
      else warnings.push(`${where}: a page text could not be read; left out`);
      return;
    }
    default:
      warnings.push(`${where}: unknown callout strata-${type}; left out`);
  }
}

const TurnContextPayload = z.array(z.object({ id: z.string(), lifecycle: z.enum(LIFECYCLES), text: z.string() })) satisfies z.ZodType<PromptFragment[]>;
const ToolPayload = z.object({ name: z.string(), input: z.string(), output: z.string() }) satisfies z.ZodType<ToolOutput>;
const PagePayload = z.object({ id: z.string(), version: z.number(), content: z.string() });

/**
 * Metadata lost: rebuild library refs from the context lists people can read. Hashes are unknown,
 * so every item will count as changed on load (reported as note-edited), but nothing is forgotten.
 */
function libraryFromContext(bodyTurns: readonly BodyTurn[], turns: readonly ChatTurn[], warnings: string[]): ItemRef[] {
  const refs: ItemRef[] = [];
  const seen = new Set<string>();
  let engineTurn = 0;
  bodyTurns.forEach((body, i) => {
    if (turns[i]?.status !== 'complete') return;
    engineTurn++;
    for (const line of body.context) {
      const ref = refFromContextLine(line, engineTurn);
      if (!ref || seen.has(ref.id)) continue;
      seen.add(ref.id);
      refs.push(ref);
    }
  });
  if (refs.length > 0) warnings.push(`the Context Library was rebuilt from the context lists (${refs.length} item(s)); their versions are unknown`);
  return refs;
}

function refFromContextLine(line: string, turn: number): ItemRef | null {
  const base = { version: 1, hash: '', tokens: 0, enteredTurn: turn };
  const viaText = / · via (\S+)/.exec(line)?.[1];
  const via = viaText === undefined ? undefined : uninline(viaText);
  const linkMatch = /^- (?:\[\[([^\]]+)\]\]|`([^`]+)`)(?: · lines (\d+)-(\d+))?/.exec(line);
  if (line.startsWith('- Folder: `')) {
    const path = uninline(/`([^`]*)`/.exec(line)?.[1] ?? '');
    return { ...base, id: `folder:${path}`, kind: 'folder', title: path || '/', source: path || '/' };
  }
  if (line.startsWith('- Tag: ')) {
    const tag = uninline(line.slice(7).split(' · ')[0].trim());
    return { ...base, id: `tag:${tag}`, kind: 'tag', title: tag, source: tag };
  }
  if (line.startsWith('- URL: ')) return null; // page text lives with the library item; without it nothing can be rebuilt
  if (!linkMatch || line.includes('· not attached')) return null;
  const path = linkMatch[1] ?? uninline(linkMatch[2]);
  const name = (path.split('/').pop() ?? path).replace(/\.md$/i, '');
  if (linkMatch[3]) {
    const id = `${path}#L${linkMatch[3]}-L${linkMatch[4]}`;
    return { ...base, id, kind: 'selection', title: `${name} (lines ${linkMatch[3]}-${linkMatch[4]})`, source: path };
  }
  return { ...base, id: path, kind: 'note', title: name, source: path, ...(via ? { via } : {}) };
}
