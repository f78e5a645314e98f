import { splitFrontmatter, parseYaml } from '../markdown/frontmatter';
import { readMeta, textHash, type TurnRecord } from './meta';
import { extractChatData, readChatData, withChatData } from './chatData';
import { FORMAT_VERSIONS } from './metaSchema';
import { isLfNote, noteFormat, toLf } from './lineEndings';
import type { ChatTurn, Conversation, ItemRef, NoteFormat } from './model';
import { isStructureLine } from './textBlock';
import { pairCompactions } from './compactionRecords';
import { parseBody, type BodyMessage } from './bodyParser';
import { libraryFromContext } from './contextList';

/**
 * Chat note → Conversation. The machine state comes from the chat data callout (chatData.ts) and
 * the frontmatter (meta.ts); the text people read and may edit (messages, replies, summaries) from
 * the body (bodyParser.ts), paired with each turn's record by its number. What the user edited by
 * hand is kept and reported; what is lost is rebuilt from the text where it can be.
 */

export interface DecodedChat {
  readonly conversation: Conversation;
  /** Everything that did not read cleanly, for the user to see. Decoding never throws. */
  readonly warnings: string[];
  /** The note's line breaks and BOM (also on the conversation when they are not the default). */
  readonly format: NoteFormat;
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
  // Format 2 wrote the callout under the properties, format 3 at the end: a second one is a copy.
  const keep = formatOf(data) === 2 ? 'first' : 'last';
  const { inside, rest: bodyLines, tail } = extractChatData((body.startsWith('\n') ? body.slice(1) : body).split('\n'), warnings, keep);
  if (inside) data = withChatData(data, readChatData(inside, warnings), warnings);
  else if (formatOf(data) >= 2) warnings.push("the chat data callout is missing: the library and each message's details are rebuilt from the text");
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
    turns.push(buildTurn(bodyTurn, record, label, fallback, warnings));
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
    ...(tail !== undefined ? { tail } : {}),
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

/** The text read as written, or the one read from a fence blank lines were added before when that one is what the record hashed. */
function recovered(written: string, fenced: string | undefined, hash: string | undefined): string {
  return fenced !== undefined && hash && textHash(written) !== hash && textHash(fenced) === hash ? fenced : written;
}

/** `fallback.now` is read only where a turn has no time of its own (decodedNotes.ts keeps a decoding that never read it). */
function buildTurn(body: BodyMessage, record: TurnRecord | undefined, label: string, fallback: { readonly now: number }, warnings: string[]): ChatTurn {
  const text = recovered(body.text ?? '', body.textFenced, record?.textHash);
  if (body.text === null) warnings.push(`${label}: the user's text is missing`);
  if (!record) {
    if (body.reply === null && !body.failed) warnings.push(`${label}: no reply and no metadata; shown as not answered`);
    const status = body.reply === null ? 'failed' : 'complete';
    return {
      status,
      text,
      at: fallback.now,
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
  let reply = body.reply === null ? undefined : recovered(body.reply, body.replyFenced, record.replyHash);
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
  // One object, its keys set in the order the spread form had them (a thousand turns: no copies per field).
  const turn = { status, text } as { -readonly [K in keyof ChatTurn]: ChatTurn[K] };
  if (body.sent !== undefined) turn.sent = body.sent;
  turn.at = record.at;
  if (reply !== undefined) {
    turn.reply = reply;
    if (record.replyAt !== undefined) turn.replyAt = record.replyAt;
  }
  if (record.provider !== undefined) turn.provider = record.provider;
  if (record.model !== undefined) turn.model = record.model;
  if (record.chips !== undefined) turn.chips = record.chips;
  turn.dynamic = body.dynamic ?? [];
  turn.tools = body.tools;
  turn.referenced = record.referenced;
  turn.problems = record.problems;
  if (record.images && record.images.length > 0) turn.images = record.images;
  if (record.search !== undefined) turn.search = record.search;
  if (record.agent !== undefined) turn.agent = record.agent;
  if (record.plan !== undefined) turn.plan = record.plan;
  if (record.envelope !== undefined) turn.envelope = record.envelope;
  if (record.usage !== undefined) turn.usage = record.usage;
  if (record.cost !== undefined) turn.cost = record.cost;
  if (status !== 'complete') {
    turn.error = record.error ?? 'not answered';
    if (body.partial !== undefined) turn.partial = body.partial;
  }
  if (record.tokens !== undefined) turn.tokens = record.tokens;
  return turn;
}
